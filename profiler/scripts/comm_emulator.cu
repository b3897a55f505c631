// A stand-in for NCCL's kernel during overlapped training: one block per channel, each on its own
// SM, copying its slice chunk by chunk at a paced rate (or flat out) until the host raises a flag.
// Loaded by comm_contention.py through CuPy (NVRTC); compiles with nvcc too, as a check.

extern "C" __global__ void comm_emulator(const float4* __restrict__ src, float4* __restrict__ dst,
                                         long long slice_vectors, long long chunk_vectors,
                                         long long chunk_ns, long long longest_ns,
                                         const volatile int* stop,
                                         unsigned long long* chunks_moved) {
  // Dynamic shared memory is only asked for to keep one block per SM, as NCCL's channels are.
  extern __shared__ float4 reserve[];
  __shared__ long long now_shared;
  __shared__ int stop_shared;
  const long long base = static_cast<long long>(blockIdx.x) * slice_vectors;
  long long start = 0;
  if (threadIdx.x == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    reserve[0] = make_float4(0.f, 0.f, 0.f, 0.f);
    now_shared = start;
  }
  __syncthreads();
  start = now_shared;
  long long next_chunk_at = start;
  long long offset = 0;
  unsigned long long chunks = 0;
  // The host's flag is read over PCIe: at most every kFlagPollNs, since reads from every block
  // in a tight loop would crowd the GPU's host interface and slow the training's own launches.
  constexpr long long kFlagPollNs = 200000;
  long long flag_read_at = start;
  if (threadIdx.x == 0) stop_shared = 0;
  while (true) {
    if (threadIdx.x == 0) {
      long long now = 0;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
      now_shared = now;
      if (now - flag_read_at >= kFlagPollNs) {
        stop_shared = *stop;
        flag_read_at = now;
      }
    }
    __syncthreads();
    const long long now = now_shared;
    const bool done = stop_shared != 0 || now - start >= longest_ns;
    __syncthreads();
    if (done) break;
    if (now < next_chunk_at) {
      // Idle until the next chunk is due (__nanosleep takes at most about 1 ms).
      const long long idle = next_chunk_at - now;
      if (threadIdx.x == 0) __nanosleep(static_cast<unsigned>(idle < 100000 ? idle : 100000));
      continue;
    }
    for (long long i = threadIdx.x; i < chunk_vectors; i += blockDim.x) {
      dst[base + offset + i] = src[base + offset + i];
    }
    offset += chunk_vectors;
    if (offset + chunk_vectors > slice_vectors) offset = 0;
    next_chunk_at += chunk_ns;
    ++chunks;
  }
  if (threadIdx.x == 0) chunks_moved[blockIdx.x] = chunks;
}
