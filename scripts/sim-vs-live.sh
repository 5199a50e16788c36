#!/usr/bin/env bash
# Runs the experiments of docs/reproduction.md's "Sim vs live" section
# simulated and live (ndncc experiment NAME --live), stores each report in
# docs/sim-vs-live/NAME.json with the machine's load while it ran
# (NAME.machine.txt), and regenerates docs/reproduction.md
# (scripts/reproduce.sh), whose section `ndncc reproduce` writes from them.
#
# The live runs are real time: each takes its simulated time plus the
# signing of its object (segments are RSA-signed before the run starts,
# 10,240 per 10 MiB object, within --presign-budget); docs/reproduction.md
# lists the catalog experiments the emulator cannot run (TCP flows,
# underlays). Run it on a machine as quiet as you can get: a run starved
# of CPU shows it in its links' lateness, but its figures then measure the
# machine.
# Usage: scripts/sim-vs-live.sh [--no-reproduce] [--more] [NAME...]
#   (default: every catalog experiment the emulator can run)
#   --no-reproduce  store the runs without regenerating docs/reproduction.md,
#                   so that several invocations in a row are not slowed by
#                   the catalog's simulation
#   --more          run the experiment once more (the seed after the stored
#                   report's runs) and merge the run into the stored report
#                   (ndncc experiment merge), its machine lines appended:
#                   runs too long for one sitting add up over several
set -euo pipefail
reproduce=1
more=0
usage="usage: scripts/sim-vs-live.sh [--no-reproduce] [--more] [NAME...]"
for a in "$@"; do
  case $a in
  -h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --no-reproduce) reproduce=0 ;;
  --more) more=1 ;;
  -*) echo "sim-vs-live.sh: unknown option $a ($usage)" >&2; exit 2 ;;
  esac
done
names=()
for a in "$@"; do
  case $a in -*) ;; *) names+=("$a") ;; esac
done
cd "$(dirname "$0")/.."
dir=docs/sim-vs-live
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=cmd/ndncc/ndncc.pgo -o "$tmp/ndncc" ./cmd/ndncc
mkdir -p "$dir"
load() { cut -d' ' -f1-3 /proc/loadavg; }
# top FIELD FILE prints a number field of a stored report's top level.
top() { sed -n "s/^  \"$1\": \([0-9]*\),\$/\1/p" "$2"; }
machine() {
  echo "cpus: $(nproc); $(uname -sr); $(go version | cut -d' ' -f3); ndncc $(git rev-parse --short HEAD)"
  echo "start: $1"
  echo "end:   $(date -u +%Y-%m-%dT%H:%MZ), load average $(load)"
}
# run NAME RUNS [FLAG...] runs NAME live with RUNS runs and stores it, or
# with --more adds one run of the next seed to the stored report.
run() {
  local name=$1 runs=$2
  shift 2
  local start
  start="$(date -u +%Y-%m-%dT%H:%MZ), load average $(load)"
  if [ $more = 0 ]; then
    "$tmp/ndncc" experiment "$name" --live --runs "$runs" --json "$@" > "$tmp/$name.json"
    machine "$start" > "$tmp/$name.machine.txt"
    mv "$tmp/$name.json" "$tmp/$name.machine.txt" "$dir/"
    echo "$name: done"
    return
  fi
  local stored=$dir/$name.json seed
  if [ ! -f "$stored" ]; then
    echo "sim-vs-live.sh: --more: no stored $stored to add a run to" >&2
    exit 2
  fi
  seed=$(($(top base_seed "$stored") + $(top runs "$stored")))
  "$tmp/ndncc" experiment "$name" --live --runs 1 --seed "$seed" --json "$@" > "$tmp/$name.part.json"
  "$tmp/ndncc" experiment merge "$stored" "$tmp/$name.part.json" --json > "$tmp/$name.json"
  { cat "$dir/$name.machine.txt"; echo "the run with seed $seed:"; machine "$start"; } > "$tmp/$name.machine.txt"
  mv "$tmp/$name.json" "$tmp/$name.machine.txt" "$dir/"
  echo "$name: seed $seed added"
}
[ ${#names[@]} -gt 0 ] || names=(seed000-linear seed000-dumbbell seed003-fixed seed002-marking seed004-multipath
  seed004-caching seed004-wireless seed003-aimd seed000-linear-marks seed001-vegas seed004-icp pipelines)
for name in "${names[@]}"; do
  case $name in
  # Paper 003 ran each case 5 times.
  seed003-fixed | seed003-aimd) run "$name" 5 ;;
  # Paper 001 ran each case 5 times. Its 17 variants fetch 100 MB each:
  # about 95 minutes a run live, where Vegas runs several times slower
  # than simulated (docs/reproduction.md), so about 8 hours for the five;
  # --more adds one run at a time instead, and ndncc experiment merge
  # combines runs made apart (docs/sharding.md).
  seed001-vegas) run "$name" 5 ;;
  *) run "$name" 1 ;;
  esac
done
[ $reproduce = 0 ] || scripts/reproduce.sh
