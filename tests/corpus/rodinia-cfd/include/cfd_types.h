typedef struct {
  float x;
  float y;
  float z;
} FLOAT3;
#define GAMMA 1.4f
