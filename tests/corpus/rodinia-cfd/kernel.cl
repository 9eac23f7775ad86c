// Step factor in the style of Rodinia's cfd: a helper function, a struct type from the host's headers.
#include "cfd_types.h"

float compute_speed_sqd(FLOAT3 velocity)
{
  return velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
}

__kernel void compute_step_factor(__global const float* variables, __global const float* areas,
                                  __global float* step_factors, int nelr)
{
  const int i = get_global_id(0);
  if (i >= nelr) return;
  float density = variables[i + VAR_DENSITY * nelr];
  FLOAT3 momentum;
  momentum.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  momentum.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  momentum.z = variables[i + (VAR_MOMENTUM + 2) * nelr];
  FLOAT3 velocity;
  velocity.x = momentum.x / density;
  velocity.y = momentum.y / density;
  velocity.z = momentum.z / density;
  float speed_sqd = compute_speed_sqd(velocity);
  float c = sqrt(GAMMA * speed_sqd);
  step_factors[i] = 0.5f / (sqrt(areas[i]) * (sqrt(speed_sqd) + c));
}
