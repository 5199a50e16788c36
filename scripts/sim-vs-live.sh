#!/usr/bin/env bash
# Runs the experiments of docs/reproduction.md's "Sim vs live" section
# simulated and live (ndncc experiment NAME --live --runs 1), stores each
# report in docs/sim-vs-live/NAME.json with the machine's load while it ran
# (NAME.machine.txt), and regenerates docs/reproduction.md
# (scripts/reproduce.sh), whose section `ndncc reproduce` writes from them.
#
# The live runs are real time: each takes its simulated time plus the
# signing of its object (every segment is RSA-signed before its run
# starts, 10,240 per 10 MiB object); docs/reproduction.md lists the
# catalog experiments the emulator cannot run (TCP flows, underlays).
# Run it on a machine as quiet as you can get: a run starved of CPU shows
# it in its links' lateness, but its figures then measure the machine.
# Usage: scripts/sim-vs-live.sh [--no-reproduce] [NAME...]
#   (default: every catalog experiment the emulator can run; --no-reproduce
#   stores the runs without regenerating docs/reproduction.md, so that
#   several invocations in a row are not slowed by the catalog's simulation)
set -euo pipefail
reproduce=1
if [ "${1:-}" = --no-reproduce ]; then
  reproduce=0
  shift
fi
cd "$(dirname "$0")/.."
dir=docs/sim-vs-live
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/ndncc" ./cmd/ndncc
mkdir -p "$dir"
load() { cut -d' ' -f1-3 /proc/loadavg; }
run() {
  local name=$1
  shift
  local start
  start="$(date -u +%Y-%m-%dT%H:%MZ), load average $(load)"
  "$tmp/ndncc" experiment "$name" --live --runs 1 --json "$@" > "$tmp/$name.json"
  {
    echo "cpus: $(nproc); $(uname -sr); $(go version | cut -d' ' -f3); ndncc $(git rev-parse --short HEAD)"
    echo "start: $start"
    echo "end:   $(date -u +%Y-%m-%dT%H:%MZ), load average $(load)"
  } > "$tmp/$name.machine.txt"
  mv "$tmp/$name.json" "$tmp/$name.machine.txt" "$dir/"
  echo "$name: done"
}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(seed000-linear seed000-dumbbell seed003-fixed seed002-marking seed004-multipath
  seed004-caching seed004-wireless seed003-aimd seed000-linear-marks seed001-vegas pipelines)
# Not seed004-icp: before its run starts, its five producers would each
# presign a 4 GiB object (about 21 million RSA signatures in all, and 20 GiB
# of payload to hold signed); docs/reproduction.md lists it with that reason.
for name in "${names[@]}"; do
  case $name in
  seed004-multipath) run "$name" --variant bw-pcon ;;
  # seed001-vegas's 17 variants fetch 100 MB each: 24 minutes of transfers
  # (their simulated times) plus, per variant, one to three minutes of
  # signing (97,657 RSA-signed 1024-byte segments) on a 2-core machine, and
  # Vegas ran 4.5x slower live than simulated (docs/reproduction.md). The
  # stored run has Vegas (alpha 10, beta 20) and AIMD at the 50 ms RTT;
  # `ndncc experiment seed001-vegas --live --runs 1` runs them all.
  seed001-vegas)
    run "$name" --variant vegas-a10-b20-rtt50ms --variant aimd-rtt50ms
    ;;
  *) run "$name" ;;
  esac
done
[ $reproduce = 0 ] || scripts/reproduce.sh
