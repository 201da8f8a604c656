#!/usr/bin/env bash
# tests/net/xmcapi.sh -- xmcapi-echo and xmcapi-ping as separate processes:
# on loopback, then as two hosts in network namespaces joined by a veth
# pair shaped to Gigabit Ethernet (tbf), with packet loss (nftables) and,
# where the kernel has it, delay (tc netem).
#
# Usage: tests/net/xmcapi.sh [BUILD]   (default build; needs BUILD/bin/xmcapi-*)
# The namespace part needs root, ip and nft; without them it is skipped
# with a message (the loopback part still runs). Exit 0 only if every
# check passed.
set -uo pipefail

build=${1:-build}
bin=$build/bin
# A TSan build sleeps a second at exit by default (atexit_sleep_ms), which
# the timed checks below (a peer's loss reported within 1 s) would count.
export TSAN_OPTIONS="atexit_sleep_ms=0 ${TSAN_OPTIONS:-}"
tmp=$(mktemp -d)
base=$((20000 + ($$ % 600) * 20)) # below the ephemeral ports (32768 on)
ns_a=xmt-a-$$
ns_b=xmt-b-$$
pids=()

cleanup() {
    local p
    for p in "${pids[@]}"; do
        kill -9 "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    ip netns del "$ns_a" 2>/dev/null
    ip netns del "$ns_b" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck source=tests/net/tap.sh
. "$(dirname "$0")/tap.sh"

topo() { # file host_a port_a host_b port_b
    printf 'nodes:\n  - {domain: 1, node: 0, host: %s, port: %s}\n  - {domain: 1, node: 1, host: %s, port: %s}\n' \
        "$2" "$3" "$4" "$5" >"$1"
}

# start_echo LOG [netns]: echo node 1 in the background, wait until it serves.
start_echo() {
    local log=$1
    if [ -n "${2:-}" ]; then
        ip netns exec "$2" "$bin/xmcapi-echo" -t "$topo" 1 >"$log" 2>&1 &
    else
        "$bin/xmcapi-echo" -t "$topo" 1 >"$log" 2>&1 &
    fi
    echo_pid=$!
    pids+=("$echo_pid")
    for _ in $(seq 50); do
        grep -q serving "$log" && return 0
        sleep 0.1
    done
    bad "xmcapi-echo did not start: $(cat "$log")"
    return 1
}

# ping NAME [netns] -- COUNT BYTES: expect exit 0 and no mismatch.
ping_ok() {
    local name=$1 ns=$2 out
    shift 2
    if [ -n "$ns" ]; then
        out=$(ip netns exec "$ns" "$bin/xmcapi-ping" -t "$topo" 0 1 "$@" 2>&1)
    else
        out=$("$bin/xmcapi-ping" -t "$topo" 0 1 "$@" 2>&1)
    fi
    local rc=$?
    if [ $rc -eq 0 ] && grep -q 'mismatched=0' <<<"$out"; then
        ok "$name: $out"
    else
        bad "$name: exit $rc: $out"
    fi
}

# The echo node is killed in the middle of a long run: the ping must fail
# cleanly (exit 2, a message naming the peer) without waiting for its
# timeout (-w 3000): the peer's connection closed, which needs no waiting
# for. The bound is the timeout, not a speed: a loaded CI host took 1.4 s
# to start a process that fails at once.
kill_midway() {
    local name=$1 ns=$2 t0 rc out
    local -a run=("$bin/xmcapi-ping" -t "$topo" -w 3000 0 1 100000000 64)
    [ -n "$ns" ] && run=(ip netns exec "$ns" "${run[@]}")
    # The samples of a long COUNT are not reserved up front (800 MB here;
    # LeakSanitizer's exit scan of them alone took 2.1-2.8 s): 256 MB of
    # address space is enough, but for a sanitizer's shadow.
    ldd "$bin/xmcapi-ping" | grep -q 'lib[at]san' ||
        run=(bash -c 'ulimit -v 262144 && exec "$@"' limit "${run[@]}")
    "${run[@]}" >"$tmp/mid.out" 2>&1 &
    local ping_pid=$!
    sleep 1
    kill -9 "$echo_pid"
    wait "$echo_pid" 2>/dev/null
    t0=$(date +%s%N)
    wait "$ping_pid"
    rc=$?
    local ms=$((($(date +%s%N) - t0) / 1000000))
    out=$(cat "$tmp/mid.out")
    if [ $rc -eq 2 ] && [ $ms -lt 2500 ] && grep -q 'peer <1,1>' <<<"$out" &&
        grep -q 'connection closed' <<<"$out"; then
        ok "$name: ping failed cleanly ${ms} ms after the echo node was killed: $out"
    else
        bad "$name: exit $rc after ${ms} ms: $out"
    fi
    local -a again=("$bin/xmcapi-ping" -t "$topo" 0 1 1 4)
    [ -n "$ns" ] && again=(ip netns exec "$ns" "${again[@]}")
    t0=$(date +%s%N)
    out=$("${again[@]}" 2>&1)
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ $rc -eq 2 ] && [ $ms -lt 10000 ]; then
        ok "$name: a new ping to the dead node exits 2 in ${ms} ms: $out"
    else
        bad "$name: new ping to the dead node: exit $rc after ${ms} ms: $out"
    fi
}

# usage_err NAME WANT -- ARGS...: the command exits 2 with WANT in its
# message without waiting for a peer (the default wait is 5 s; 4 s leaves
# room for a loaded host, where 1.4-1.7 s was seen).
usage_err() {
    local name=$1 want=$2 t0 rc out ms
    shift 3
    t0=$(date +%s%N)
    out=$("$@" 2>&1)
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ $rc -eq 2 ] && [ $ms -lt 4000 ] && grep -qF -- "$want" <<<"$out" &&
        ! grep -q 'invalid option' <<<"$out"; then
        ok "$name: exit 2 in ${ms} ms: $out"
    else
        bad "$name: exit $rc after ${ms} ms (wanted 2, '$want', under 4 s): $out"
    fi
}

for p in xmcapi-echo xmcapi-ping; do
    [ -x "$bin/$p" ] || {
        echo "FAIL - $bin/$p is missing (make $bin/$p)"
        exit 1
    }
done

# ---- mistakes on the command line: no echo needed ------------------------
topo=$tmp/usage.yaml
topo "$topo" 127.0.0.1 $base no.such.host.invalid $((base + 1))
usage_err "unresolvable peer host" "cannot resolve no.such.host.invalid" -- \
    "$bin/xmcapi-ping" -t "$topo" 0 1 10 4
usage_err "ping itself" "a node cannot ping itself" -- "$bin/xmcapi-ping" -t "$topo" 0 0 10 4
usage_err "negative COUNT" "COUNT '-1' must be a whole number from 1 to" -- \
    "$bin/xmcapi-ping" -t "$topo" 0 1 -1 4
usage_err "negative BYTES" "BYTES '-4' must be a whole number from 0 to" -- \
    "$bin/xmcapi-ping" -t "$topo" -w 100 0 1 10 -4
usage_err "negative NODE of the echo" "NODE '-1' is not a node" -- \
    "$bin/xmcapi-echo" -t "$topo" -1
if "$bin/xmcapi-ping" --help | grep -q 'mismatched='; then
    ok "xmcapi-ping --help shows the mismatched= field it prints"
else
    bad "xmcapi-ping --help does not show mismatched="
fi

# ---- loopback ------------------------------------------------------------
topo=$tmp/lo.yaml
topo "$topo" 127.0.0.1 $base 127.0.0.1 $((base + 1))
if start_echo "$tmp/echo-lo.log"; then
    ping_ok "loopback 10000 x 4 B" "" 10000 4
    ping_ok "loopback 10000 x 64 KiB" "" 10000 65536
    # Garbage, a header cut short and a frame from a node not in the file.
    printf 'GET / HTTP/1.0\r\n\r\n' >/dev/tcp/127.0.0.1/$((base + 1))
    printf 'XM\001\010\000' >/dev/tcp/127.0.0.1/$((base + 1))
    printf 'XM\001\010\000\000\000\000\000\001\000\050\000\001\000\001\000\000\000\000\000\000\000\000' \
        >/dev/tcp/127.0.0.1/$((base + 1))
    sleep 0.2
    ping_ok "loopback: still serving after garbage and truncated frames" "" 1000 4
    kill_midway "loopback" ""
fi

# ---- two hosts in network namespaces -------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! command -v nft >/dev/null ||
    ! ip netns add "$ns_a" 2>/dev/null; then
    echo "skip - network namespaces: need root, ip (iproute2) and nft (nftables)"
else
    ip netns add "$ns_b"
    ip link add "va$$" type veth peer name "vb$$"
    ip link set "va$$" netns "$ns_a"
    ip link set "vb$$" netns "$ns_b"
    ip -n "$ns_a" addr add 10.213.0.1/24 dev "va$$"
    ip -n "$ns_b" addr add 10.213.0.2/24 dev "vb$$"
    for n in a b; do
        ns=ns_$n
        ip -n "${!ns}" link set lo up
        ip -n "${!ns}" link set "v$n$$" up
        # Gigabit Ethernet's rate on the wire (the paper's link).
        tc -n "${!ns}" qdisc add dev "v$n$$" root handle 1: tbf rate 1gbit burst 256kb latency 20ms
    done
    netem=no
    if tc -n "$ns_a" qdisc add dev "va$$" parent 1:1 handle 10: netem delay 100us 2>/dev/null &&
        tc -n "$ns_b" qdisc add dev "vb$$" parent 1:1 handle 10: netem delay 100us 2>/dev/null; then
        netem=yes
    fi
    topo=$tmp/ns.yaml
    topo "$topo" 10.213.0.1 7100 10.213.0.2 7101
    if start_echo "$tmp/echo-ns.log" "$ns_b"; then
        echo "# namespaces $ns_a (node 0, 10.213.0.1) and $ns_b (node 1, 10.213.0.2), veth at 1 Gb/s (tbf), netem delay: $netem"
        [ $netem = no ] && echo "# tc netem is not in this kernel ($(uname -r)): no added delay"
        ping_ok "netns 10000 x 4 B" "$ns_a" 10000 4
        ping_ok "netns 10000 x 64 KiB" "$ns_a" 10000 65536
        # 1 % of TCP segments dropped both ways: TCP retransmits, nothing is lost or doubled.
        for n in a b; do
            ns=ns_$n
            ip netns exec "${!ns}" nft add table inet xmt
            ip netns exec "${!ns}" nft 'add chain inet xmt out { type filter hook output priority 0; }'
            ip netns exec "${!ns}" nft 'add rule inet xmt out meta l4proto tcp numgen random mod 100 < 1 drop'
        done
        ping_ok "netns, 1 % loss: 2000 x 4 B" "$ns_a" 2000 4
        ping_ok "netns, 1 % loss: 300 x 64 KiB" "$ns_a" 300 65536
        for n in a b; do
            ns=ns_$n
            ip netns exec "${!ns}" nft delete table inet xmt
        done
        kill_midway "netns" "$ns_a"
        # A host that does not answer at all (its link is down): connect times out.
        start_echo "$tmp/echo-ns2.log" "$ns_b" && {
            ip -n "$ns_b" link set "vb$$" down
            t0=$(date +%s%N)
            out=$(ip netns exec "$ns_a" "$bin/xmcapi-ping" -t "$topo" 0 1 1 4 2>&1)
            rc=$?
            ms=$((($(date +%s%N) - t0) / 1000000))
            if [ $rc -eq 2 ] && [ $ms -lt 10000 ]; then
                ok "netns: peer host unreachable: exit 2 in ${ms} ms: $out"
            else
                bad "netns: peer host unreachable: exit $rc after ${ms} ms: $out"
            fi
        }
    fi
fi

echo "xmcapi net tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
