#!/usr/bin/env bash
# The bad-input suite: every case in cases.txt must make scalecast exit with code 2, print exactly
# one line on stderr (nothing on stdout) holding the case's expected fragment (which names the
# file and the key), leave an existing output file unchanged and create no other file. Cases of a
# command this build lacks (execute, profile, import-trace) are left out.
# Usage: run.sh SCALECAST SOURCE_DIR
set -u
bin=$1
src=$2
here=$src/tests/bad_inputs
valid=tests/bad_inputs/valid
fixtures=tests/fixtures/torch_traces  # a valid trace (mlp.json) and its parameter list
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
declare -A per_format

# A data folder for `validate` holding TABLE under NAME and the testbed map, its scenario paths
# made absolute (or MAP in its place); prints its path.
data_folder() {  # data_folder NAME TABLE [MAP]
  local dir=$tmp/data
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$2" "$dir/$1"
  sed "s|,\.\./\.\./|,$src/|" "${3:-$src/validation/data/testbeds.csv}" >"$dir/testbeds.csv"
  echo "$dir"
}

# The command line of a case, by the folder it lives in; {out} exists, {new} must not appear.
command_for() {  # command_for CASE
  local file=$1 format=${1%%/*}
  case $format in
    scenario) echo "predict $here/$file -o {out} --trace {new}" ;;
    recommend) echo "recommend $here/$file -o {out} --plot {new}" ;;
    set) echo "predict $valid/scenario.yaml $(sed 's/^/--set /' "$here/$file" | tr '\n' ' ') -o {out} --trace {new}" ;;
    schedule) echo "compare $here/$file $valid/timeline.json -o {out}" ;;
    execute) echo "execute $here/$file --local 2 -o {out} --trace {new}" ;;
    timeline) echo "compare $valid/schedule.json $here/$file -o {out}" ;;
    profile) echo "predict $valid/profile-scenario.yaml --set model.profile=$here/$file -o {out} --trace {new}" ;;
    ddl) echo "validate --data $(data_folder ddl-benchmarks-2020-05-29.csv "$here/$file") --write-baseline {out}" ;;
    distml) echo "validate --data $(data_folder distml-2021.csv "$here/$file") --write-baseline {out}" ;;
    testbeds) echo "validate --data $(data_folder ddl-benchmarks-2020-05-29.csv "$here/valid/ddl-benchmarks-2020-05-29.csv" "$here/$file") --write-baseline {out}" ;;
    baseline) echo "validate --check $here/$file --write-baseline {out}" ;;
    dump) echo "profile --dump $here/$file -o {out} --trace {new}" ;;
    trace) echo "import-trace $here/$file --parameters $fixtures/mlp.parameters.csv -o {out}" ;;
    parameters) echo "import-trace $fixtures/mlp.json --parameters $here/$file -o {out}" ;;
    nccl) echo "calibrate $here/$file --scenario scenarios/cluster-h100-no-nvls.yaml -o {out} --residuals {new}" ;;
    nccl-compare) echo "collective scenarios/cluster-h100-no-nvls.yaml --op all_reduce --gpus 8 --compare $here/$file -o {out}" ;;
    cluster) echo "predict $valid/scenario.yaml --cluster $here/$file -o {out} --trace {new}" ;;
    options) sed "s|{valid}|$valid|g" "$here/$file" ;;
  esac
}

cd "$src" || exit 1
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  file=${line%% | *}
  expected=${line#* | }
  format=${file%%/*}
  printf 'previous output\n' >"$tmp/out"
  rm -f "$tmp/new" "$tmp/out.tmp" "$tmp/new.tmp"
  cmd=$(command_for "$file")
  # A command this build leaves out (the executor, the profiler) has no cases to run.
  "$bin" "${cmd%% *}" --help >/dev/null 2>&1 || continue
  cmd=${cmd//\{out\}/$tmp/out}
  cmd=${cmd//\{new\}/$tmp/new}
  expected=${expected//\{file\}/$here/$file}
  # shellcheck disable=SC2086  # the command line is split into its words on purpose
  timeout 60 "$bin" $cmd >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  problems=()
  ((rc == 2)) || problems+=("exit code $rc")
  [[ $(wc -l <"$tmp/stderr") -eq 1 ]] || problems+=("$(wc -l <"$tmp/stderr") lines on stderr")
  [[ -s $tmp/stdout ]] && problems+=("output on stdout")
  grep -qF -- "$expected" "$tmp/stderr" || problems+=("no '$expected'")
  [[ $(cat "$tmp/out") == "previous output" ]] || problems+=("the output file changed")
  [[ -e $tmp/new || -e $tmp/out.tmp || -e $tmp/new.tmp ]] && problems+=("an output file was created")
  if ((${#problems[@]})); then
    failed=$((failed + 1))
    echo "FAIL: $file: ${problems[*]}"
    head -3 "$tmp/stderr"
  else
    passed=$((passed + 1))
    per_format[$format]=$((${per_format[$format]:-0} + 1))
  fi
done <"$here/cases.txt"

for format in "${!per_format[@]}"; do echo "  $format: ${per_format[$format]}"; done | sort
echo "bad inputs: $passed passed, $failed failed"
[[ $failed -eq 0 && $passed -ge 150 ]]
