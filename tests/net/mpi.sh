#!/usr/bin/env bash
# tests/net/mpi.sh -- mpirun's ranks on two hosts: two network namespaces
# joined by a veth pair, each a host of the hostfile, the ranks started in
# them by the launcher 'ip netns exec <ns>{node}'.
#
# First that the ranks land where the hostfile says (a shell's view of its
# addresses: no MPI), then MPI programs across the two hosts: the ring and
# pi examples on 4 ranks (2 per host), osu_latency and osu_bw on 2 (one per
# host), with the bytes that crossed the veth counted, so that a run that
# met through shared memory (the namespaces share /dev/shm) instead of TCP
# fails. After every run no /dev/shm/ipcsim.<job>.* object of the job is left.
#
# Usage: tests/net/mpi.sh [BUILD]   (default build; needs BUILD/bin/mpirun,
# BUILD/mpi-examples/{ring,pi}, BUILD/osu/osu_{latency,bw}: make all)
# Needs root and ip (iproute2); without them it is skipped with a message.
# Exit 0 only if every check passed.
set -uo pipefail

build=${1:-build}
mpirun=$build/bin/mpirun
tmp=$(mktemp -d)
ns=mpn$$- # the hosts are namespaces ${ns}0 and ${ns}1
net=10.$((64 + $$ % 128)).$((($$ / 128) % 250))
host0=$net.1
host1=$net.2

cleanup() {
    ip netns del "${ns}0" 2>/dev/null
    ip netns del "${ns}1" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck source=tests/net/tap.sh
. "$(dirname "$0")/tap.sh"

for p in "$mpirun" "$build/mpi-examples/ring" "$build/mpi-examples/pi" "$build/osu/osu_latency" \
    "$build/osu/osu_bw"; do
    [ -x "$p" ] || {
        echo "FAIL - $p is missing (make all)"
        exit 1
    }
done

if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! ip netns add "${ns}0" 2>/dev/null; then
    echo "skip - mpirun across network namespaces: needs root and ip (iproute2)"
    exit 0
fi
ip netns add "${ns}1"
ip link add "ma$$" type veth peer name "mb$$"
ip link set "ma$$" netns "${ns}0"
ip link set "mb$$" netns "${ns}1"
ip -n "${ns}0" addr add "$host0/24" dev "ma$$"
ip -n "${ns}1" addr add "$host1/24" dev "mb$$"
for i in 0 1; do
    ip -n "$ns$i" link set lo up
done
ip -n "${ns}0" link set "ma$$" up
ip -n "${ns}1" link set "mb$$" up
echo "# hosts $host0 (namespace ${ns}0) and $host1 (${ns}1), veth ma$$ - mb$$"

printf '%s slots=2\n%s slots=2\n' "$host0" "$host1" >"$tmp/hosts4"
printf '%s\n%s slots=1\n' "$host0" "$host1" >"$tmp/hosts2"
launcher="ip netns exec $ns{node}"

# Bytes host 1 received on its end of the veth so far.
rx1() { ip netns exec "${ns}1" cat "/sys/class/net/mb$$/statistics/rx_bytes"; }

# job NAME HOSTFILE N PROGRAM ARGS...: mpirun in the background (its pid is
# the job name's head), its output in $out, its status in $rc; then the
# check that none of the job's shared memory objects is left.
job() {
    local name=$1 hf=$2 n=$3
    shift 3
    "$mpirun" -n "$n" --hostfile "$hf" --launcher "$launcher" --timeout 60 "$@" \
        >"$tmp/out" 2>&1 &
    local pid=$!
    wait "$pid"
    rc=$?
    out=$(cat "$tmp/out")
    local left
    left=$(find /dev/shm -maxdepth 1 -name "ipcsim.$pid-*" | wc -l)
    if [ "$left" = 0 ]; then
        ok "$name: no /dev/shm/ipcsim.$pid-* object left"
    else
        bad "$name: $left /dev/shm/ipcsim.$pid-* objects left: $(find /dev/shm -maxdepth 1 -name "ipcsim.$pid-*")"
    fi
}

# ---- where the ranks run: no MPI -------------------------------------------
# shellcheck disable=SC2016 # expanded by the ranks' shell
job "placement" "$tmp/hosts4" 4 sh -c \
    'echo "rank $IPCSIM_CORE local $PMI_LOCAL_RANK/$PMI_LOCAL_SIZE hosts $IPCSIM_HOSTS: $(ip -4 -o addr show | grep -o "inet [0-9.]*" | grep -v 127.0.0.1)"'
want_hosts="$host0,$host0,$host1,$host1"
placed=yes
for r in 0 1 2 3; do
    h=$host0
    [ $r -ge 2 ] && h=$host1
    grep -qxF "rank $r local $((r % 2))/2 hosts $want_hosts: inet $h" <<<"$out" || placed=no
done
if [ $rc -eq 0 ] && [ $placed = yes ]; then
    ok "placement: ranks 0, 1 in ${ns}0 ($host0), 2, 3 in ${ns}1 ($host1): $(tr '\n' ';' <<<"$out")"
else
    bad "placement: exit $rc: $out"
fi

# A rank on host 1 killed: the launcher execs the rank (ip netns exec, env),
# so mpirun sees the signal, names the rank, stops the others at once.
# shellcheck disable=SC2016
job "rank killed" "$tmp/hosts4" 4 sh -c '[ "$IPCSIM_CORE" = 3 ] && kill -9 $$; exec sleep 30'
if [ $rc -eq 137 ] && grep -q '^mpirun: rank 3 (pid [0-9]*, launched on host '"$host1"') killed by signal 9' <<<"$out" &&
    grep -q "stopping the job's other 3 ranks" <<<"$out"; then
    ok "rank killed on host 1: exit 137: $(tr '\n' ';' <<<"$out")"
else
    bad "rank killed on host 1: exit $rc (want 137): $out"
fi

# ---- MPI across the hosts ---------------------------------------------------
# Only with a stream transport in mpi_lite: without one its ranks on the two
# "hosts" would meet in the /dev/shm the namespaces share, which real hosts
# do not (the byte counts below would catch it). The transport finds its
# peers with plat_core_addr.
# (nm's whole list first: grep -q would end the pipe early, and pipefail
# would count nm's SIGPIPE.)
undefined=$(nm -u "$build/lib/libmpi_lite.a")
if ! grep -qw plat_core_addr <<<"$undefined"; then
    echo "skip - MPI programs across the hosts: $build/lib/libmpi_lite.a has no stream transport (it never calls plat_core_addr)"
    echo "mpi net tests: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi
before=$(rx1)
job "ring" "$tmp/hosts4" 4 "$build/mpi-examples/ring" 100
got=$(($(rx1) - before))
if [ $rc -eq 0 ] && grep -q '^ring: ok$' <<<"$out" &&
    grep -qE '^ring: 4 ranks, 100 laps, token ([0-9]+) \(expected \1\)$' <<<"$out" &&
    [ $got -gt 0 ]; then
    ok "ring on 4 ranks, 2 per host ($got bytes into ${ns}1): $(tr '\n' ';' <<<"$out")"
else
    bad "ring: exit $rc, $got bytes into ${ns}1: $out"
fi

before=$(rx1)
job "pi" "$tmp/hosts4" 4 "$build/mpi-examples/pi" 1000000
got=$(($(rx1) - before))
err=$(sed -n 's/^pi is approximately [0-9.]*, error \(-\?[0-9.]*\)$/\1/p' <<<"$out")
if [ $rc -eq 0 ] && [ -n "$err" ] && awk -v e="$err" 'BEGIN { exit !(e < 1e-9 && e > -1e-9) }' &&
    [ $got -gt 0 ]; then
    ok "pi on 4 ranks, error $err ($got bytes into ${ns}1)"
else
    bad "pi: exit $rc, error '$err', $got bytes into ${ns}1: $out"
fi

# osu_latency: a row per size; 1000 timed round trips of 4 KiB alone bring
# 4 MB to host 1.
before=$(rx1)
job "osu_latency" "$tmp/hosts2" 2 "$build/osu/osu_latency" -m 0:4096 -i 1000 -x 10
got=$(($(rx1) - before))
rows=yes
for size in 0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096; do
    grep -qE "^$size +[0-9]+\.[0-9]+$" <<<"$out" || rows=no
done
if [ $rc -eq 0 ] && [ $rows = yes ] && [ $got -ge 4096000 ]; then
    ok "osu_latency, one rank per host ($got bytes into ${ns}1): $(grep -E '^(0|4096) ' <<<"$out" | tr '\n' ';')"
else
    bad "osu_latency: exit $rc, rows $rows, $got bytes into ${ns}1 (want >= 4096000): $out"
fi

# osu_bw: 10 timed windows of 64 x 64 KiB alone bring 42 MB to host 1.
before=$(rx1)
job "osu_bw" "$tmp/hosts2" 2 "$build/osu/osu_bw" -m 1:65536 -i 10 -x 2
got=$(($(rx1) - before))
rows=yes
for size in 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
    grep -qE "^$size +[0-9]+\.[0-9]+$" <<<"$out" || rows=no
done
if [ $rc -eq 0 ] && [ $rows = yes ] && [ $got -ge $((65536 * 64 * 10)) ]; then
    ok "osu_bw, one rank per host ($got bytes into ${ns}1): $(grep -E '^65536 ' <<<"$out")"
else
    bad "osu_bw: exit $rc, rows $rows, $got bytes into ${ns}1 (want >= $((65536 * 64 * 10))): $out"
fi

echo "mpi net tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
