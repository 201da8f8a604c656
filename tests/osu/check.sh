#!/usr/bin/env bash
# tests/osu/check.sh -- mpi_lite/osu/'s OSU-compatible programs, as built by
# `make osu-ref` with Debian's MPICH and Open MPI, run with each MPI's own
# mpirun on short size ranges and few iterations: 2 ranks, the collectives
# also 4. Checks what scripts that read OSU output rely on: the header
# lines, the columns (printf "%-10d%20.2f", and for -f the min, max and
# iterations), the sizes in order, positive values, min <= avg <= max; and
# that -h answers, that bad options and a wrong number of ranks exit 2 with
# a message naming the option and the value.
#
# Usage: tests/osu/check.sh [DIR]   (default build/osu-ref: DIR/{mpich,openmpi}/osu_*)
# An MPI whose programs or mpirun are missing is reported and fails the run.
# Exit 0 only if every check passed.
set -uo pipefail

dir=${1:-build/osu-ref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# A run that takes longer is hung, not slow: the longest here takes ~1 s
# alone, several s on a loaded machine (busy-polling ranks share 2 vCPUs).
limit=120

# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe (MPICH's mpirun has no such flag and needs none).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

ok() {
    echo "ok - $*"
    pass=$((pass + 1))
}
bad() {
    echo "FAIL - $*"
    fail=$((fail + 1))
    sed 's/^/    | /' "$tmp/out" "$tmp/err" | head -n 30
}

# run MPI NPROCS PROG ARGS...: stdout in $tmp/out, stderr in $tmp/err; returns the exit status.
run() {
    local mpi=$1 n=$2 prog=$3
    shift 3
    local launch=("mpirun.$mpi" -n "$n")
    [ "$mpi" = openmpi ] && launch+=(--oversubscribe)
    timeout "$limit" "${launch[@]}" "$dir/$mpi/$prog" "$@" >"$tmp/out" 2>"$tmp/err"
}

# sizes MIN MAX: the size loop's sizes, one line (0, 1, 2, 4, ..).
sizes() {
    local s=$1 out=()
    while [ "$s" -le "$2" ]; do
        out+=("$s")
        if [ "$s" = 0 ]; then s=1; else s=$((s * 2)); fi
    done
    echo "${out[*]}"
}

# check_pt2pt WHAT TITLE COLUMN SIZES...: $tmp/out is OSU's point-to-point output.
check_pt2pt() {
    local what=$1 title=$2 column=$3 want=$4 head got
    head=$(printf '# OSU MPI %s v5.3\n%-10s%20s' "$title" "# Size" "$column")
    if [ "$(head -n 2 "$tmp/out")" != "$head" ]; then
        bad "$what: header lines"
        return
    fi
    if ! got=$(tail -n +3 "$tmp/out" | awk '
        { if (sprintf("%-10d%20.2f", $1, $2) != $0 || NF != 2) { print "line " NR + 2 ": bad layout: " $0; err = 1; exit 1 }
          if ($2 + 0 <= 0) { print "line " NR + 2 ": value not positive: " $0; err = 1; exit 1 }
          got = got (NR > 1 ? " " : "") $1 }
        END { if (!err) print got }'); then
        bad "$what: $got"
        return
    fi
    if [ "$got" != "$want" ]; then
        bad "$what: sizes '$got', expected '$want'"
        return
    fi
    ok "$what: header, columns, sizes $want, positive"
}

# check_coll WHAT TITLE SIZES ITERS...: $tmp/out is OSU's collective output
# with -f; ITERS, one per size, is the iteration count each line must show.
check_coll() {
    local what=$1 title=$2 want=$3 iters=$4 head got
    head=$(printf '\n# OSU MPI %s v5.3\n%-10s%20s%20s%20s%12s' "$title" "# Size" \
        "Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" Iterations)
    if [ "$(head -n 3 "$tmp/out")" != "$head" ]; then
        bad "$what: header lines"
        return
    fi
    if ! got=$(tail -n +4 "$tmp/out" | awk -v iters="$iters" '
        BEGIN { n = split(iters, it, " ") }
        { if (sprintf("%-10d%20.2f%20.2f%20.2f%12d", $1, $2, $3, $4, $5) != $0 || NF != 5) {
              print "line " NR + 3 ": bad layout: " $0; err = 1; exit 1 }
          if ($2 + 0 <= 0 || $3 + 0 < 0) { print "line " NR + 3 ": not positive: " $0; err = 1; exit 1 }
          if ($3 + 0 > $2 + 0 || $2 + 0 > $4 + 0) { print "line " NR + 3 ": not min <= avg <= max: " $0; err = 1; exit 1 }
          if ($5 != it[NR]) { print "line " NR + 3 ": " $5 " iterations, expected " it[NR]; err = 1; exit 1 }
          got = got (NR > 1 ? " " : "") $1 }
        END { if (!err) print got }'); then
        bad "$what: $got"
        return
    fi
    if [ "$got" != "$want" ]; then
        bad "$what: sizes '$got', expected '$want'"
        return
    fi
    ok "$what: header, columns, sizes $want, min <= avg <= max, iterations"
}

# expect_error WHAT STATUS PATTERN: the last run exited STATUS and its
# stderr has PATTERN (a fixed string).
expect_error() {
    local what=$1 status=$2 want=$3 pattern=$4
    if [ "$status" != "$want" ]; then
        bad "$what: exit $status, expected $want"
    elif ! grep -qF -- "$pattern" "$tmp/err"; then
        bad "$what: stderr lacks '$pattern'"
    else
        ok "$what: exit $want, '$pattern'"
    fi
}

for mpi in mpich openmpi; do
    missing=
    for p in osu_latency osu_bw osu_bibw osu_bcast osu_gather; do
        [ -x "$dir/$mpi/$p" ] || missing="$missing $p"
    done
    command -v "mpirun.$mpi" >/dev/null || missing="$missing mpirun.$mpi"
    if [ -n "$missing" ]; then
        echo "FAIL - $mpi: missing$missing (make osu-ref; tools/deps.sh install)"
        fail=$((fail + 1))
        continue
    fi

    run "$mpi" 2 osu_latency -m 64 -i 20 -x 2
    st=$?
    if [ $st = 0 ]; then check_pt2pt "$mpi osu_latency -m 64" "Latency Test" "Latency (us)" "$(sizes 0 64)"; else bad "$mpi osu_latency: exit $st"; fi
    run "$mpi" 2 osu_bw -m 3:64 -i 4 -x 1
    st=$?
    if [ $st = 0 ]; then check_pt2pt "$mpi osu_bw -m 3:64" "Bandwidth Test" "Bandwidth (MB/s)" "$(sizes 4 64)"; else bad "$mpi osu_bw: exit $st"; fi
    run "$mpi" 2 osu_bibw -m 16384 -i 2 -x 1
    st=$?
    if [ $st = 0 ]; then check_pt2pt "$mpi osu_bibw -m 16384" "Bi-Directional Bandwidth Test" "Bandwidth (MB/s)" "$(sizes 1 16384)"; else bad "$mpi osu_bibw: exit $st"; fi

    for n in 2 4; do
        run "$mpi" "$n" osu_bcast -f -m 2:64 -i 10 -x 1
        st=$?
        if [ $st = 0 ]; then check_coll "$mpi osu_bcast -n $n" "Broadcast Latency Test" "$(sizes 2 64)" "10 10 10 10 10 10"; else bad "$mpi osu_bcast -n $n: exit $st"; fi
        run "$mpi" "$n" osu_gather -f -m 1:32 -i 10 -x 1
        st=$?
        if [ $st = 0 ]; then check_coll "$mpi osu_gather -n $n" "Gather Latency Test" "$(sizes 1 32)" "10 10 10 10 10 10"; else bad "$mpi osu_gather -n $n: exit $st"; fi
    done
    # The default counts: 1000 up to 8 KiB, 100 above (-x 0 keeps it short).
    # The program's logic, not the MPI's: one MPI suffices, and 1100 calls
    # are the longest run here when busy-polling ranks lose their CPU.
    if [ "$mpi" = openmpi ]; then
        run "$mpi" 2 osu_bcast -f -m 8192:16384 -x 0
        st=$?
        if [ $st = 0 ]; then check_coll "$mpi osu_bcast default iterations" "Broadcast Latency Test" "8192 16384" "1000 100"; else bad "$mpi osu_bcast default iterations: exit $st"; fi
    fi
    # Without -f: the average only.
    run "$mpi" 2 osu_gather -m 4 -i 5 -x 0
    st=$?
    want=$(printf '\n# OSU MPI Gather Latency Test v5.3\n%-10s%20s' "# Size" "Avg Latency(us)")
    if [ $st = 0 ] && [ "$(head -n 3 "$tmp/out")" = "$want" ] &&
        tail -n +4 "$tmp/out" | awk '{ if (NF != 2 || sprintf("%-10d%20.2f", $1, $2) != $0) exit 1; n++ } END { exit n != 3 }'; then
        ok "$mpi osu_gather without -f: two columns"
    else
        bad "$mpi osu_gather without -f: exit $st or layout"
    fi

    run "$mpi" 2 osu_bw -h
    st=$?
    if [ $st = 0 ] && grep -q '^Usage: osu_bw \[options\]' "$tmp/out" && grep -qF -- '-m [MIN:]MAX' "$tmp/out"; then
        ok "$mpi osu_bw -h: usage, exit 0"
    else
        bad "$mpi osu_bw -h: exit $st or no usage"
    fi
    run "$mpi" 2 osu_latency -i 0
    expect_error "$mpi osu_latency -i 0" $? 2 "osu_latency: -i 0: iterations are a whole number"
    run "$mpi" 2 osu_latency -x 1e3
    expect_error "$mpi osu_latency -x 1e3" $? 2 "osu_latency: -x 1e3: warm-up iterations are a whole number"
    run "$mpi" 2 osu_bw -m 5:4
    expect_error "$mpi osu_bw -m 5:4" $? 2 "osu_bw: -m 5:4: no sizes: MIN 5, rounded up to 8, is above MAX 4"
    run "$mpi" 2 osu_bcast -m 0:8
    expect_error "$mpi osu_bcast -m 0:8" $? 2 "osu_bcast: -m 0:8: sizes are whole numbers of bytes from 1"
    run "$mpi" 2 osu_bibw -f
    expect_error "$mpi osu_bibw -f" $? 2 "osu_bibw: -f: the full listing is the collectives'"
    run "$mpi" 3 osu_latency
    expect_error "$mpi osu_latency on 3 ranks" $? 2 "osu_latency: this test requires exactly two processes, not 3"
    run "$mpi" 1 osu_gather
    expect_error "$mpi osu_gather on 1 rank" $? 2 "osu_gather: this test requires at least two processes, not 1"
done

echo "osu: $pass passed, $fail failed"
[ $fail = 0 ]
