#!/usr/bin/env bash
# Runs docs/sharding.md's Slurm job array on a real Slurm cluster and checks
# that the merged shards are exactly the unsharded run.
#
# It installs Debian's Slurm (slurm-wlm, with MUNGE) if it is missing,
# starts a single-node cluster on this machine (munged, slurmctld and slurmd
# in a temporary directory, on their own ports and MUNGE socket), submits
# the job script of docs/sharding.md's "Slurm job array" section exactly as
# written (taken from the document itself), waits for the array, runs the
# document's merge command, runs the same experiment unsharded, and
# compares the two report.json files (everything but timing) and the two
# printed tables. It ends with "merged shards identical to the unsharded
# run", or fails. It stops the daemons it started, by PID, and removes its
# directory (KEEP=1 keeps it).
#
# Needs root (the daemons and apt-get) and Go. Usage: scripts/slurm-shards.sh
# It takes some 10-20 minutes on a 2-core machine (1,360 runs of 100 MB), too
# long for CI: docs/slurm-run.txt is the output of a real run.
# Environment: SLURM_PORT (default 16817; slurmd uses the next port),
# KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
start=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*"; }

if [ "$(id -u)" -ne 0 ]; then
	echo "slurm-shards.sh: run as root (it installs Slurm and starts its daemons)" >&2
	exit 2
fi

# --- 1. Slurm and MUNGE from Debian -------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v jq >/dev/null; then
	say "installing slurm-wlm, munge and jq (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq slurm-wlm munge jq >/dev/null
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

# --- 2. a single-node cluster in a temporary directory ------------------
work=$(mktemp -d /tmp/ndncc-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
	local rc=$?
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill "${pids[i]}" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
	done
	if [ "$rc" -ne 0 ]; then
		for log in "$work"/*.log; do
			[ -f "$log" ] && { echo "--- $log (last lines)"; tail -n 20 "$log"; }
		done
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $work"
	else
		rm -rf "$work"
	fi
	exit "$rc"
}
trap cleanup EXIT

port=${SLURM_PORT:-16817}
host=$(hostname -s)
mkdir -p "$work/munge" "$work/ctld" "$work/spool" "$work/bin" "$work/run"
key=/etc/munge/munge.key
if [ ! -s "$key" ]; then
	key=$work/munge/munge.key
	dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
	chmod 400 "$key"
fi
munged --force --socket="$work/munge/munge.sock" --key-file="$key" \
	--pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
	--foreground >>"$work/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.sock" ] || { echo "munged did not start"; exit 1; }

node=$(slurmd -C | head -1) # NodeName=... CPUs=... RealMemory=... as slurmd sees this machine
cat >"$work/slurm.conf" <<EOF
ClusterName=ndncc
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ndncc Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
	state=$(sinfo -h -o %T 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.5
done
[ "$state" = idle ] || { echo "the node did not come up (state: ${state:-none})"; exit 1; }
say "cluster up: $(sinfo -h -o '%N, %c CPUs, partition %P, %T')"

# --- 3. docs/sharding.md's job array, exactly as written ------------------
# The job script is the sh block of the "## Slurm job array" section; the
# merge command is the one the section gives after it.
section=$(awk '/^## Slurm job array/{on=1; next} /^## /{on=0} on' docs/sharding.md)
awk '/^```sh$/{on=1; next} /^```$/{on=0} on' <<<"$section" >"$work/job.sh"
merge=$(grep -o 'When the array has finished: `[^`]*`' <<<"$section" | sed 's/.*`\(.*\)`/\1/' || true)
[ -s "$work/job.sh" ] && [ -n "$merge" ] || { echo "docs/sharding.md: no job script or merge command"; exit 1; }
echo "job script (docs/sharding.md):"
sed 's/^/    /' "$work/job.sh"
echo "merge command: $merge"

say "building ndncc"
go build -pgo=cmd/ndncc/ndncc.pgo -o "$work/bin/ndncc" ./cmd/ndncc
export PATH=$work/bin:$PATH
mkdir -p "$work/jobs"
cd "$work/jobs"
say "sbatch --wait job.sh"
sbatch --wait --output="$work/jobs/slurm-%A_%a.out" "$work/job.sh" | sed 's/^/    /'
say "array done: $(ls -d results/shard-* | wc -l) shards"
for f in slurm-*_*.out; do echo "    $f: $(tail -n 1 "$f")"; done
say "$merge"
bash -c "$merge" >merged.txt
say "merged: $(jq '[.variants[].flows[]] | length' results/all/report.json) flow rows"

# --- 4. the same experiment unsharded, and the comparison -----------------
# The job script's ndncc command without --shard, --out to results/unsharded.
cmdline=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$work/job.sh" | grep '^ *ndncc ' |
	sed -e 's/--shard [^ ]*//' -e 's/--out [^ ]*//' -e 's/  */ /g')
cmdline="$cmdline --out results/unsharded"
say "unsharded: $cmdline"
bash -c "$cmdline" >unsharded.txt
say "unsharded done"

notiming='walk(if type == "object" then del(.timing) else . end)'
if ! cmp -s <(jq -S "$notiming" results/all/report.json) <(jq -S "$notiming" results/unsharded/report.json); then
	diff <(jq -S "$notiming" results/all/report.json) <(jq -S "$notiming" results/unsharded/report.json) | head -40
	echo "merged shards differ from the unsharded run (report.json)"
	exit 1
fi
if ! cmp -s merged.txt unsharded.txt; then
	diff merged.txt unsharded.txt | head -40
	echo "merged shards differ from the unsharded run (printed table)"
	exit 1
fi
head -n 3 merged.txt | sed 's/^/    /'
say "report.json (all but timing) and the printed table compared"
echo "merged shards identical to the unsharded run"
