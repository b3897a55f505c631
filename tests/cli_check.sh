# The assertion the command-line test scripts share (sourced): run a command, compare its exit
# code and match its output, and count passes and failures for the script's summary line.
passed=0 failed=0

check() {  # check NAME EXPECTED_EXIT REGEX -- COMMAND...
  local name=$1 want=$2 regex=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -eq $want ]] && grep -Eq -- "$regex" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name (exit $rc, wanted $want; pattern '$regex')"
    echo "$out" | head -5
  fi
}
