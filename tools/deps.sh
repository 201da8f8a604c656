#!/usr/bin/env bash
# deps.sh list|check|install -- the Debian 12 packages ipcsim needs.
#   list     print them, one per line
#   check    exit 0 if all are installed, else list the missing ones, exit 1
#   install  apt-get install the missing ones (as root, or through sudo)
set -euo pipefail

pkgs=(
    make g++ gcc pkg-config      # build
    libsystemc-dev               # SystemC 2.3 + TLM-2.0: the sim backend
    libyaml-dev                  # platform and scenario files
    nettle-dev                   # SHA-256 of the files a run read (its .meta.yaml)
    check                        # unit and conformance tests
    gnuplot-nox                  # plots in results/
    clang-format cppcheck        # lint (part of make test)
    clang libclang-rt-dev        # libFuzzer: make fuzz (part of make test)
    shellcheck
    iproute2 nftables            # tests/net: network namespaces, veth, tc; packet loss
    gcc-aarch64-linux-gnu qemu-user   # make test-ports: coro's aarch64 switch under emulation
    libc6-dev-arm64-cross        # and its C library headers (only Recommended by the cross gcc:
                                 # --no-install-recommends in .ci/run leaves them out)
    mpich libmpich-dev           # make osu-ref: mpi_lite/osu/ with Debian's MPICH (mpi.h is
                                 # only Recommended by mpich)
    libopenmpi-dev openmpi-bin   # and with Open MPI (mpicc.openmpi, mpirun.openmpi)
    libsimgrid-dev               # bench/smpi: SimGrid SMPI's smpicc and smpirun
    slurm-wlm munge              # make test-slurm: ipcsim sweep --slurm on a single-node Slurm
)

missing() {
    local p
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
    done
}

case "${1:-}" in
list)
    printf '%s\n' "${pkgs[@]}"
    ;;
check)
    mapfile -t m < <(missing)
    [ ${#m[@]} = 0 ] && exit 0
    echo "missing Debian packages: ${m[*]}"
    exit 1
    ;;
install)
    mapfile -t m < <(missing)
    if [ ${#m[@]} = 0 ]; then
        echo "deps: all Debian packages present"
        exit 0
    fi
    echo "deps: installing ${m[*]}"
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${m[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${m[@]}"
    ;;
*)
    echo "usage: $0 list|check|install" >&2
    exit 2
    ;;
esac
