// Black-Scholes European call and put prices; inputs are folded into realistic ranges so any payload is valid.
float cnd(float d) {
  const float a1 = 0.31938153f;
  const float a2 = -0.356563782f;
  const float a3 = 1.781477937f;
  const float a4 = -1.821255978f;
  const float a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  const float w = 1.0f - rsqrt2pi * exp(-0.5f * d * d) * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  return (d < 0.0f) ? 1.0f - w : w;
}

float unit(float v) {
  return v - floor(v);
}

__kernel void black_scholes(__global const float* spot, __global const float* strike,
                            __global const float* years, __global float* call, __global float* put,
                            const float rate, const float volatility, const int n) {
  const int i = get_global_id(0);
  if (i >= n) {
    return;
  }
  const float s = 5.0f + 25.0f * unit(spot[i]);
  const float x = 1.0f + 99.0f * unit(strike[i]);
  const float t = 0.25f + 9.75f * unit(years[i]);
  const float r = 0.02f + 0.05f * unit(rate);
  const float v = 0.1f + 0.4f * unit(volatility);
  const float sqrt_t = sqrt(t);
  const float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
  const float d2 = d1 - v * sqrt_t;
  const float discount = exp(-r * t);
  const float nd1 = cnd(d1);
  const float nd2 = cnd(d2);
  call[i] = s * nd1 - x * discount * nd2;
  put[i] = x * discount * (1.0f - nd2) - s * (1.0f - nd1);
}
