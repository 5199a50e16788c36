# bench-lib.sh: what the benchmark scripts share. Source it after setting
# `set -euo pipefail`; it defines:
#   repo, work          the repository and a temporary work directory
#   pids                processes to stop at exit (append with pids+=(PID))
#   build_tools         builds ndncc into $work and sets ndnd (NDND_BIN or built)
#   ndnd_config F S P   writes ndnd fw's configuration to F: Unix socket S,
#                       UDP port P, congestion marking on, TCP off
#   serve_object MB     starts `ndnd fw` (Unix socket, marking on) and
#                       `ndncc serve /bench/object` of MB megabytes of random
#                       bytes ($work/object.bin, $bytes long); exports
#                       NDN_CLIENT_TRANSPORT
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
	(cd "$repo" && go build -pgo=cmd/ndncc/ndncc.pgo -o "$work/ndncc" ./cmd/ndncc)
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

serve_object() {
	# A free UDP port for the forwarder (it always opens a UDP listener).
	ndnd_config "$work/fw.yml" "$work/nfd.sock" $((20000 + RANDOM % 30000))
	"$ndnd" fw run "$work/fw.yml" >"$work/fw.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do [ -S "$work/nfd.sock" ] && break; sleep 0.05; done
	[ -S "$work/nfd.sock" ] || { echo "ndnd fw did not start:"; cat "$work/fw.log"; exit 1; }
	export NDN_CLIENT_TRANSPORT="unix://$work/nfd.sock"

	echo "== serving $1 MB"
	head -c "$(($1 * 1000 * 1000))" /dev/urandom >"$work/object.bin"
	bytes=$(stat -c %s "$work/object.bin")
	"$work/ndncc" serve /bench/object "$work/object.bin" >"$work/serve.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 200); do grep -q '^Serving' "$work/serve.log" && break; sleep 0.05; done
	grep -q '^Serving' "$work/serve.log" || { echo "ndncc serve did not start:"; cat "$work/serve.log"; exit 1; }
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
