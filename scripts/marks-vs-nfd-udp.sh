#!/usr/bin/env bash
# marks-vs-nfd-udp.sh: congestion marks over a UDP link between two
# forwarders, NFD 24.07's pair against `ndncc fw`'s, for the same
# consumer and producer.
#
# In a network namespace of its own (unshare -n: run as root) whose
# loopback is shaped to RATE (default 20mbit) by a tbf qdisc with a 64 MB
# limit, it starts two forwarders: B on UDP port 6363 with the producer
# (`ndncc serve`, SIZE_MB megabytes of random bytes), and A on UDP port
# 6364 with a permanent UDP face to B and a route for the object, and the
# consumer `ndncc fetch -p aimd --trust any` on A. The link's queue is the
# kernel's (the qdisc and B's socket), so B's UDP face marks by the
# socket's send queue. NFD: congestion marking on (its default 64 KiB
# threshold, 100 ms interval), no Content Store, the face and the route made
# with nfdc. ndncc fw: its defaults, with the face and route in its
# configuration, and the UDP MTU MTU (default 8800, NFD's; ndncc's own
# default is 1420). It prints each fetch's summary line and, for ndncc fw,
# B's face counters.
#
# Usage: scripts/marks-vs-nfd-udp.sh [RUNS] [SIZE_MB]     (defaults: 3, 8)
# Environment:
#   NDN_REF      the reference stack's prefix (default $HOME/.local/ndn-ref)
#   NDNCC_BIN    ndncc binary (default: built from this tree)
#   RATE         the loopback's rate (tc's syntax, default 20mbit)
#   MTU          ndncc fw's UDP MTU (default 8800)
#   FORWARDERS   which to run, in order (default "nfd ndncc")
#   KEEP=1       keep the work directory
# Every process it starts is stopped by its own PID; each fetch is bounded
# by 120 s.
set -euo pipefail

if [ "${1:-}" = --inner ]; then
	shift
	inner=1
else
	inner=0
fi
runs=${1:-3}
size_mb=${2:-8}
ref=${NDN_REF:-$HOME/.local/ndn-ref}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ "$inner" = 0 ]; then
	for tool in nfd nfdc; do
		[ -x "$ref/bin/$tool" ] || { echo "no $ref/bin/$tool: build the reference stack (scripts/build-reference.sh) or set NDN_REF" >&2; exit 2; }
	done
	for tool in unshare ip tc; do
		command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 2; }
	done
	work=$(mktemp -d /tmp/ndncc-marks-udp.XXXXXX)
	trap '[ "${KEEP:-0}" = 1 ] && echo "work directory kept: $work" || rm -rf "$work"' EXIT
	ndncc=${NDNCC_BIN:-}
	if [ -z "$ndncc" ]; then
		echo "== building ndncc"
		(cd "$repo" && mkdir -p "$work/bin" && go build -pgo=cmd/ndncc/ndncc.pgo -o "$work/bin/ndncc" ./cmd/ndncc)
		ndncc=$work/bin/ndncc
	fi
	head -c "$((size_mb * 1000 * 1000))" /dev/urandom >"$work/object.bin"
	for fw in ${FORWARDERS:-nfd ndncc}; do
		WORK=$work NDNCC=$ndncc FW=$fw timeout $((60 + 130 * runs)) unshare -n -- "$0" --inner "$runs" "$size_mb"
	done
	exit 0
fi

# Inside the namespace.
work=$WORK
export LD_LIBRARY_PATH="$ref/lib64:$ref/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HOME=$work/home.$FW
mkdir -p "$HOME"
ip link set lo up
tc qdisc add dev lo root tbf rate "${RATE:-20mbit}" burst 64kb limit 64mb
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

# nfd_config FILE SOCKET [UDP_PORT] (scripts/nfd-conf.sh)
source "$repo/scripts/nfd-conf.sh"

dir=$work/$FW
mkdir -p "$dir"
case $FW in
nfd)
	nfd_config "$dir/a.conf" "$dir/a.sock" 6364
	nfd_config "$dir/b.conf" "$dir/b.sock" 6363
	# Each NFD has a keychain (HOME) of its own: two opening one at once
	# find its database locked.
	mkdir -p "$dir/home.a" "$dir/home.b"
	HOME=$dir/home.a "$ref/bin/nfd" --config "$dir/a.conf" >"$dir/a.log" 2>&1 &
	pids+=($!)
	HOME=$dir/home.b "$ref/bin/nfd" --config "$dir/b.conf" >"$dir/b.log" 2>&1 &
	pids+=($!)
	;;
ndncc)
	m=${MTU:-8800}
	printf 'mtu = %s\nudp = "127.0.0.1:6364"\ntcp = ""\n[[face]]\nid = "b"\nremote = "udp4://127.0.0.1:6363"\nmtu = %s\n[[route]]\nprefix = "/marks"\nface = "b"\n' "$m" "$m" >"$dir/a.toml"
	printf 'mtu = %s\nudp = "127.0.0.1:6363"\ntcp = ""\n' "$m" >"$dir/b.toml"
	"$NDNCC" fw --config "$dir/a.toml" --socket "$dir/a.sock" -q >"$dir/a.log" 2>&1 &
	pids+=($!)
	"$NDNCC" fw --config "$dir/b.toml" --socket "$dir/b.sock" >"$dir/b.log" 2>&1 &
	b_pid=$!
	pids+=("$b_pid")
	;;
esac
for s in a b; do
	for _ in $(seq 100); do [ -S "$dir/$s.sock" ] && break; sleep 0.05; done
	[ -S "$dir/$s.sock" ] || { echo "$FW $s did not start" >&2; cat "$dir/$s.log" >&2; exit 1; }
done
NDN_CLIENT_TRANSPORT="unix://$dir/b.sock" "$NDNCC" serve /marks/object "$work/object.bin" >"$dir/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q '^Serving' "$dir/serve.log" && break; sleep 0.1; done
grep -q '^Serving' "$dir/serve.log" || { echo "ndncc serve did not start" >&2; cat "$dir/serve.log" >&2; exit 1; }
export NDN_CLIENT_TRANSPORT="unix://$dir/a.sock"
if [ "$FW" = nfd ]; then
	fid=$("$ref/bin/nfdc" face create udp4://127.0.0.1:6363 | grep -o 'id=[0-9]*' | head -1 | cut -d= -f2)
	"$ref/bin/nfdc" route add /marks "$fid" >/dev/null
fi
for run in $(seq "$runs"); do
	if timeout 120 "$NDNCC" fetch /marks/object -p aimd --trust any -o "$dir/out.bin" 2>"$dir/fetch.err"; then
		cmp -s "$dir/out.bin" "$work/object.bin" || { echo "$FW run $run: the object differs" >&2; exit 1; }
		printf '%-6s run %d: %s\n' "$FW" "$run" "$(grep -E '^(Time elapsed|Congestion marks|Timeouts|RTT)' "$dir/fetch.err" | tr '\n' ' ')"
	else
		printf '%-6s run %d: failed: %s\n' "$FW" "$run" "$(tail -1 "$dir/fetch.err")"
	fi
done
if [ "$FW" = ndncc ]; then
	kill "$b_pid"
	wait "$b_pid" 2>/dev/null || true
	grep -a '^ *face [0-9]* udp4' "$dir/b.log" | sed 's/^ */ndncc  B: /'
fi
