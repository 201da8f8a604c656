#!/usr/bin/env bash
# run-tests.sh TEST... -- run Check test programs from the repo root and sum
# their summaries into one Check-style line. Exit 1 if any program failed.
# run-tests.sh --total DIR... -- sum the summaries runs left in those trees.
# Env: BUILD (tree under test), SAN (asan|tsan|""), TEST_SUITES (suite filter).
set -u

# --total DIR...: one Check-style line summing the trees' last runs.
if [ "${1:-}" = --total ]; then
    shift
    checks=0 failures=0 errors=0 parts=()
    for d in "$@"; do
        read -r c f e < "$d/test-summary" || exit 1
        checks=$((checks + c)) failures=$((failures + f)) errors=$((errors + e))
        parts+=("$(basename "$d") $c")
    done
    pct=100
    [ "$checks" -gt 0 ] && pct=$(( (checks - failures - errors) * 100 / checks ))
    joined=$(IFS=,; echo "${parts[*]}")
    echo "make test (${joined//,/, } checks):"
    echo "$pct%: Checks: $checks, Failures: $failures, Errors: $errors"
    [ $((failures + errors)) = 0 ]
    exit
fi

export BUILD="${BUILD:-build}" IPCSIM_ROOT="${IPCSIM_ROOT:-$PWD}"
case "${SAN:-}" in
# QuickThreads switches stacks under ASan's feet: it cannot see the switch, so
# detect_stack_use_after_return must stay off. Leaks are checked (LSan).
asan) export ASAN_OPTIONS="detect_stack_use_after_return=0:abort_on_error=0:${ASAN_OPTIONS:-}"
      export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" ;;
tsan) export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}" ;;
esac
label="${SAN:-plain}"
checks=0 failures=0 errors=0 status=0 bad=()
for t in "$@"; do
    log=$(mktemp)
    echo "== [$label] $t"
    "$t" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line=$(grep -E '^[0-9]+%: Checks: [0-9]+' "$log" | tail -n 1)
    # Check's failure lines (file:line:F|E:tcase:case:...) and sanitizer
    # reports, repeated at the end: a CI log is often read from its tail.
    while IFS= read -r l; do bad+=("$t: $l"); done \
        < <(grep -E '^[^ ]+:[0-9]+:[FE]:|^SUMMARY: (Address|Undefined|Thread|Leak)Sanitizer' "$log")
    rm -f "$log"
    if [ -z "$line" ]; then
        echo "run-tests: $t printed no Check summary (exit $rc)" >&2
        bad+=("$t: no Check summary (exit $rc)")
        status=1
        continue
    fi
    [ "$rc" = 0 ] || status=1
    read -r c f e < <(echo "$line" | sed -E 's/.*Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/')
    checks=$((checks + c)) failures=$((failures + f)) errors=$((errors + e))
done
if [ ${#bad[@]} -gt 0 ]; then
    echo "[$label] what failed:"
    printf '  %s\n' "${bad[@]}"
fi
pct=100
[ "$checks" -gt 0 ] && pct=$(( (checks - failures - errors) * 100 / checks ))
echo "[$label] $pct%: Checks: $checks, Failures: $failures, Errors: $errors"
mkdir -p "$BUILD" && echo "$checks $failures $errors" > "$BUILD/test-summary"
exit $status
