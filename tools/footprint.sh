#!/usr/bin/env bash
# footprint.sh -- code and data bytes of mcapi_ref's layers (`make footprint`).
#
# Compiles every source of mcapi_ref/top, mcapi_ref/transport (with its
# transports' folders) and mcapi_ref/drivers with -Os (the Makefile's include paths and C standard)
# into a temporary directory, sums `size` per layer and prints them next to
# FUNCAPI's published figures (paper 000, REFERENCE.md: top layer 7 KB,
# transport 18 KB, HIBI PE DMA driver 1 KB, on Nios II). The backend that
# implements plat.h is not counted: it stands where FUNCAPI's HAL and the
# hardware are. Nor is the domain's shared region: plat_shared_map allocates
# it at run time, it is neither data nor bss.
# "text" is size's: code plus read-only data (the status names). Unwind
# tables are left out (-fno-asynchronous-unwind-tables): x86-64 emits them
# for every C function by default, about a quarter of the text here, and
# FUNCAPI's Nios II firmware had none.
# Env: CC (default gcc), CFLAGS_FOOTPRINT (default -Os -fno-asynchronous-unwind-tables).
set -euo pipefail
cd "$(dirname "$0")/.."

cc=${CC:-gcc}
flags=${CFLAGS_FOOTPRINT:--Os -fno-asynchronous-unwind-tables}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sizes_of FILE... -> "files text data+bss" of those sources
sizes_of() {
    local files=0 text=0 rest=0 src obj t d b
    for src in "$@"; do
        [ -e "$src" ] || continue
        obj="$tmp/$(echo "$src" | tr / -).o"
        # shellcheck disable=SC2086 # flags is a list of options
        "$cc" -std=c11 $flags -Iinclude -Imcapi_ref/include -Imcapi_ref/transport -c "$src" -o "$obj"
        read -r t d b < <(size "$obj" | awk 'NR == 2 { print $1, $2, $3 }')
        files=$((files + 1)) text=$((text + t)) rest=$((rest + d + b))
    done
    echo "$files $text $rest"
}

kib() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

row() { # name files text rest paper
    printf '%-10s %5s %10s %10s %10s   %s\n' "$1" "$2" "$3" "$4" "$(kib "$3")" "$5"
}

echo "mcapi_ref footprint: $cc $flags -std=c11 ($($cc -dumpmachine)); the plat.h backend excluded"
printf '%-10s %5s %10s %10s %10s   %s\n' layer files "text B" "data+bss B" text "FUNCAPI (Nios II, paper 000)"
# The transport layer holds two transports, each in its folder; what both
# use (mcapi_ref/transport/*.c, the function table's header) counts in each.
# FUNCAPI's transport is the DMA one.
shared=(mcapi_ref/transport/*.c)
dma=(mcapi_ref/transport/dma/*.c)
shm=(mcapi_ref/transport/shm/*.c)
read -r f1 t1 r1 < <(sizes_of mcapi_ref/top/*.c)
read -r f2 t2 r2 < <(sizes_of "${dma[@]}" "${shared[@]}")
read -r f3 t3 r3 < <(sizes_of "${shm[@]}" "${shared[@]}")
read -r f4 t4 r4 < <(sizes_of mcapi_ref/drivers/*.c)
read -r f5 t5 r5 < <(sizes_of mcapi_ref/drivers/rx.c)
row top "$f1" "$t1" "$r1" "7 KB (top layer: API, argument checks)"
row "tp dma" "$f2" "$t2" "$r2" "18 KB (transport layer; FUNCAPI's way)"
row "tp shm" "$f3" "$t3" "$r3" "- (our shared-memory transport)"
row "top+dma" $((f1 + f2)) $((t1 + t2)) $((r1 + r2)) "25 KB (FUNCAPI's code)"
row "dma drv" "$f5" "$t5" "$r5" "1 KB (HIBI PE DMA driver)"
row drivers "$f4" "$t4" "$r4" "(all drivers: DMA, shared memory, accelerators)"
read -r fa ta ra < <(sizes_of mcapi_ref/top/*.c "${shared[@]}" "${dma[@]}" "${shm[@]}" mcapi_ref/drivers/*.c)
row total "$fa" "$ta" "$ra" "26 KB (+ ~4 KB data buffers: ~30 KB in all)"
echo "(KB = 1024 bytes; x86-64 code is not Nios II code: compare orders of magnitude)"
