#!/usr/bin/env bash
# Runs the experiments of docs/reproduction.md's "Sim vs live" section
# simulated and live (ndncc experiment NAME --live --runs 1), stores their
# reports in docs/sim-vs-live/ with the machine's load while each ran, and
# regenerates docs/reproduction.md (scripts/reproduce.sh), whose section
# `ndncc reproduce` writes from those reports.
#
# The live runs are real time: about 25 minutes of it (every segment is
# RSA-signed before its run starts, 10,240 per 10 MiB object). Run it on
# a machine as quiet as you can get: a run starved of CPU shows it in its
# links' lateness, but its figures then measure the machine.
# Usage: scripts/sim-vs-live.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=docs/sim-vs-live
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/ndncc" ./cmd/ndncc
{
  echo "cpus: $(nproc); $(uname -sr); $(go version | cut -d' ' -f3)"
  echo "start: $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$tmp/machine.txt"
run() {
  local name=$1
  shift
  echo "$name: load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" >> "$tmp/machine.txt"
  "$tmp/ndncc" experiment "$name" --live --runs 1 --json "$@" > "$tmp/$name.json"
  echo "$name: done"
}
run seed000-linear
run seed000-dumbbell
run seed003-fixed
run seed002-marking
run seed004-multipath --variant bw-pcon
echo "end: $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$tmp/machine.txt"
mkdir -p "$dir"
cp "$tmp"/*.json "$tmp/machine.txt" "$dir/"
scripts/reproduce.sh
