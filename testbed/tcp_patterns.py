#!/usr/bin/env python3
# Raw TCP rates of the traffic patterns schedules make (a pair, a ring, a server's incast and
# outcast), without Gloo or scalecast: run on every host of testbed/cluster.sh (see README.md).
import os
import socket
import sys
import threading
import time

PATTERNS = ("pair", "pair-duplex", "ring", "incast", "outcast", "incast+outcast")


def flows(pattern, hosts):
    """(sender, receiver) pairs; the last host is the server of the incast patterns."""
    workers, server = range(hosts - 1), hosts - 1
    ring = [(w, (w + 1) % (hosts - 1)) for w in workers]
    return {
        "pair": [(0, 1)],
        "pair-duplex": [(0, 1), (1, 0)],
        "ring": ring,
        "incast": [(w, server) for w in workers],
        "outcast": [(server, w) for w in workers],
        "incast+outcast": [(w, server) for w in workers] + [(server, w) for w in workers],
    }[pattern]


def address(rank):
    return f"10.77.0.{rank + 1}"


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in PATTERNS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(PATTERNS)}}} MB_PER_FLOW")
    pattern, size = sys.argv[1], int(float(sys.argv[2]) * 1e6)
    rank, hosts = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    if hosts < 3:
        sys.exit("tcp_patterns.py: needs 3 or more hosts (the last one serves the incast)")
    port = int(os.environ.get("MASTER_PORT", "29500")) + 1
    mine = flows(pattern, hosts)
    incoming = sum(1 for _, d in mine if d == rank)
    outgoing = [d for s, d in mine if s == rank]
    listener = socket.create_server((address(rank), port), backlog=hosts)
    done = []  # seconds since the start at which each incoming flow ended
    start = threading.Barrier(1 + len(outgoing) + incoming)
    t0 = [0.0]

    def receive(conn):
        buf = memoryview(bytearray(1 << 20))
        got = 0
        while got < size:
            n = conn.recv_into(buf)
            if n == 0:
                break
            got += n
        done.append(time.monotonic() - t0[0])
        conn.sendall(b"k")
        conn.close()

    def send(to):
        for _ in range(100):  # the receiver may not listen yet
            try:
                conn = socket.create_connection((address(to), port))
                break
            except OSError:
                time.sleep(0.05)
        else:
            sys.exit(f"tcp_patterns.py: host {rank} cannot reach host {to}")
        start.wait()
        data = memoryview(bytes(1 << 20))
        left = size
        while left > 0:
            left -= conn.send(data[: min(left, len(data))])
        conn.recv(1)
        conn.close()

    def accept_all():
        threads = []
        for _ in range(incoming):
            conn, _ = listener.accept()
            threads.append(threading.Thread(target=lambda c=conn: (start.wait(), receive(c))))
            threads[-1].start()
        for t in threads:
            t.join()

    acceptor = threading.Thread(target=accept_all)
    acceptor.start()
    senders = [threading.Thread(target=send, args=(d,)) for d in outgoing]
    for t in senders:
        t.start()
    start.wait()
    t0[0] = time.monotonic()
    for t in senders + [acceptor]:
        t.join()
    if incoming:
        done.sort()
        rate = incoming * size / done[-1] / 1e6
        print(f"{pattern:15} host {rank}: {incoming} flow(s) of {size / 1e6:g} MB in, "
              f"first done {done[0]:.3f} s, last {done[-1]:.3f} s, {rate:.1f} MB/s in all", flush=True)


if __name__ == "__main__":
    main()
