#!/usr/bin/env python3
# Every CSV scalecast writes, read back by Python's csv module: names holding commas and quotes
# (a scenario, a profiled layer) stay one field, and every row has the header's columns.
# Usage: csv_roundtrip.py SCALECAST SOURCE_DIR [VALIDATE_OUTPUTS]
import csv
import io
import json
import pathlib
import subprocess
import sys
import tempfile

scalecast, source = sys.argv[1], pathlib.Path(sys.argv[2])
validate_outputs = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
NAME = 'a,"b"'
LAYER = 'fc,"1"'
failures = []


def run(*args):
    done = subprocess.run([scalecast, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"scalecast {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def rows_of(text, what):
    """The records of a CSV text (lines starting with '#' are metadata), each checked for width."""
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("#")]
    records = list(csv.reader(io.StringIO("".join(lines))))
    header = records[0]
    for number, record in enumerate(records[1:], start=2):
        if len(record) != len(header):
            failures.append(f"{what}: record {number} has {len(record)} fields, the header {len(header)}")
    return [dict(zip(header, record)) for record in records[1:]]


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: expected {want!r}, got {got!r}")


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    # predict --format csv: the scenario's name and the overrides column hold commas and quotes.
    rows = rows_of(run("predict", source / "scenarios/ddl-resnet50-10gbe.yaml", "--set", f"name={NAME}",
                       "-m", "bsp-allreduce", "-m", "bsp-ps", "-g", "8", "--format", "csv"), "predict")
    expect("predict rows", len(rows), 2)
    for row in rows:
        expect("predict scenario", row["scenario"], NAME)
        expect("predict overrides", row["overrides"], f"name={NAME}")
        if not float(row["iteration_s"]) > 0:
            failures.append(f"predict iteration_s: expected > 0, got {row['iteration_s']!r}")
    expect("predict methods", [r["method"] for r in rows], ["bsp-allreduce", "bsp-ps"])

    # predict --sweep: each swept key is a column, its values as written.
    swept = rows_of(run("predict", source / "scenarios/ddl-resnet50-10gbe.yaml", "--set", f"name={NAME}",
                        "-m", "mgwfbp", "-g", "8", "--sweep", "cluster.network.bandwidth=10Gbps,25Gbps",
                        "--format", "csv"), "predict --sweep")
    expect("sweep values", [r["cluster.network.bandwidth"] for r in swept], ["10Gbps", "25Gbps"])
    expect("sweep network_gbps", [r["network_gbps"] for r in swept], ["10", "25"])
    expect("sweep scenario", [r["scenario"] for r in swept], [NAME, NAME])

    # recommend --format csv: every configuration ranked, the scenario name quoted.
    ranked = rows_of(run("recommend", source / "scenarios/whatif-a100-25gbe.yaml", "--set", f"name={NAME}",
                         "-m", "mgwfbp", "--format", "csv"), "recommend")
    expect("recommend rows", len(ranked), 2 * 3 * 4)  # networks x all-reduce algorithms x GPU counts
    expect("recommend ranks", [r["rank"] for r in ranked], [str(i) for i in range(1, 25)])
    expect("recommend scenario", {r["scenario"] for r in ranked}, {NAME})
    costs = [float(r["cost_per_million_samples"]) for r in ranked]
    expect("recommend ranked by cost", costs, sorted(costs))
    expect("recommend knob column", {r["strategy.allreduce"] for r in ranked}, {"ring", "tree", "hierarchical"})

    # profile --dump: a layer whose NVTX range name holds a comma and quotes.
    dump = (source / "fuzz/corpus/dump/check_workload.activity").read_text()
    (tmp / "named.activity").write_text(dump.replace("fwd:fc1\n", f"fwd:{LAYER}\n").replace("bwd:fc1\n", f"bwd:{LAYER}\n"))
    run("profile", "--dump", tmp / "named.activity", "--warmup", "1", "-o", tmp / "profile.csv")
    layers = rows_of((tmp / "profile.csv").read_text(), "profile")
    expect("profile layers", [r["layer"] for r in layers], [LAYER, "fc2"])

    # The profile with a 4 MB gradient per layer (rewritten by Python's csv module), predicted,
    # then compare --format csv: each task row names the task as the timeline does.
    text = (tmp / "profile.csv").read_text()
    metadata = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(layers[0]), lineterminator="\n")
    writer.writeheader()
    for layer in layers:
        writer.writerow({**layer, "grad_tensors": 1, "grad_bytes": 4000000})
    (tmp / "graded.csv").write_text(metadata + out.getvalue())
    scenario = (source / "scenarios/ddl-resnet50-10gbe.yaml").read_text().replace(
        "  name: resnet50\n", f"  profile: {tmp / 'graded.csv'}\n")
    (tmp / "profiled.yaml").write_text(scenario)
    run("predict", tmp / "profiled.yaml", "--set", "gpu.type=h100", "-m", "wfbp-allreduce", "-g", "8",
        "--timeline", tmp / "timeline.json")
    compared = rows_of(run("compare", tmp / "timeline.json", tmp / "timeline.json", "--format", "csv"), "compare")
    tasks = json.loads((tmp / "timeline.json").read_text())["tasks"]
    task_rows = [r for r in compared if r["task"]]
    if not task_rows:
        failures.append("compare: expected rows for the all-reduce tasks, got none")
    for row in task_rows:
        expect(f"compare task {row['task']} name", row["name"], tasks[int(row["task"])]["name"])

    # validate: rows.csv (scenario paths), the summary as CSV (worst rows' names), the baseline.
    # With VALIDATE_OUTPUTS, those validation_regression's run wrote (ctest runs the full
    # validation once for both: the fixture validate_outputs); the summary is what precedes the
    # regression check's lines.
    if validate_outputs:
        text = (validate_outputs / "summary.csv").read_text()
        summary = rows_of(text.split("\nregression check against ", 1)[0], "validate summary")
        report, baseline = validate_outputs / "report", validate_outputs / "baseline.csv"
    else:
        report, baseline = tmp / "report", tmp / "baseline.csv"
        summary = rows_of(run("validate", "--data", source / "validation/data", "--report", report,
                              "--format", "csv", "--write-baseline", baseline), "validate summary")
    validated = rows_of((report / "rows.csv").read_text(), "validate rows.csv")
    if len(validated) < 100 or not summary:
        failures.append(f"validate: expected the measured rows and a summary, got {len(validated)} and {len(summary)}")
    if not rows_of(baseline.read_text(), "validate baseline"):
        failures.append("validate baseline: expected a row per table and mode, got none")

    # execute --sweep (built with the executor and Gloo): two local ranks over loopback.
    if subprocess.run([scalecast, "execute", "--help"], capture_output=True).returncode == 0:
        run("execute", "--sweep", "1KiB:4KiB", "--local", "2", "--iters", "1", "--warmup", "0",
            "-o", tmp / "sweep.csv")
        swept = rows_of((tmp / "sweep.csv").read_text(), "execute sweep")
        expect("sweep sizes", [r["bytes"] for r in swept], ["1024", "2048", "4096"])

for failure in failures:
    print(failure, file=sys.stderr)
sys.exit(1 if failures else 0)
