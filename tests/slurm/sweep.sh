#!/usr/bin/env bash
# tests/slurm/sweep.sh [BUILD] -- ipcsim sweep --slurm on a real single-node
# Slurm (make test-slurm; not part of make test: it needs root and Debian's
# slurm-wlm and munge, which tools/deps.sh does not install).
#
# Starts munged, slurmctld and slurmd on this host with a scratch
# configuration, submits the job array of scenarios/funbase/hibi_width_sweep.yaml
# and a merge that depends on it, and checks that the merged CSV is the
# committed results/funbase/hibi_width_sweep.csv byte for byte. Stops the
# daemons it started (by their pid files) and removes its scratch directory.
set -u
build=$(realpath "${1:-build}")
ipcsim=$build/ipcsim
[ -x "$ipcsim" ] || { echo "slurm: $ipcsim: not built (run make)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "slurm: needs root (slurmd, munged)" >&2; exit 2; }
for p in munged slurmctld slurmd sbatch sinfo; do
    command -v $p > /dev/null ||
        { echo "slurm: $p missing (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
chmod 755 "$tmp"
stop() {
    for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munged.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null
    done
    sleep 1
    rm -rf "$tmp"
}
trap stop EXIT

# munge: its own key, socket and files, owned by the munge user.
mkdir -p "$tmp"/munge "$tmp"/msock "$tmp"/state "$tmp"/spool "$tmp"/out
dd if=/dev/urandom of="$tmp"/munge/key bs=1024 count=1 status=none
chown -R munge: "$tmp"/munge "$tmp"/msock
chmod 700 "$tmp"/munge
chmod 755 "$tmp"/msock # the socket's directory: open to every user
chmod 400 "$tmp"/munge/key
sock=$tmp/msock/socket
su -s /bin/sh munge -c "munged --key-file=$tmp/munge/key --socket=$sock \
    --pid-file=$tmp/munge/pid --log-file=$tmp/munge/log --seed-file=$tmp/munge/seed" ||
    { echo "slurm: munged did not start" >&2; exit 1; }
cp "$tmp"/munge/pid "$tmp"/munged.pid

host=$(hostname -s)
export SLURM_CONF=$tmp/slurm.conf
cat > "$SLURM_CONF" << EOF
ClusterName=ipcsim
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
EOF
t0=$(date +%s)
if ! slurmctld || ! slurmd; then
    echo "slurm: the daemons did not start" >&2
    exit 1
fi
until sinfo -h -o %t 2> /dev/null | grep -q idle; do
    if [ $(($(date +%s) - t0)) -gt 60 ]; then
        echo "slurm: no idle node after 60 s:" >&2
        tail -n 5 "$tmp"/slurmctld.log "$tmp"/slurmd.log >&2
        exit 1
    fi
    sleep 1
done
echo "slurm: single-node Slurm up in $(($(date +%s) - t0)) s"

s=scenarios/funbase/hibi_width_sweep.yaml
"$ipcsim" sweep $s --slurm --out "$tmp"/out || exit 1
job=$(sbatch --parsable "$tmp"/out/hibi_width_sweep.slurm) || exit 1
sbatch --parsable --dependency=afterok:"$job" --output="$tmp"/out/merge.log \
    --wrap "$ipcsim merge $tmp/out/hibi_width_sweep.sweep" > /dev/null || exit 1
t0=$(date +%s)
while squeue -h | grep -q .; do
    [ $(($(date +%s) - t0)) -gt 120 ] && { echo "slurm: jobs still queued after 120 s" >&2; exit 1; }
    sleep 1
done
if cmp -s "$tmp"/out/hibi_width_sweep.csv results/funbase/hibi_width_sweep.csv; then
    echo "slurm: the array of 5 points and its merge give results/funbase/hibi_width_sweep.csv byte for byte"
else
    echo "slurm: FAILED: the merged CSV differs from results/funbase/hibi_width_sweep.csv" >&2
    cat "$tmp"/out/merge.log "$tmp"/out/*.slurm-*.log >&2
    exit 1
fi
