#!/usr/bin/env python3
# Measures how much a training step slows while communication kernels share its GPU: step time
# alone, then next to comm_emulator.cu's blocks (NCCL's channels) at paced and unpaced copy rates.
"""Compute slowdown under overlapped communication, measured on one GPU.

NCCL runs a collective as one thread block per channel, each on its own SM, copying chunks
between buffers at the rate the links allow. comm_emulator.cu does that without peers: C blocks
copy their own slices chunk by chunk, paced to a total rate (or flat out), on a second stream,
while the training steps of profile_torch.py's models run on the default stream. The slowdown is
the step time next to the emulator over the step time alone, minus one; each configuration reports
the copy rate it reached and the HBM traffic it made (a copy reads and writes each byte).

Example:
  python3 comm_contention.py --model resnet50 --batch 64 --results contention.json
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

import cupy
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_torch import build, write_json  # noqa: E402

CHUNK_BYTES = 512 * 1024  # NCCL's Simple protocol: 4 MiB buffer / 8 steps per channel
SLICE_BYTES = 16 * 1024 * 1024  # per block, so that 8+ blocks' data is well past the L2
THREADS = 512
RESERVED_SHARED_KIB = 120  # more than half an SM's 228 KiB: one block per SM
LONGEST_S = 120.0  # the emulator stops by itself after this, whatever the host does


class Emulator:
    def __init__(self, max_blocks, threads, shared_bytes):
        source = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "comm_emulator.cu")).read()
        self.kernel = cupy.RawKernel(source, "comm_emulator", options=("-std=c++17",))
        self.threads, self.shared_bytes = threads, shared_bytes
        self.kernel.max_dynamic_shared_size_bytes = shared_bytes
        vectors = max_blocks * SLICE_BYTES // 16
        self.src = torch.ones(vectors * 4, dtype=torch.float32, device="cuda")
        self.dst = torch.empty_like(self.src)
        self.moved = torch.zeros(max_blocks, dtype=torch.int64, device="cuda")
        self.flag_host = cupy.cuda.runtime.hostAlloc(4, cupy.cuda.runtime.hostAllocMapped)
        # Under unified addressing a mapped host allocation has the same address on the device.
        get_pointer = getattr(cupy.cuda.runtime, "hostGetDevicePointer", None)
        self.flag_device = get_pointer(self.flag_host, 0) if get_pointer else self.flag_host
        self.stream = torch.cuda.Stream()

    def start(self, blocks, rate_GBps):
        """Launches `blocks` channels moving rate_GBps in total (0: flat out)."""
        ctypes.c_int.from_address(self.flag_host).value = 0
        chunk_ns = 0 if rate_GBps <= 0 else int(round(CHUNK_BYTES * blocks / rate_GBps))
        self.blocks = blocks
        self.moved.zero_()
        torch.cuda.synchronize()
        with cupy.cuda.ExternalStream(self.stream.cuda_stream):
            self.kernel((blocks,), (self.threads,),
                        (cupy.uint64(self.src.data_ptr()), cupy.uint64(self.dst.data_ptr()),
                         cupy.int64(SLICE_BYTES // 16), cupy.int64(CHUNK_BYTES // 16),
                         cupy.int64(chunk_ns), cupy.int64(int(LONGEST_S * 1e9)),
                         cupy.uint64(self.flag_device), cupy.uint64(self.moved.data_ptr())),
                        shared_mem=self.shared_bytes)
        self.started = time.perf_counter()

    def stop(self):
        """Raises the flag, waits for the blocks; returns the copy rate they reached, in GB/s."""
        ctypes.c_int.from_address(self.flag_host).value = 1
        self.stream.synchronize()
        elapsed = time.perf_counter() - self.started
        return float(self.moved[: self.blocks].sum().item()) * CHUNK_BYTES / elapsed / 1e9


def step_times(model, loss_of, optimizer, steps):
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss_of().backward()
        optimizer.step()
        # The training stream only: torch.cuda.synchronize() would wait for the emulator too.
        torch.cuda.current_stream().synchronize()
        times.append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="resnet50", choices=["resnet50", "bert-base"])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=12, help="timed steps per configuration")
    parser.add_argument("--blocks", default="4,16,32", help="channel counts (one block each)")
    parser.add_argument("--rates", default="0.01,25,100,0",
                        help="total copy rates in GB/s; 0: flat out (0.01: channels that hold their SMs, idle)")
    parser.add_argument("--threads", type=int, default=THREADS, help="threads per block")
    parser.add_argument("--shared-kib", type=int, default=RESERVED_SHARED_KIB,
                        help="shared memory each block reserves (KiB): 120 keeps one block per SM")
    parser.add_argument("--label", help="key of this run in --results (default: the model)")
    parser.add_argument("--results", help="JSON file to merge this model's results into")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("comm_contention.py: no CUDA device")

    torch.backends.cudnn.benchmark = True
    model, loss_of = build(args.model, args.batch, torch.device("cuda"))
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    blocks_list = [int(b) for b in args.blocks.split(",")]
    rates = [float(r) for r in args.rates.split(",")]
    emulator = Emulator(max(blocks_list), args.threads, args.shared_kib * 1024)
    step_times(model, loss_of, optimizer, 3)  # warm-up: cuDNN's autotuning, allocator

    def alone():
        t = step_times(model, loss_of, optimizer, args.steps)
        return statistics.median(t)

    baseline_before = alone()
    rows = []
    for blocks in blocks_list:
        for rate in rates:
            emulator.start(blocks, rate)
            step_times(model, loss_of, optimizer, 1)
            t = statistics.median(step_times(model, loss_of, optimizer, args.steps))
            reached = emulator.stop()
            rows.append({"blocks": blocks, "target_GBps": rate, "copy_GBps": round(reached, 2),
                         "hbm_traffic_GBps": round(2 * reached, 2), "step_ms": round(1e3 * t, 3)})
            print(json.dumps(rows[-1]), flush=True)
    baseline_after = alone()
    baseline = statistics.mean([baseline_before, baseline_after])
    for row in rows:
        row["slowdown"] = round(row["step_ms"] / (1e3 * baseline) - 1, 4)

    props = torch.cuda.get_device_properties(0)
    report = {}
    if args.results and os.path.exists(args.results):
        with open(args.results) as f:
            report = json.load(f)
    label = args.label or args.model
    report[label] = {
        "model": args.model, "gpu": props.name, "sms": props.multi_processor_count, "torch": torch.__version__,
        "batch": args.batch, "steps": args.steps, "chunk_bytes": CHUNK_BYTES,
        "threads_per_block": args.threads, "shared_bytes_per_block": args.shared_kib * 1024,
        "alone_step_ms_before": round(1e3 * baseline_before, 3),
        "alone_step_ms_after": round(1e3 * baseline_after, 3), "rows": rows}
    print(json.dumps(report[label], indent=1))
    if args.results:
        write_json(args.results, report)


if __name__ == "__main__":
    main()
