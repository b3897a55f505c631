#!/usr/bin/env python3
"""Writes the bad-input cases of nccl-tests output (nccl/, nccl-compare/), calibrated cluster files
(cluster/) and torch.profiler traces (trace/io-*) from committed valid inputs, and prints their
lines for cases.txt. Run from the repository root; the files are committed, this records how."""
import json
import os

here = "tests/bad_inputs"
lines = []


def case(folder, name, text, expected, mode="w"):
    path = f"{here}/{folder}/{name}"
    with open(path, "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    lines.append(f"{folder}/{name} | {expected}")


# --- nccl-tests output: a 1 x 8 H100 all_reduce, header and the first 18 sizes (8 B to 1 MiB) ---
src = open("validation/data/nccl-tests/together-h100-1x8.all_reduce_perf.txt").read().splitlines()
head = src[:17]  # through the units row
rows = [l for l in src[17:] if l.strip() and l.split()[0].isdigit()][:18]
foot = ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 10.0 ", "#",
        "# Collective test concluded: all_reduce_perf", "#"]
first = 18  # line number of the first row
mid = 9     # the row damaged: 4096 B


def text(rs=None, h=None, f=None, prefix=""):
    ls = (head if h is None else h) + (rows if rs is None else rs) + (foot if f is None else f)
    return "".join(prefix + l + "\n" for l in ls)


def with_row(i, row):
    rs = list(rows)
    rs[i] = row
    return rs


def field(row, k, value):
    t = row.split()
    t[k] = value
    return "  " + "  ".join(t)


line = first + mid
r = rows[mid]
prefixes = {"": "", "srun-": "0: ", "mpirun-": "[1,0]<stdout>:"}
row_damages = [
    ("size-negative", field(r, 0, "-4096"), "expected a size from 0 to 1e15 bytes, got -4096"),
    ("size-1e30", field(r, 0, "1e30"), "expected a size from 0 to 1e15 bytes, got 1e30"),
    ("size-2e15", field(r, 0, "2000000000000000"), "expected a size from 0 to 1e15 bytes, got 2000000000000000"),
    ("size-fraction", field(r, 0, "4096.5"), "expected a whole number of bytes, got 4096.5"),
    ("count-negative", field(r, 1, "-1"), "expected a count of elements, a whole number from 0 to the size (4096), got -1"),
    ("count-over-size", field(r, 1, "5000"), "expected a count of elements, a whole number from 0 to the size (4096), got 5000"),
    ("count-fraction", field(r, 1, "1.5"), "expected a count of elements, a whole number from 0 to the size (4096), got 1.5"),
    ("time-1e308", field(r, 5, "1e308"), "time: expected a number of microseconds in [0.001, 3.6e9] (1 ns to 1 h), got 1e308"),
    ("time-1e11", field(r, 5, "1e11"), "time: expected a number of microseconds in [0.001, 3.6e9] (1 ns to 1 h), got 1e11"),
    ("time-zero", field(r, 5, "0"), "time: expected a number of microseconds in [0.001, 3.6e9] (1 ns to 1 h), got 0"),
    ("time-negative", field(r, 5, "-5.2"), "time: expected a number of microseconds in [0.001, 3.6e9] (1 ns to 1 h), got -5.2"),
    ("time-1e-9", field(r, 5, "1e-9"), "time: expected a number of microseconds in [0.001, 3.6e9] (1 ns to 1 h), got 1e-9"),
    ("time-nan", field(r, 5, "nan"), "expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got"),
    ("time-inf", field(r, 5, "inf"), "expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got"),
    ("time-text", field(r, 5, "fast"), "expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got"),
    ("algbw-negative", field(r, 6, "-0.11"), "algbw, busbw: expected rates of 0 GB/s or more, got -0.11, 0.19"),
    ("busbw-negative", field(r, 7, "-0.19"), "algbw, busbw: expected rates of 0 GB/s or more, got 0.11, -0.19"),
    ("type-unknown", field(r, 2, "float128"), "type: expected a type nccl-tests runs (float, half, bfloat16, double, int8, ...), got 'float128'"),
    ("row-cut-to-3-fields", "  ".join(r.split()[:3]), "expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got"),
    ("row-cut-to-7-fields", "  ".join(r.split()[:7]), "expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got"),
    ("row-nul", r[:20] + "\0" + r[20:], "expected text, got a NUL byte"),
]
for pname, p in prefixes.items():
    for name, row, expected in row_damages:
        if pname and name not in ("size-negative", "time-1e308", "row-cut-to-7-fields", "size-fraction", "type-unknown",
                                  "count-over-size", "algbw-negative"):
            continue
        case("nccl", f"{pname}{name}.txt", text(with_row(mid, row), prefix=p), f"{{file}}:{line}: {expected}")

# Damage elsewhere in the file.
case("nccl", "last-row-cut.txt", text(rows[:-1] + ["  ".join(rows[-1].split()[:4])], f=[]),
     f"{{file}}:{first + 17}: expected a row of nccl-tests (size, count, type, ..., time, algbw, busbw), got")
case("nccl", "last-row-cut-mid-number.txt", text(rows[:-1] + [rows[-1][:60]], f=[]), f"{{file}}:{first + 17}: expected a row")
case("nccl", "first-row-negative.txt", text(with_row(0, field(rows[0], 0, "-8"))), f"{{file}}:{first}: expected a size from 0 to 1e15 bytes, got -8")
case("nccl", "nul-in-header.txt", text(h=head[:3] + ["# nThread 1 \0nGpus 8"] + head[4:]), "{file}:4: expected text, got a NUL byte")
case("nccl", "nul-in-footer.txt", text(f=["# Out of bounds\0"]), f"{{file}}:{first + 18}: expected text, got a NUL byte")
swapped = list(rows)
swapped[mid], swapped[mid + 1] = swapped[mid + 1], swapped[mid]
case("nccl", "sizes-swapped.txt", text(swapped), f"{{file}}:{line + 1}: expected sizes in increasing order, got 4096 after 8192 (line {line})")
case("nccl", "size-twice.txt", text(rows[:mid + 1] + [rows[mid]] + rows[mid + 1:]), f"{{file}}:{line + 1}: expected sizes in increasing order, got 4096 after 4096 (line {line})")
case("nccl", "zero-after-sizes.txt", text(with_row(mid, field(field(r, 0, "0"), 1, "0"))), f"{{file}}:{line}: expected sizes in increasing order, got 0 after 2048")
case("nccl", "sizes-descending.txt", text(list(reversed(rows))), f"{{file}}:{first + 1}: expected sizes in increasing order")
zero = [field(field(x, 0, "0"), 1, "0") for x in rows]
case("nccl", "only-zero-byte-rows.txt", text(zero), "{file}: expected rows of more than 0 bytes to fit, got only 0-byte rows")
case("nccl", "one-zero-byte-row.txt", text(zero[:1]), "{file}: expected rows of more than 0 bytes to fit, got only 0-byte rows")
case("nccl", "no-rows.txt", text([]), "{file}: expected nccl-tests result rows, got none")
rank_line = 5  # "#  Rank  0 ..."
for name, rank, expected in [("rank-99999999999", "99999999999", "expected a rank below 1048576, got 99999999999"),
                             ("rank-1048576", "1048576", "expected a rank below 1048576, got 1048576"),
                             ("rank-12345678", "12345678", "expected a rank below 1048576, got 12345678")]:
    h = list(head)
    h[rank_line] = h[rank_line].replace("Rank  0 ", f"Rank {rank} ")
    case("nccl", f"{name}.txt", text(h=h), f"{{file}}:{rank_line + 1}: {expected}")
h = list(head)
h[rank_line + 1] = h[rank_line]
case("nccl", "rank-twice.txt", text(h=h), f"{{file}}:{rank_line + 2}: expected each rank's device line once in a run, got rank 0 again")
for name, n in [("ngpus-zero", "0"), ("ngpus-99999", "99999"), ("ngpus-1025", "1025")]:
    h = list(head)
    h[2] = h[2].replace("nGpus 8", f"nGpus {n}")
    case("nccl", f"{name}.txt", text(h=h), f"{{file}}:3: nGpus: expected the GPUs one thread drives, in [1, 1024], got {n}")
h = [l for l in head if "Rank" not in l]
case("nccl", "no-device-lines.txt", text(h=h), "or --gpus), got 0 ranks on 0 hosts")
h = [l.replace("on gpu-dp-2jvzl-pqq7p", f"on host{i % 3}") for i, l in enumerate(head)]
case("nccl", "ranks-on-uneven-hosts.txt", text(h=h), "got 8 ranks on 3 hosts")
h = [l for l in head if "Collective test starting" not in l]
case("nccl", "no-test-name.txt", text(h=h, f=foot[:3]), f"{{file}}:{first - 1}: no 'Collective test starting' line and no test name")
case("nccl", "line-5000-characters.txt", text(h=head[:3] + ["# " + "x" * 5000] + head[4:]),
     "{file}:4: expected a line of nccl-tests output (at most 4096 characters), got 5002")
case("nccl", "long-row.txt", text(with_row(mid, r + " " * 5000)), f"{{file}}:{line}: expected a line of nccl-tests output (at most 4096 characters)")
case("nccl", "binary.txt", bytes(range(1, 256)) * 4, "{file}: expected a measurement scalecast reads")
case("nccl", "json-instead.txt", '{"format": "scalecast-timeline"}\n', "{file}: /version: expected a value for this required key, got nothing")
case("nccl", "empty.txt", "", "{file}: expected a measurement scalecast reads")
case("nccl", "header-only-table.txt", "#  size  count  type  redop  root  time  algbw  busbw\n", "{file}: expected nccl-tests result rows, got none")

# --- collective --compare: the run of the requested collective, exactly one ---
case("nccl-compare", "two-runs.txt", text() + text(), f"{{file}}:{first + 17 + 5 + 1 + first - 1}: expected one run of all_reduce, got a second (the first's rows begin at line {first})")
ag = text(h=[l.replace("all_reduce_perf", "all_gather_perf") for l in head], f=[l.replace("all_reduce_perf", "all_gather_perf") for l in foot])
case("nccl-compare", "only-all-gather.txt", ag, "{file}: expected all_reduce_perf output (--op), got none")
case("nccl-compare", "all-gather-then-two-all-reduce.txt", ag + text() + text(), "expected one run of all_reduce, got a second")
case("nccl-compare", "size-negative.txt", text(with_row(mid, field(r, 0, "-4096"))), f"{{file}}:{line}: expected a size from 0 to 1e15 bytes, got -4096")
case("nccl-compare", "rank-99999999999.txt", text(h=[l.replace("Rank  0 ", "Rank 99999999999 ") for l in head]), f"{{file}}:{rank_line + 1}: expected a rank below 1048576, got 99999999999")
case("nccl-compare", "nul.txt", text(with_row(mid, r[:20] + "\0" + r[20:])), f"{{file}}:{line}: expected text, got a NUL byte")
case("nccl-compare", "time-1e308.txt", text(with_row(mid, field(r, 5, "1e308"))), f"{{file}}:{line}: time: expected a number of microseconds")
case("nccl-compare", "empty.txt", "", "{file}: expected nccl-tests result rows, got none")

# --- calibrated cluster files, applied to tests/bad_inputs/valid/scenario.yaml (v100-pcie, pcie3, tcp) ---
hw = 'hardware: {gpu: "v100-pcie", fabric: "pcie3", transport: "tcp", nic: "10Gbps", gpus_per_node: "2"}'
def cal(cluster, calibration=None):
    c = calibration if calibration is not None else "  samples: 12\n  " + hw + "\n  measured_over_predicted: {p05: 0.9, p50: 1, p95: 1.1}\n"
    return "calibration:\n" + c + "cluster:\n" + cluster


good = "  network:\n    latency: 40us\n    efficiency: 0.9\n"
cluster_cases = [
    ("cluster-a-list", "calibration: {samples: 3}\ncluster: [1, 2]\n", "{file}:2: cluster: expected a map of fabric, network and parameter_server figures (what calibrate fits), got a list"),
    ("cluster-a-scalar", "calibration: {samples: 3}\ncluster: fast\n", "{file}:2: cluster: expected a map of fabric, network and parameter_server figures (what calibrate fits), got 'fast'"),
    ("cluster-null", "calibration: {samples: 3}\ncluster: ~\n", "{file}:2: cluster: expected a map of fabric, network and parameter_server figures (what calibrate fits), got nothing"),
    ("cluster-empty-value", "calibration: {samples: 3}\ncluster:\n", "cluster: expected a map of fabric, network and parameter_server figures (what calibrate fits), got nothing"),
    ("no-cluster-block", "calibration: {samples: 3}\n", "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got no cluster:"),
    ("no-calibration-block", "cluster:\n" + good, "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got no calibration:"),
    ("top-level-list", "- calibration\n- cluster\n", "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got a list"),
    ("top-level-scalar", "cluster\n", "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got 'cluster'"),
    ("empty", "", "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got nothing"),
    ("only-comments", "# nothing here\n", "{file}: expected the calibration: and cluster: blocks of scalecast calibrate -o, got nothing"),
    ("nul-byte", cal(good).replace("40us", "40\0us"), "{file}: expected a calibrated cluster file (scalecast calibrate -o), got a NUL byte"),
    ("syntax-error", cal("  network: {latency: 40us\n"), "{file}:"),
    ("tab-indented", cal("  network:\n\tlatency: 40us\n"), "{file}:"),
    ("duplicate-key", cal("  network:\n    latency: 40us\n    latency: 50us\n"), "{file}:8: cluster.network.latency: expected each key once"),
    ("duplicate-section", cal("  network:\n    latency: 40us\n  network:\n    efficiency: 0.9\n"), "{file}:8: cluster.network: expected each key once"),
    ("duplicate-top-key", cal(good) + "cluster:\n" + good, "{file}:9: top level.cluster: expected each key once"),
    ("duplicate-calibration-key", cal(good, "  samples: 12\n  samples: 13\n"), "{file}:3: calibration.samples: expected each key once"),
    ("duplicate-hardware-key", cal(good, '  hardware: {gpu: "v100-pcie", gpu: "h100"}\n'), "{file}:2: calibration.hardware.gpu: expected each key once"),
    ("duplicate-curve-size", cal("  network:\n    bandwidth_by_size: {4KiB: 0.5, 4KiB: 0.6}\n"), "{file}:7: cluster.network.bandwidth_by_size.4KiB: expected each key once"),
    ("unknown-top-key", cal(good) + "clusters: {}\n", "{file}:9: clusters: expected one of the keys calibration, cluster"),
    ("unknown-calibration-key", cal(good, "  sample: 12\n"), "{file}:2: calibration.sample: expected one of the keys scenario, measurements, hardware"),
    ("gpus-per-node", cal("  gpus_per_node: 4\n"), "{file}:6: cluster.gpus_per_node: expected fabric, network or parameter_server (what calibrate fits)"),
    ("gpu-section", cal("  gpu: {type: h100}\n"), "{file}:6: cluster.gpu: expected fabric, network or parameter_server (what calibrate fits)"),
    ("transport-key", cal("  network:\n    transport: rdma\n"), "{file}:7: cluster.network.transport: expected one of the figures calibrate fits (latency, efficiency"),
    ("nic-key", cal("  network:\n    nic: connectx-7\n"), "{file}:7: cluster.network.nic: expected one of the figures calibrate fits"),
    ("bandwidth-key", cal("  network:\n    bandwidth: 100Gbps\n"), "{file}:7: cluster.network.bandwidth: expected one of the figures calibrate fits"),
    ("fabric-kind", cal("  fabric:\n    kind: nvlink4\n"), "{file}:7: cluster.fabric.kind: expected one of the figures calibrate fits (bandwidth, latency, bridge_bandwidth), got 'kind'"),
    ("ps-placement", cal("  parameter_server:\n    placement: dedicated\n"), "{file}:7: cluster.parameter_server.placement: expected one of the figures calibrate fits (bandwidth, stage_overhead)"),
    ("section-a-list", cal("  network: [latency, 40us]\n"), "{file}:6: cluster.network: expected a map of KEY: VALUE, got a list"),
    ("section-a-scalar", cal("  network: fast\n"), "{file}:6: cluster.network: expected a map of KEY: VALUE, got 'fast'"),
    ("key-a-map", cal("  network:\n    {a: 1}: 40us\n"), "{file}:7: cluster.network: expected a map of KEY: VALUE (keys that are names), got a key that is a map"),
    ("key-a-list", cal("  network:\n    [a, b]: 40us\n"), "{file}:7: cluster.network: expected a map of KEY: VALUE (keys that are names), got a key that is a list"),
    ("value-a-list", cal("  network:\n    latency: [40us, 50us]\n"), "{file}:7: cluster.network.latency: expected a value, got a list"),
    ("value-a-map", cal("  network:\n    latency: {low: 40us}\n"), "{file}:7: cluster.network.latency: expected a value, got a map"),
    ("value-empty", cal("  network:\n    latency:\n"), "{file}:7: cluster.network.latency: expected a value, got nothing"),
    ("curve-a-list", cal("  network:\n    bandwidth_by_size: [0.5, 1]\n"), "{file}:7: cluster.network.bandwidth_by_size: expected a map of SIZE: FACTOR, got a list"),
    ("curve-value-a-map", cal("  network:\n    bandwidth_by_size: {4KiB: {x: 1}}\n"), "{file}:7: cluster.network.bandwidth_by_size.4KiB: expected a number, got a map"),
    ("latency-parsec", cal("  network:\n    latency: 12 parsecs\n"), "{file}:7: cluster.network.latency: expected a duration with a unit such as 25us"),
    ("latency-1e300h", cal("  network:\n    latency: 1e300h\n"), "{file}:7: cluster.network.latency: expected a duration in [0, 10 s], got '1e300h'"),
    ("latency-negative", cal("  network:\n    latency: -5us\n"), "{file}:7: cluster.network.latency: expected a duration in [0, 10 s], got '-5us'"),
    ("efficiency-two", cal("  network:\n    efficiency: 2\n"), "{file}:7: cluster.network.efficiency: expected a number in [0.01, 1], got '2'"),
    ("efficiency-text", cal("  network:\n    efficiency: high\n"), "{file}:7: cluster.network.efficiency: expected a number in [0.01, 1], got 'high'"),
    ("fabric-bandwidth-zero", cal("  fabric:\n    bandwidth: 0GB/s\n"), "{file}:7: cluster.fabric.bandwidth: expected a data rate in [1 kbit/s, 100 Tbit/s], got '0GB/s'"),
    ("ps-bandwidth-1e-300", cal("  parameter_server:\n    bandwidth: 1e-300bps\n"), "{file}:7: cluster.parameter_server.bandwidth: expected a data rate in [1 kbit/s, 100 Tbit/s]"),
    ("streams-zero", cal("  network:\n    streams: 0\n"), "{file}:7: cluster.network.streams: expected an integer in [1, 1024], got '0'"),
    ("read-threshold-over-tcp", cal("  network:\n    read_threshold: 1MiB\n"), "{file}:7: cluster.network.read_threshold: expected libfabric's read threshold, which only an efa transport has"),
    ("spread-p05-zero", cal(good, "  measured_over_predicted: {p05: 0, p50: 1, p95: 1.1}\n"), "{file}:2: calibration.measured_over_predicted.p05: expected a ratio of measured to predicted time in [0.001, 1000], got '0'"),
    ("spread-p95-1e300", cal(good, "  measured_over_predicted: {p05: 0.9, p50: 1, p95: 1e300}\n"), "{file}:2: calibration.measured_over_predicted.p95: expected a ratio of measured to predicted time in [0.001, 1000], got '1e300'"),
    ("spread-negative", cal(good, "  measured_over_predicted: {p05: -1, p50: 1, p95: 1.1}\n"), "calibration.measured_over_predicted.p05: expected a ratio of measured to predicted time in [0.001, 1000], got '-1'"),
    ("spread-nan", cal(good, "  measured_over_predicted: {p05: .nan, p50: 1, p95: 1.1}\n"), "calibration.measured_over_predicted.p05: expected a ratio of measured to predicted time in [0.001, 1000], got '.nan'"),
    ("spread-text", cal(good, "  measured_over_predicted: {p05: low, p50: 1, p95: 1.1}\n"), "calibration.measured_over_predicted.p05: expected a ratio of measured to predicted time in [0.001, 1000], got 'low'"),
    ("spread-out-of-order", cal(good, "  measured_over_predicted: {p05: 1.2, p50: 1, p95: 1.1}\n"), "{file}:2: calibration.measured_over_predicted: expected p05 <= p50 <= p95, got 1.2, 1, 1.1"),
    ("spread-no-p95", cal(good, "  measured_over_predicted: {p05: 0.9, p50: 1}\n"), "{file}:2: calibration.measured_over_predicted: expected both p05 and p95"),
    ("spread-a-list", cal(good, "  measured_over_predicted: [0.9, 1, 1.1]\n"), "{file}:2: calibration.measured_over_predicted: expected a map of p05, p50, p95, got a list"),
    ("spread-unknown-key", cal(good, "  measured_over_predicted: {p05: 0.9, p99: 1.1}\n"), "{file}:2: calibration.measured_over_predicted.p99: expected one of the keys p05, p50, p95"),
    ("calibration-a-scalar", "calibration: yes\ncluster:\n" + good, "{file}:1: calibration: expected a map of what calibrate recorded, got 'yes'"),
    ("calibration-a-list", "calibration: [a]\ncluster:\n" + good, "{file}:1: calibration: expected a map of what calibrate recorded, got a list"),
    ("hardware-a-list", cal(good, "  hardware: [v100-pcie]\n"), "{file}:2: calibration.hardware: expected a map of gpu, fabric, transport, nic and gpus_per_node, got a list"),
    ("hardware-unknown-key", cal(good, '  hardware: {cpu: "amd"}\n'), "{file}:2: calibration.hardware.cpu: expected one of the keys gpu, fabric, transport, nic, gpus_per_node"),
    ("hardware-value-a-map", cal(good, "  hardware: {gpu: {type: h100}}\n"), "{file}:2: calibration.hardware.gpu: expected a name, got a map"),
    ("other-gpu", cal(good).replace('gpu: "v100-pcie"', 'gpu: "h100"'), "{file}: calibration.hardware: expected the hardware of tests/bad_inputs/valid/scenario.yaml, got gpu h100 there, v100-pcie here (--allow-other-cluster applies it anyway)"),
    ("other-fabric", cal(good).replace('fabric: "pcie3"', 'fabric: "nvlink4"'), "{file}: calibration.hardware: expected the hardware of tests/bad_inputs/valid/scenario.yaml, got fabric nvlink4 there, pcie3 here"),
    ("other-transport", cal(good).replace('transport: "tcp"', 'transport: "efa"'), "got transport efa there, tcp here"),
    ("other-nic", cal(good).replace('nic: "10Gbps"', 'nic: "efa-v1"'), "got nic efa-v1 there, 10Gbps here"),
    ("other-gpus-per-node", cal(good).replace('gpus_per_node: "2"', 'gpus_per_node: "8"'), "got gpus_per_node 8 there, 2 here"),
    ("efa-p4d-on-this-cluster", cal(good).replace('gpu: "v100-pcie", fabric: "pcie3", transport: "tcp", nic: "10Gbps", gpus_per_node: "2"',
                                                  'gpu: "a100-sxm4-40gb", fabric: "nvlink3", transport: "efa", nic: "efa-v1", gpus_per_node: "8"'),
     "got gpu a100-sxm4-40gb there, v100-pcie here, fabric nvlink3 there, pcie3 here, transport efa there, tcp here, nic efa-v1 there, 10Gbps here, gpus_per_node 8 there, 2 here"),
]
for name, body, expected in cluster_cases:
    case("cluster", f"{name}.yaml", body, expected)
os.makedirs(f"{here}/cluster/a-folder.yaml", exist_ok=True)
with open(f"{here}/cluster/a-folder.yaml/README", "w") as f:
    f.write("A folder given as --cluster: refused as no file (cases.txt).\n")
lines.append("cluster/a-folder.yaml | {file}: expected a calibrated cluster file (scalecast calibrate -o), got a folder")

# --- torch.profiler traces (import-trace with mlp's parameters) ---
events = json.load(open("tests/fixtures/torch_traces/mlp.json"))
steps = [i for i, e in enumerate(events) if e["name"].startswith("ProfilerStep#")]
layers = [i for i, e in enumerate(events) if e["name"].startswith("fwd:") or e["name"].startswith("bwd:")]


def trace_case(name, evs, expected, raw=None):
    case("trace", f"io-{name}.json", raw if raw is not None else json.dumps(evs), expected)


s0, s1 = steps[0], steps[1]
e = json.loads(json.dumps(events))
e[s1]["ts"] = e[s0]["ts"] + e[s0]["dur"] // 2
trace_case("steps-overlap", e, f"{{file}}: /{s1}/ts: expected a ProfilerStep that starts once the one before it ends (/{s0} ends at")
e = json.loads(json.dumps(events))
e[s0]["dur"] = e[s1]["ts"] - e[s0]["ts"] + 100
trace_case("step-runs-into-the-next", e, f"{{file}}: /{s1}/ts: expected a ProfilerStep that starts once the one before it ends")
e = json.loads(json.dumps(events))
e[s1]["ts"] = e[s0]["ts"]
trace_case("steps-start-together", e, "expected a ProfilerStep that starts once the one before it ends")
e = json.loads(json.dumps(events))
dup = dict(e[s1])
e.append(dup)
trace_case("step-twice", e, "expected a ProfilerStep that starts once the one before it ends")
l0 = [i for i in layers if events[i]["ts"] >= events[s0]["ts"] and events[i]["ts"] < events[s0]["ts"] + events[s0]["dur"]][0]
e = json.loads(json.dumps(events))
e[l0]["dur"] = 1000 * 1000 * 1000
trace_case("layer-range-1000s", e, f"{{file}}: /{l0}/dur: expected a layer range within its ProfilerStep (/{s0}, ending at")
e = json.loads(json.dumps(events))
e[l0]["dur"] = e[s0]["ts"] + e[s0]["dur"] - e[l0]["ts"] + 50
trace_case("layer-range-past-its-step", e, f"{{file}}: /{l0}/dur: expected a layer range within its ProfilerStep (/{s0}, ending at")
e = json.loads(json.dumps(events))
e.append({"name": "fwd:0", "ph": "X", "ts": events[s0]["ts"] - 10, "dur": 200, "tid": 1, "pid": "CPU functions", "args": {}})
trace_case("layer-range-over-a-step-start", e, f"{{file}}: /{len(e) - 1}/dur: expected a layer range within one ProfilerStep or outside them all, got one over the start of /{s0}")
text0 = json.dumps(events)
first_event = json.dumps(events[0])
for name, old, new, expected in [
    ("event-dur-twice", first_event, first_event[:-1] + ', "dur": 5}', "{file}: /0/dur: expected each key once in an object, got it twice"),
    ("event-name-twice", first_event, first_event[:-1] + ', "name": "fwd:0"}', "{file}: /0/name: expected each key once in an object, got it twice"),
    ("event-ts-twice", first_event, first_event[:-1] + ', "ts": 0}', "{file}: /0/ts: expected each key once in an object, got it twice"),
    ("event-ph-twice", first_event, first_event[:-1] + ', "ph": "i"}', "{file}: /0/ph: expected each key once in an object, got it twice"),
    ("args-key-twice", first_event, first_event.replace('"args": {}', '"args": {"correlation": 1, "correlation": 2}'), "{file}: /0/args/correlation: expected each key once in an object, got it twice"),
]:
    trace_case(name, None, expected, raw=text0.replace(old, new, 1))
last = json.dumps(events[-1])
trace_case("last-event-key-twice", None, f"{{file}}: /{len(events) - 1}/dur: expected each key once in an object, got it twice",
           raw=text0[: text0.rindex(last)] + last[:-1] + ', "dur": 1}]')
trace_case("kineto-trace-events-twice", None, "{file}: /traceEvents: expected each key once in an object, got it twice",
           raw='{"traceEvents": ' + text0 + ', "traceEvents": []}')
trace_case("kineto-device-properties-key-twice", None, "{file}: /deviceProperties/0/name: expected each key once in an object, got it twice",
           raw='{"deviceProperties": [{"name": "A100", "name": "H100"}], "traceEvents": ' + text0 + '}')

print("\n".join(lines))
