#!/usr/bin/env bash
# A private single-node Slurm cluster from Debian's slurm-wlm and munge packages, for the ctest
# that submits docs/ci.md's job array (suites/tests/cli/slurm_test.cc). Everything lives in DIR:
# its own munge key and socket, slurm.conf on free ports, state, spool, logs and pid files, so it
# touches no system-wide Slurm or munge and several can run at once.
#   slurm_cluster.sh start DIR   # exit 0 once the node is idle; prints SLURM_CONF=DIR/slurm.conf
#   slurm_cluster.sh stop DIR    # stops the daemons it started
# Exit 3: the packages are missing (the test skips); 2: the cluster did not come up (DIR's logs).
set -uo pipefail
what=${1:-} dir=${2:-}
[ -n "$what" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
conf=$dir/slurm.conf

stop() {
  if [ -f "$conf" ]; then SLURM_CONF=$conf timeout 10 scontrol shutdown >/dev/null 2>&1; fi
  for pid_file in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null
  done
  return 0
}
if [ "$what" = stop ]; then stop; exit 0; fi
[ "$what" = start ] || { echo "$0: want start or stop, not '$what'" >&2; exit 2; }

for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin command -v "$tool" >/dev/null ||
    { echo "$0: no $tool (scripts/setup.sh installs slurm-wlm and munge)" >&2; exit 3; }
done
export PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" || exit 2
# Two free TCP ports, asked of the kernel.
read -r ctld_port slurmd_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
head -c 1024 /dev/urandom >"$dir/munge.key" && chmod 600 "$dir/munge.key" || exit 2
munged --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" || { echo "$0: munged failed" >&2; exit 2; }
host=$(hostname -s)
cat >"$conf" <<EOF
ClusterName=tcfuzz
SlurmctldHost=$host
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=tcfuzz Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
slurmctld -f "$conf" && slurmd -f "$conf" || { stop; echo "$0: a Slurm daemon failed (logs in $dir)" >&2; exit 2; }
for _ in $(seq 60); do
  if [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; then echo "SLURM_CONF=$conf"; exit 0; fi
  sleep 0.5
done
stop
echo "$0: the node did not come up in 30 s (logs in $dir)" >&2
exit 2
