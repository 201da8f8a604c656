#!/usr/bin/env bash
# footprint.sh -- code and data bytes of mcapi_ref's layers (`make footprint`).
#
# Compiles every source of mcapi_ref/top, mcapi_ref/transport and
# mcapi_ref/drivers with -Os (the Makefile's include paths and C standard)
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

# layer_sizes LAYER -> "files text data+bss" of mcapi_ref/LAYER/*.c
layer_sizes() {
    local layer=$1 files=0 text=0 rest=0 src obj t d b
    for src in mcapi_ref/"$layer"/*.c; do
        [ -e "$src" ] || continue
        obj="$tmp/$layer-$(basename "$src" .c).o"
        # shellcheck disable=SC2086 # flags is a list of options
        "$cc" -std=c11 $flags -Iinclude -Imcapi_ref/include -c "$src" -o "$obj"
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
tf=0 tt=0 tr=0
for layer in top transport drivers; do
    read -r f t r < <(layer_sizes "$layer")
    case $layer in
    top) paper="7 KB (top layer: API, argument checks)" ;;
    transport) paper="18 KB (transport layer)" ;;
    drivers) paper="1 KB (HIBI PE DMA driver)" ;;
    esac
    row "$layer" "$f" "$t" "$r" "$paper"
    tf=$((tf + f)) tt=$((tt + t)) tr=$((tr + r))
    if [ "$layer" = transport ]; then row "top+transp" "$tf" "$tt" "$tr" "25 KB (FUNCAPI's code)"; fi
done
row total "$tf" "$tt" "$tr" "26 KB (+ ~4 KB data buffers: ~30 KB in all)"
echo "(KB = 1024 bytes; x86-64 code is not Nios II code: compare orders of magnitude)"
