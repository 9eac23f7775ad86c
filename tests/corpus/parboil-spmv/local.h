#define ROW_OF(i) ((i) >> WARP_BITS)
