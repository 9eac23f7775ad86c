// Never terminates on purpose: must become a TIMEOUT row, not a hung measurement run.
__kernel void spin(__global volatile int* out) {
  const int i = get_global_id(0);
  for (;;) {
    out[i] = out[i] + 1;
  }
}
