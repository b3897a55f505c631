#!/usr/bin/env python3
# Measures CPython's GIL hand-off cost for a thread that launches work through GIL-releasing C calls
# while another thread busy-polls a queue, as ByteScheduler's PyTorch poller does (docs/MODEL.md).
import ctypes
import queue
import sys
import threading
import time

LIBC = ctypes.CDLL(None)  # a ctypes call releases the GIL, as PyTorch's operator bindings do
LAUNCHES = 2000


def poll_forever(pending):
    """bytescheduler/pytorch/horovod.py _poll: take an entry, put it back while not done."""
    while True:
        entry = pending.get()
        if entry is None:
            return
        pending.put(entry)


def python_work():
    """About 10 us of interpreter work between two launches (a module call and its hooks)."""
    total = 0
    for i in range(400):
        total += i
    return total


def seconds_per_launch():
    start = time.perf_counter()
    for _ in range(LAUNCHES):
        python_work()
        LIBC.getpid()
    return (time.perf_counter() - start) / LAUNCHES


def main():
    alone = seconds_per_launch()
    pending = queue.Queue()
    pending.put("an all-reduce in flight")
    poller = threading.Thread(target=poll_forever, args=(pending,))
    poller.start()
    time.sleep(0.05)
    print(f"python {sys.version.split()[0]}: {alone * 1e6:.0f} us per launch with no poller")
    for interval in (0.005, 0.001, 0.0005):
        sys.setswitchinterval(interval)
        print(f"switch interval {interval * 1e3:.1f} ms: {seconds_per_launch() * 1e6:.0f} us per launch "
              "while the poller spins")
    pending.put(None)
    poller.join()


if __name__ == "__main__":
    main()
