# bench-lib.sh: what the benchmark scripts share. Source it after setting
# `set -euo pipefail`; it defines:
#   repo, work          the repository and a temporary work directory
#   pids                processes to stop at exit (append with pids+=(PID))
#   build_tools         builds ndncc into $work and sets ndnd (NDND_BIN or built)
#   ndnd_config F S P   writes ndnd fw's configuration to F: Unix socket S,
#                       UDP port P, congestion marking on, TCP off
#   median, ratio       statistics of the printed figures
# At exit the processes in pids are stopped and $work removed (KEEP=1
# keeps it).

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d /tmp/ndncc-bench.XXXXXX)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

build_tools() {
	echo "== building ndncc"
	(cd "$repo" && go build -o "$work/ndncc" ./cmd/ndncc)
	ndnd=${NDND_BIN:-}
	if [ -z "$ndnd" ]; then
		echo "== building ndnd (set NDND_BIN to skip)"
		local moddir
		moddir=$(cd "$repo" && go list -m -f '{{.Dir}}' github.com/named-data/ndnd)
		(cd "$moddir" && go build -o "$work/ndnd" ./cmd/ndnd)
		ndnd=$work/ndnd
	fi
}

ndnd_config() {
	cat >"$1" <<EOF
core:
  log_level: WARN
faces:
  congestion_marking: true
  udp:
    enabled_unicast: true
    enabled_multicast: false
    port_unicast: $3
  tcp:
    enabled: false
  unix:
    enabled: true
    socket_path: $2
  websocket:
    enabled: false
EOF
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
