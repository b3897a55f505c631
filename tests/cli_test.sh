#!/usr/bin/env bash
# End-to-end checks of the `scalecast` command: outputs, exit codes, one-line errors naming
# file:line and key, and no half-written output file after a failure.
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/cli_check.sh
source "$src/tests/cli_check.sh"

scen=$src/scenarios/ddl-resnet50-10gbe.yaml
check "predict table" 0 "wfbp-allreduce +32 +8" -- "$bin" predict "$scen"
check "predict csv header" 0 "^scenario,model,method,gpus,nodes,batch_per_gpu,iteration_s,throughput" -- "$bin" predict "$scen" --format csv
rows=$("$bin" predict "$scen" --format csv | tail -n +2 | wc -l)
check "csv has every method x gpus" 0 "^28$" -- echo "$rows"
check "predict json" 0 '"throughput_unit": "images/s"' -- "$bin" predict "$scen" --format json -m bsp-ps -g 8
check "set override" 0 "bsp-allreduce +8 +2" -- "$bin" predict "$scen" --set cluster.network.bandwidth=100Gbps -m bsp-allreduce -g 8
check "help" 0 "--backend" -- "$bin" predict --help
check "schedule json" 0 '"format": "scalecast-schedule"' -- "$bin" schedule "$scen" --method wfbp-ps --gpus 8
check "models" 0 "resnet50 +25557032 +161" -- "$bin" models
check "models: BERT sized, its keys named" 0 " bert-large +336232258 .*bert-large also takes the model keys head, mlm_positions" -- \
  bash -c "'$bin' models | tr '\\n' ' '"
check "gpus" 0 "v100-pcie" -- "$bin" gpus
check "memory in the header" 0 "^memory +6.87 GiB \(5.29 GiB to 10.5 GiB\) of 32 GiB per GPU \(activations" -- "$bin" predict "$scen" -m bsp-ps -g 8
check "memory in json" 0 '"needed_bytes": ' -- "$bin" predict "$scen" --format json -m bsp-ps -g 8
bert=$src/scenarios/whatif-a100-25gbe.yaml
check "out of memory refused" 2 "model.batch_per_gpu: expected a configuration that fits in a k80, got one that needs .* GiB\) of 12 GiB per GPU \(activations .*would fit with model.batch_per_gpu=38" -- "$bin" predict "$bert" --set gpu.type=k80 --set model.batch_per_gpu=4096
check "--allow-oom" 0 "does not fit \(--allow-oom\)" -- "$bin" predict "$bert" --set gpu.type=k80 --set model.batch_per_gpu=4096 --allow-oom -m bsp-allreduce -g 8

printf 'name: x\nmodel: {name: resnet50, batch_per_gpu: 64}\ngpu: {type: v100-pcie}\ncluster:\n  gpus_per_node: 4\n  fabric: pcie3\n  network: {bandwidth: 10Gbs, transport: tcp}\nmethods: [bsp-ps]\ngpus: [4]\n' >"$tmp/bad.yaml"
check "bad unit names file:line and key" 2 "^$tmp/bad.yaml:7: cluster.network.bandwidth: expected a data rate" -- "$bin" predict "$tmp/bad.yaml"
lines=$("$bin" predict "$tmp/bad.yaml" 2>&1 | wc -l)
check "error is one line" 0 "^1$" -- echo "$lines"
check "missing file" 2 "nonexistent.yaml" -- "$bin" predict "$tmp/nonexistent.yaml"
check "unknown method" 2 "unknown method 'nope'" -- "$bin" predict "$scen" -m nope
check "unknown backend" 2 "unknown backend" -- "$bin" predict "$scen" --backend quantum
check "bad option" 2 "unrecognised option|unrecognized option" -- "$bin" predict "$scen" --frobnicate
check "trace needs one run" 2 "exactly one run" -- "$bin" predict "$scen" --trace "$tmp/t.json"
check "unknown command" 2 "unknown command" -- "$bin" fly
"$bin" predict "$tmp/bad.yaml" -o "$tmp/out.csv" >/dev/null 2>&1
check "nothing half-written" 0 "^absent$" -- bash -c "[[ -e '$tmp/out.csv' || -e '$tmp/out.csv.tmp' ]] && echo present || echo absent"
check "header says how the model runs" 0 "^as run    bf16 \\(half-width weights\\), fused attention \\(flash2\\), full checkpointing$" -- \
  "$bin" predict "$src/scenarios/whatif-llama2-7b-fsdp-h100.yaml" -m fsdp -g 8
check "trace written" 0 "traceEvents" -- bash -c "'$bin' predict '$scen' -m wfbp-allreduce -g 8 --trace '$tmp/t.json' >/dev/null && head -c 200 '$tmp/t.json'"
check "timeline json" 0 '"format": "scalecast-timeline"' -- bash -c "'$bin' predict '$scen' -m bsp-ps -g 8 --timeline '$tmp/tl.json' >/dev/null && head -c 300 '$tmp/tl.json'"
# Sweeps: every combination, each swept key a column (table, CSV, JSON), errors naming --sweep.
check "sweep table column" 0 "mgwfbp +64 +8 .* 100Gbps +rdma" -- "$bin" predict "$bert" -m mgwfbp -g 64 --sweep cluster.network.bandwidth=25Gbps,100Gbps --sweep cluster.network.transport=tcp,rdma
swept=$("$bin" predict "$bert" -m mgwfbp -g 64 --sweep cluster.network.bandwidth=25Gbps,100Gbps --sweep cluster.network.transport=tcp,rdma --format csv | tail -n +2 | wc -l)
check "sweep is the cartesian product" 0 "^4$" -- echo "$swept"
check "sweep csv columns" 0 ",gpu,fabric,network_gbps,transport,cluster.network.bandwidth$" -- bash -c "'$bin' predict '$bert' -m mgwfbp -g 64 --sweep cluster.network.bandwidth=25Gbps,100Gbps --format csv | head -1"
check "sweep csv records the hardware" 0 ",a100,nvlink3,100,tcp,100Gbps$" -- "$bin" predict "$bert" -m mgwfbp -g 64 --sweep cluster.network.bandwidth=25Gbps,100Gbps --format csv
check "sweep json settings" 0 '"cluster.network.bandwidth": "100Gbps"' -- "$bin" predict "$bert" -m mgwfbp -g 64 --sweep cluster.network.bandwidth=25Gbps,100Gbps --format json
check "set recorded as a column" 0 ",strategy.bucket_size$" -- bash -c "'$bin' predict '$bert' -m ddp -g 16 --set strategy.bucket_size=50MB --format csv | head -1"
check "bad swept value" 2 "^--sweep cluster.network.bandwidth: expected a data rate" -- "$bin" predict "$bert" --sweep cluster.network.bandwidth=25Gbps,10Gbs
check "sweep without values" 2 "^scalecast predict: --sweep: expected key.path=value1,value2" -- "$bin" predict "$bert" --sweep cluster.network.bandwidth
check "sweep value twice" 2 "'25Gbps' twice" -- "$bin" predict "$bert" --sweep cluster.network.bandwidth=25Gbps,25Gbps
# recommend: a ranked table with units, every configuration in CSV, the front drawn, errors.
check "recommend table" 0 "^rank +method +gpus +nodes +network +settings +iteration +throughput" -- "$bin" recommend "$bert"
check "recommend best per network" 0 "^best for each GPU count and network \(cost\)" -- "$bin" recommend "$bert"
check "recommend pareto" 0 "^Pareto front" -- "$bin" recommend "$bert"
recs=$("$bin" recommend "$bert" --format csv 2>/dev/null | tail -n +2 | wc -l)
check "recommend csv has every configuration" 0 "^336$" -- echo "$recs"
check "recommend csv columns" 0 "^rank,pareto,servers,price_per_hour,cost_per_million_samples,train_s,train_cost,memory_bytes,scenario," -- bash -c "'$bin' recommend '$bert' --format csv 2>/dev/null | head -1"
check "recommend json" 0 '"objective": "throughput"' -- "$bin" recommend "$bert" --objective throughput --format json -m mgwfbp
check "recommend progress on stderr" 0 "^recommend: 336 configurations in" -- bash -c "'$bin' recommend '$bert' 2>&1 >/dev/null"
if command -v gnuplot >/dev/null; then
  check "recommend plot" 0 "^PNG$" -- bash -c "'$bin' recommend '$bert' --plot '$tmp/front.png' >/dev/null 2>&1 && head -c 4 '$tmp/front.png' | tail -c 3"
fi
check "recommend bad objective" 2 "unknown objective 'fast'" -- "$bin" recommend "$bert" --objective fast
check "recommend cost needs prices" 2 "prices.gpu_hour.v100-pcie: expected a price per GPU-hour" -- "$bin" recommend "$scen" --objective cost
check "recommend plot needs prices" 2 "prices.gpu_hour.v100-pcie: expected a price per GPU-hour" -- "$bin" recommend "$scen" --plot "$tmp/x.png"
check "recommend prices a catalog GPU, dated" 0 "^prices +GPU h100 [0-9.]+ USD per GPU-hour: price catalog, .*, on-demand, price date (undated|20[0-9-]+), source " -- "$bin" recommend "$src/scenarios/whatif-bert-large-1024-h100.yaml"
check "recommend names a dedicated server's price" 0 "dedicated server 8.22 USD per hour" -- "$bin" recommend "$bert"
check "prices lists the catalog with units" 0 "USD/GPU-hour" -- "$bin" prices
check "datasets lists the length histograms" 0 "^wikipedia-bert-512 +512 +16279552 +255.8 +50.0 +23.4 " -- "$bin" datasets
check "recommend without a search section" 0 "^1 +(mgwfbp|wfbp-ps) +32" -- "$bin" recommend "$scen"
# collective: nccl-tests' table for every operation, --compare against a measured output, errors.
h100=$src/scenarios/cluster-h100-ndr.yaml
for op in all_reduce all_gather reduce_scatter broadcast reduce sendrecv alltoall; do
  check "collective $op" 0 "^#       size         count      type   redop    root     time   algbw   busbw  #wrong" -- "$bin" collective "$h100" --op $op --gpus 16 -b 8 -e 16G -f 4
done
check "collective row" 0 "^  1073741824     268435456     float     sum      -1 " -- "$bin" collective "$h100" --op all_reduce --gpus 16 -b 1G -e 1G
check "collective footer" 0 "^# Avg bus bandwidth    : " -- "$bin" collective "$h100" --op all_reduce --gpus 2 -b 8 -e 1M
check "collective compare" 0 "^mean \|error\|: .* below 64 KiB \(13 sizes\), .* from 1 MiB \(14 sizes\)" -- "$bin" collective "$h100" --op all_reduce --gpus 16 --compare "$src/validation/data/nccl-tests/nebius-h100-2x8.all_reduce_perf.txt"
check "collective compare signed error over training sizes" 0 "^mean error from 1 to 64 MiB: [-+][0-9]+\.[0-9]% \([0-9]+ sizes; negative: predicted faster than measured\)$" -- "$bin" collective "$h100" --op all_reduce --gpus 16 --compare "$src/validation/data/nccl-tests/nebius-h100-2x8.all_reduce_perf.txt"
check "collective compare with rank prefixes" 0 "nvls/Simple x16" -- "$bin" collective "$src/scenarios/cluster-aws-p5.yaml" --op all_reduce --gpus 8 --compare "$src/validation/data/nccl-tests/aws-p5-1x8.all_reduce_perf.txt"
check "collective csv" 0 "^scenario,op,gpus,nodes,bytes,count,predicted_us,algorithm,bound$" -- bash -c "'$bin' collective '$h100' --op all_gather --gpus 16 --format csv | head -1"
check "collective says what sets the time" 0 "^# what sets the time by size: 8 B latency; .* B NICs;$" -- "$bin" collective "$h100" --op all_reduce --gpus 2 -b 8 -e 1G -f 4
check "collective nccl algo" 0 "ring/" -- "$bin" collective "$h100" --op all_reduce --gpus 16 -b 1G -e 1G --set strategy.nccl_algo=ring
check "calibrate an nccl-tests output without device lines, sized by --gpus" 0 "^held out by size" -- "$bin" calibrate "$src/validation/data/nccl-tests/aws-p5-2x8.all_reduce_perf.txt" --gpus 16 --scenario "$src/scenarios/cluster-aws-p5.yaml" -o /dev/null
check "calibrate holds out whole files" 0 "^held out by file \\(2 files" -- "$bin" calibrate "$src/validation/data/nccl-tests/aws-p5-2x8.all_reduce_perf.txt" "$src/validation/data/nccl-tests/aws-p5-2x8-nccl2.22.all_reduce_perf.txt" --gpus 16 --scenario "$src/scenarios/cluster-aws-p5.yaml" -o /dev/null
check "calibrate without device lines or --gpus" 2 "or --gpus" -- "$bin" calibrate "$src/validation/data/nccl-tests/aws-p5-2x8.all_reduce_perf.txt" --scenario "$src/scenarios/cluster-aws-p5.yaml" -o /dev/null
check "collective on an older NCCL" 0 "ring/Simple x1;" -- "$bin" collective "$src/scenarios/ddl-bert-large-10gbe.yaml" --op all_reduce --gpus 8 -b 64M -e 64M
check "bad nccl version" 2 "strategy.nccl_version: expected an NCCL release MAJOR.MINOR.PATCH from 2.4.8 to 2.27.7" -- "$bin" predict "$h100" --set strategy.nccl_version=2.3.7
check "the analytical command loads no SimGrid" 0 "^0$" -- bash -c "ldd '$bin' | grep -ci simgrid || true"
check "bf16 where the GPU has it" 0 "^ddp +8 +1 " -- "$bin" predict "$src/scenarios/whatif-bert-large-1024-h100.yaml" --set model.precision=bf16 -g 8
check "fp8 refused on a GPU without it, naming the GPU" 2 "model.precision: expected a precision the a100 computes in \\(fp32, tf32, fp16, bf16\\), got 'fp8'" -- "$bin" predict "$src/scenarios/whatif-a100-25gbe.yaml" --set model.precision=fp8
check "bf16 refused on a V100" 2 "expected a precision the v100-pcie computes in \\(fp32, tf32, fp16\\), got 'bf16'" -- "$bin" predict "$scen" --set model.precision=bf16
# No command writes over one of its inputs, nor two outputs into one file: each refusal is one line,
# exit 2, and the input is left as it was.
cp "$scen" "$tmp/in.yaml"
cp "$src/validation/data/nccl-tests/aws-p5-2x8-nccl2.22.all_reduce_perf.txt" "$tmp/in.txt"
"$bin" schedule "$scen" --method bsp-ps --gpus 8 -o "$tmp/in.json" 2>/dev/null
cp "$(ls "$src"/tests/fixtures/torch_traces/*.json | head -1)" "$tmp/trace.json"
for cmd in "predict $tmp/in.yaml -o $tmp/in.yaml" \
           "recommend $tmp/in.yaml -o $tmp/in.yaml" \
           "schedule $tmp/in.yaml --method bsp-ps --gpus 8 -o $tmp/in.yaml" \
           "collective $h100 --op all_reduce --gpus 16 --compare $tmp/in.txt -o $tmp/in.txt" \
           "calibrate $tmp/in.txt --scenario $src/scenarios/cluster-aws-p5.yaml -o $tmp/in.txt" \
           "compare $tmp/in.json $tmp/in.json -o $tmp/in.json" \
           "import-trace $tmp/trace.json -o $tmp/trace.json" \
           "execute $tmp/in.json --local 2 -o $tmp/in.json"; do
  name=${cmd%% *}
  if ! "$bin" "$name" --help >/dev/null 2>&1; then continue; fi  # a part this build leaves out
  before=$(md5sum "$tmp/in.yaml" "$tmp/in.txt" "$tmp/in.json" "$tmp/trace.json")
  # shellcheck disable=SC2086
  check "$name: -o naming an input is refused" 2 "^scalecast $name: --output .*: that file is the command's input" -- "$bin" $cmd
  check "$name: the input is untouched" 0 "^same$" -- bash -c "[[ '$before' == \"\$(md5sum '$tmp/in.yaml' '$tmp/in.txt' '$tmp/in.json' '$tmp/trace.json')\" ]] && echo same"
done
check "two outputs into one file" 2 "^scalecast predict: --trace and --timeline both name" -- "$bin" predict "$scen" -m bsp-ps -g 8 --trace "$tmp/t.json" --timeline "$tmp/./t.json"
check "a plot into no folder writes nothing" 2 "^scalecast recommend: --plot /missing-dir/front.png: expected a file in an existing folder" -- "$bin" recommend "$src/scenarios/whatif-a100-25gbe.yaml" -o "$tmp/r.txt" --plot /missing-dir/front.png
check "nor the other output" 0 "^absent$" -- bash -c "[[ -e '$tmp/r.txt' ]] && echo present || echo absent"
a100=$src/scenarios/whatif-a100-25gbe.yaml
check "nccl channel bounds the wrong way round" 2 "strategy.nccl_min_channels: expected at most nccl_max_channels \\(4\\) channels, got '8'" -- "$bin" predict "$a100" --set strategy.nccl_min_channels=8 --set strategy.nccl_max_channels=4 -m ddp -g 16
check "every NCCL protocol excluded" 2 "leave no algorithm for all_reduce" -- "$bin" predict "$a100" --set 'strategy.nccl_proto=^ll,ll128,simple' -m ddp -g 16
check "recommend --top below 0" 2 "^scalecast recommend: --top: expected 0 \\(all\\) or more rows, got -1" -- "$bin" recommend "$a100" --top -1
check "a method given twice" 2 "^scalecast predict: --method: ddp is given twice" -- "$bin" predict "$a100" -m ddp -m ddp -g 16
check "a GPU count given twice" 2 "^scalecast predict: --gpus: 16 is given twice" -- "$bin" predict "$a100" -m ddp -g 16 -g 16
check "a memory limit below zero" 2 "^scalecast predict: --max-memory: expected a size above 0, got '-1GiB'" -- "$bin" predict "$a100" --max-memory -1GiB -m ddp -g 16
# nccl-tests output read strictly: each damage named by file and line, exit 2.
oci=$src/validation/data/nccl-tests/oci-a100-2x8.all_reduce_perf.txt
ocis=$src/scenarios/cluster-oci-bm-gpu4.yaml
row=$(grep -n "^ *1048576 " "$oci" | head -1 | cut -d: -f1)
head -n -3 "$oci" | head -c -40 >"$tmp/cut.all_reduce_perf.txt"
sed "${row}s/^ *1048576 /  -1048576 /" "$oci" >"$tmp/negative.all_reduce_perf.txt"
sed "${row}s/^ *1048576 /  1e30 /" "$oci" >"$tmp/huge.all_reduce_perf.txt"
sed "${row}s/ 85.58 / 1e308 /" "$oci" >"$tmp/slow.all_reduce_perf.txt"
sed "${row}p" "$oci" >"$tmp/twice.all_reduce_perf.txt"
rank=$(grep -n "Rank  0 " "$oci" | head -1 | cut -d: -f1)
sed "${rank}s/Rank  0 /Rank 99999999999 /" "$oci" >"$tmp/rank.all_reduce_perf.txt"
cat "$oci" "$oci" >"$tmp/two-runs.all_reduce_perf.txt"
{ head -n "$row" "$oci"; printf '\0\n'; } >"$tmp/nul.all_reduce_perf.txt"
for damage in "cut:[0-9]+: expected a row of nccl-tests .* \\(cut short\\?\\)" \
              "negative:$row: expected a size from 0 to 1e15 bytes, got -1048576" \
              "huge:$row: expected a size from 0 to 1e15 bytes, got 1e30" \
              "slow:$row: time: expected a number of microseconds in \\[0.001, 3.6e9\\] \\(1 ns to 1 h\\), got 1e308" \
              "twice:$((row + 1)): expected sizes in increasing order, got 1048576 after 1048576" \
              "rank:$rank: expected a rank below 1048576, got 99999999999" \
              "two-runs:[0-9]+: expected one run of all_reduce, got a second" \
              "nul:$((row + 1)): expected text, got a NUL byte"; do
  name=${damage%%:*}
  check "nccl-tests output: $name" 2 "^$tmp/$name.all_reduce_perf.txt:${damage#*:}" -- \
    "$bin" collective "$ocis" --op all_reduce --gpus 16 --compare "$tmp/$name.all_reduce_perf.txt"
done
awk '/^ *[0-9]+ +[0-9]+ +float/ {$1 = 0; $2 = 0} {print}' "$oci" >"$tmp/zero.all_reduce_perf.txt"
check "calibrate: only 0-byte rows" 2 "got only 0-byte rows" -- "$bin" calibrate "$tmp/zero.all_reduce_perf.txt" --scenario "$ocis" -o "$tmp/zero.yaml"
check "calibrate: no cluster file written" 0 "^absent$" -- bash -c "[[ -e '$tmp/zero.yaml' ]] && echo present || echo absent"
# A cluster file calibrated on other hardware is refused, naming each difference.
"$bin" calibrate "$src/validation/data/nccl-tests/aws-p4d-2x8.all_reduce_perf.txt" --scenario "$src/scenarios/cluster-aws-p4d-ring.yaml" -o "$tmp/p4d.yaml" 2>/dev/null
check "calibration records its hardware" 0 "^  hardware: \\{gpu: \"a100-sxm4-40gb\", fabric: \"nvlink3\", transport: \"efa\", nic: \"efa-v1\", gpus_per_node: \"8\"\\}" -- cat "$tmp/p4d.yaml"
check "a cluster file of other hardware is refused" 2 "^$tmp/p4d.yaml: calibration.hardware: expected the hardware of .*cluster-h100-ndr.yaml, got gpu a100-sxm4-40gb there, h100 here, .*transport efa there, rdma here" -- "$bin" collective "$h100" --op all_reduce --gpus 16 --cluster "$tmp/p4d.yaml"
check "unless asked for" 0 "^# what sets the time" -- "$bin" collective "$h100" --op all_reduce --gpus 16 --cluster "$tmp/p4d.yaml" --allow-other-cluster
check "on its own hardware it applies" 0 "^calibrated $tmp/p4d.yaml|^# what sets" -- "$bin" collective "$src/scenarios/cluster-aws-p4d-ring.yaml" --op all_reduce --gpus 16 --cluster "$tmp/p4d.yaml"
check "collective bad op" 2 "unknown collective 'allgather2'" -- "$bin" collective "$h100" --op allgather2
check "collective bad size" 2 "^scalecast collective: -b: expected a size in bytes" -- "$bin" collective "$h100" --op all_reduce --gpus 16 -b 8X
check "collective needs a gpu count" 2 "lists 2 GPU counts: pick one with --gpus" -- "$bin" collective "$h100" --op all_reduce
check "collective bad nccl algo" 2 "strategy.nccl_algo: expected NCCL_ALGO's syntax" -- "$bin" collective "$h100" --op all_reduce --gpus 16 --set strategy.nccl_algo=spiral
check "collective wrong measured op" 2 "expected all_gather_perf output" -- "$bin" collective "$h100" --op all_gather --gpus 16 --compare "$src/validation/data/nccl-tests/nebius-h100-2x8.all_reduce_perf.txt"
check "cluster scenario refuses predict" 2 "model: expected the model to train" -- "$bin" predict "$h100" -m bsp-allreduce
a=$("$bin" predict "$scen" --format csv | md5sum)
b=$("$bin" predict "$scen" --format csv | md5sum)
check "deterministic output" 0 "^same$" -- bash -c "[[ '$a' == '$b' ]] && echo same"

# SimGrid's own options (built with the SimGrid backend): passed through, refused elsewhere.
check "--cfg needs simgrid" 2 "--cfg and --log are SimGrid's options: they need --backend simgrid" -- \
  "$bin" predict "$scen" -m bsp-allreduce -g 8 --cfg network/model:LV08
if "$bin" backends | grep -qx simgrid; then
  check "--cfg needs KEY:VALUE" 2 "SimGrid option '--cfg=LV08': expected --cfg=KEY:VALUE" -- \
    "$bin" predict "$scen" -b simgrid -m bsp-allreduce -g 8 --cfg LV08
  check "--log shows scalecast's categories" 0 "\[scalecast_replay/VERBOSE\] replaying [0-9]+ tasks on 2 nodes" -- \
    "$bin" predict "$scen" -b simgrid -m bsp-allreduce -g 8 --log scalecast.thres:verbose
  cm02=$("$bin" predict "$scen" -b simgrid -m bsp-allreduce -g 8 --format csv | tail -1 | cut -d, -f7)
  lv08=$("$bin" predict "$scen" -b simgrid -m bsp-allreduce -g 8 --format csv --cfg network/model:LV08 | tail -1 | cut -d, -f7)
  check "--cfg wins over scalecast's settings" 0 "^differ$" -- bash -c "[[ '$cm02' != '$lv08' ]] && echo differ"
fi

# import-trace (built with the profiler library): the recorded torch.profiler traces to profiles,
# layers and gradients as recorded, and a prediction on one of them.
if "$bin" import-trace --help >/dev/null 2>&1; then
  traces=$src/tests/fixtures/torch_traces
  for expected in "mlp 5 6 27688" "cnn 9 8 6312" "transformer 10 14 35496"; do
    read -r m layers tensors bytes <<<"$expected"
    check "import-trace $m" 0 "^import-trace: $layers layers, 2 iterations, .*; $tensors gradient tensors, $bytes bytes" -- \
      "$bin" import-trace "$traces/$m.json" --parameters "$traces/$m.parameters.csv" --batch 8 -o "$tmp/$m-profile.csv"
  done
  check "imported precision and optimizer" 0 "^# precision: fp32 # optimizer: sgd" -- bash -c "grep -E '^# (precision|optimizer)' '$tmp/cnn-profile.csv' | tr '\n' ' '"
  printf 'name: cnn from a trace\nmodel: {profile: %s, batch_per_gpu: 8}\ngpu: {type: v100-pcie}\ncluster:\n  gpus_per_node: 2\n  fabric: pcie3\n  network: {bandwidth: 10Gbps, transport: tcp}\nmethods: [wfbp-ps]\ngpus: [4]\n' \
    "$tmp/cnn-profile.csv" >"$tmp/cnn.yaml"
  check "predict on an imported profile" 0 "^wfbp-ps +4 +2 " -- "$bin" predict "$tmp/cnn.yaml"
  check "import-trace without gradient shapes" 2 "cnn.json: expected the gradients' shapes" -- \
    "$bin" import-trace "$traces/cnn.json" -o "$tmp/unused.csv"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
