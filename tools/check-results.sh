#!/usr/bin/env bash
# check-results.sh [IPCSIM] -- the golden check of results/ (make check-results).
#
# Reruns every scenario on the sim backend into a temporary directory and
# compares each CSV with the committed results/<group>/<stem>.csv byte for
# byte (ipcsim compare prints the points that moved); a scenario with a
# sweep: section is run by ipcsim sweep --jobs 2 and its merged CSV compared
# (diff shows the lines that moved). Also fails on a
# scenario without a committed CSV and on a committed CSV that no scenario
# writes (results/bench/ holds benchmark output, not scenarios'). A change
# that moves a simulated result must say why and commit the new results
# (make results). Only CSVs are compared: each run's <stem>.meta.yaml records
# a date, host and time, so it differs every run (and .gitignore keeps it out
# of results/ in git). CHECK_RESULTS_ROOT: the tree holding scenarios/ and
# results/ (default: this repository; tests/cli points it at a scratch tree).
set -u
ipcsim=$(realpath "${1:-$(dirname "$0")/../build/ipcsim}" 2>/dev/null) || ipcsim=${1:-build/ipcsim}
cd "${CHECK_RESULTS_ROOT:-$(dirname "$0")/..}" || exit 2
[ -x "$ipcsim" ] || { echo "check-results: $ipcsim: not built (run make)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

status=0 total=0 same=0
for s in scenarios/*/*.yaml; do
    g=$(basename "$(dirname "$s")")
    stem=$(basename "$s" .yaml)
    old=results/$g/$stem.csv new=$tmp/$g/$stem.csv
    total=$((total + 1))
    # A sweep's result is its merged CSV (ipcsim sweep; docs/sweeps.md),
    # which has the swept keys as its first columns: compared as bytes.
    sweep=
    grep -q '^sweep:' "$s" && sweep=1
    if [ -n "$sweep" ]; then
        cmd=(sweep "$s" --jobs 2 --out "$tmp/$g")
    else
        cmd=(run "$s" --out "$tmp/$g")
    fi
    if ! "$ipcsim" "${cmd[@]}" > "$tmp/log" 2>&1; then
        echo "check-results: $s: the run failed:"
        tail -n 20 "$tmp/log"
        status=1
        continue
    fi
    if [ ! -f "$old" ]; then
        echo "check-results: $s: $old is not committed (make results, then commit it)"
        status=1
        continue
    fi
    if [ -n "$sweep" ]; then
        if cmp -s "$old" "$new"; then
            same=$((same + 1))
        else
            echo "check-results: $s: the merged sweep differs from $old:"
            diff "$old" "$new" | head -n 20
            status=1
        fi
        continue
    fi
    "$ipcsim" compare "$old" "$new" --name "$s"
    case $? in
    0) same=$((same + 1)) ;;
    1) status=1 ;;
    *) exit 2 ;;
    esac
done
for f in results/*/*.csv; do
    case $f in results/bench/*) continue ;; esac
    case $(basename "$f") in
    *+*)
        # ipcsim run names the outputs of a run with --set, --backend native
        # or --seed <stem>+<tags>: never a committed result.
        echo "check-results: $f: the output of a run with --set, --backend native or --seed," \
             "not a scenario's result: move it out of results/"
        status=1
        continue
        ;;
    esac
    s=scenarios/${f#results/}
    s=${s%.csv}.yaml
    if [ ! -f "$s" ]; then
        echo "check-results: $f: no scenario writes it ($s is gone): remove it"
        status=1
    fi
done
if [ $status = 0 ]; then
    echo "check-results: $same of $total scenarios give the committed results/ byte for byte"
else
    echo "check-results: FAILED: $same of $total scenarios give the committed results/ byte for byte" \
         "(a change that moves a result says why and commits it: make results)" >&2
fi
exit $status
