#!/usr/bin/env bash
# many-consumers.sh: N consumers (default 10,000) of one 10 KB object on
# one node of paper 000's linear topology, run by `ndncc sim`: one PIT
# entry per segment holds N in-records at consumer1's forwarder. Prints the
# simulator's timing (events, events per wall second) and how many flows
# completed. Usage: scripts/many-consumers.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -pgo=cmd/ndncc/ndncc.pgo -o "$dir/ndncc" ./cmd/ndncc
{
	printf 'name = "many-consumers"\nduration = "300s"\n[topology]\nfile = "%s/examples/linear.conf"\n' "$PWD"
	printf '[[producer]]\nnode = "producer1"\nprefix = "/many/f0"\nfile-size = "10KB"\nsignature = "digest"\n'
	for ((i = 0; i < n; i++)); do
		printf '[[consumer]]\nid = "c%d"\nnode = "consumer1"\nprefix = "/many/f0"\npipeline = "aimd"\n' "$i"
	done
} >"$dir/many.toml"
"$dir/ndncc" sim "$dir/many.toml" --json >"$dir/out.json"
python3 - "$dir/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["timing"]
flows = d["flows"]
done = sum(1 for f in flows if f.get("complete"))
print(f"{len(flows)} consumers of one name: {t['events']} events in {t['wall_s']:.2f} s, "
      f"{t['events_per_s']} events/s; {done} of {len(flows)} complete")
PY
