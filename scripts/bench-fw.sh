#!/usr/bin/env bash
# bench-fw.sh: `ndncc fw` against `ndnd fw` on the same path.
#
# Each run moves one object (100 MB of random bytes by default) from
# `ndncc serve` to `ndncc fetch` through one forwarder on a temporary Unix
# socket: once through `ndncc fw`, once through `ndnd fw`, in alternating
# order (ndncc first in odd runs). Every measurement starts a fresh
# forwarder and a fresh producer, which registers its prefix through the
# forwarder's NFD management. It prints, per run and as medians:
#   - goodput: object bytes over the fetch's wall-clock time (connection,
#     version discovery, transfer, output), in Mbit/s;
#   - the forwarder's CPU time per GB moved (user + system, from
#     /proc/PID/stat, counted from just before the fetch to its end);
#   - the ratios ndncc fw / ndnd fw of both, per run and their medians.
# Both forwarders mark congestion on their faces (ndnd: congestion_marking;
# ndncc fw: its default threshold-mark queue), and the fetch reacts to
# marks (its default pipeline, paced-delay), so the comparison is like for like.
#
# Usage: scripts/bench-fw.sh [RUNS] [SIZE_MB]
# Environment:
#   NDND_BIN      ndnd binary (default: built from the ndnd module in go.mod)
#   FETCH_ARGS    extra arguments for `ndncc fetch` (e.g. "-p fixed -s 100")
#   KEEP=1        keep the work directory (logs, configuration)
set -euo pipefail

runs=${1:-5}
size_mb=${2:-100}
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
build_tools
head -c "$((size_mb * 1000 * 1000))" /dev/urandom >"$work/object.bin"
bytes=$(stat -c %s "$work/object.bin")
tick=$(getconf CLK_TCK)
sock=$work/fw.sock

# start_fw KIND: starts a forwarder on $sock and sets fw_pid.
start_fw() {
	rm -f "$sock"
	if [ "$1" = ndncc ]; then
		"$work/ndncc" fw --socket "$sock" --udp none --tcp none -q >"$work/fw-$1.log" 2>&1 &
	else
		ndnd_config "$work/ndnd.yml" "$sock" $((20000 + RANDOM % 30000))
		"$ndnd" fw run "$work/ndnd.yml" >"$work/fw-$1.log" 2>&1 &
	fi
	fw_pid=$!
	pids+=("$fw_pid")
	for _ in $(seq 200); do [ -S "$sock" ] && return; sleep 0.05; done
	echo "$1 forwarder did not start:" >&2
	cat "$work/fw-$1.log" >&2
	exit 1
}

# cpu_ticks PID: user + system clock ticks of a process.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# run_one KIND: prints "goodput_mbps cpu_s_per_gb" for one transfer
# through a fresh forwarder of KIND.
run_one() {
	local kind=$1 serve_pid c0 c1 start end
	start_fw "$kind"
	export NDN_CLIENT_TRANSPORT="unix://$sock"
	"$work/ndncc" serve /bench/fw "$work/object.bin" >"$work/serve.log" 2>&1 &
	serve_pid=$!
	pids+=("$serve_pid")
	for _ in $(seq 200); do grep -q '^Serving' "$work/serve.log" && break; sleep 0.05; done
	grep -q '^Serving' "$work/serve.log" || { echo "ndncc serve did not start through $kind fw:" >&2; cat "$work/serve.log" >&2; exit 1; }
	c0=$(cpu_ticks "$fw_pid")
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$work/ndncc" fetch /bench/fw -q ${FETCH_ARGS:-} -o "$work/out.bin" 2>"$work/fetch.err" ||
		{ echo "fetch through $kind fw failed:" >&2; cat "$work/fetch.err" >&2; exit 1; }
	end=$(date +%s.%N)
	c1=$(cpu_ticks "$fw_pid")
	cmp -s "$work/out.bin" "$work/object.bin" || { echo "$kind fw: fetched a different object" >&2; exit 1; }
	kill "$serve_pid" "$fw_pid" 2>/dev/null || true
	wait "$serve_pid" "$fw_pid" 2>/dev/null || true
	awk -v b="$bytes" -v s="$start" -v e="$end" -v c=$((c1 - c0)) -v hz="$tick" \
		'BEGIN { printf "%.1f %.2f", b * 8 / (e - s) / 1e6, c / hz / (b / 1e9) }'
}


echo "== $runs runs of ${size_mb} MB through one forwarder (the machine's load: $(cut -d' ' -f1-3 /proc/loadavg))"
printf "%-4s %14s %14s %14s %14s %10s %10s\n" run "ndncc Mbit/s" "ndnd Mbit/s" "ndncc CPU s/GB" "ndnd CPU s/GB" goodput× CPU×
gn=() gd=() cn=() cd=() rg=() rc=()
for i in $(seq "$runs"); do
	if [ $((i % 2)) = 1 ]; then
		read -r g1 c1 <<<"$(run_one ndncc)"
		read -r g2 c2 <<<"$(run_one ndnd)"
	else
		read -r g2 c2 <<<"$(run_one ndnd)"
		read -r g1 c1 <<<"$(run_one ndncc)"
	fi
	gn+=("$g1") gd+=("$g2") cn+=("$c1") cd+=("$c2") rg+=("$(ratio "$g1" "$g2")") rc+=("$(ratio "$c1" "$c2")")
	printf "%-4s %14s %14s %14s %14s %10s %10s\n" "$i" "$g1" "$g2" "$c1" "$c2" "${rg[-1]}" "${rc[-1]}"
done
printf "%-4s %14s %14s %14s %14s %10s %10s\n" median \
	"$(printf '%s\n' "${gn[@]}" | median)" "$(printf '%s\n' "${gd[@]}" | median)" \
	"$(printf '%s\n' "${cn[@]}" | median)" "$(printf '%s\n' "${cd[@]}" | median)" \
	"$(printf '%s\n' "${rg[@]}" | median)" "$(printf '%s\n' "${rc[@]}" | median)"
echo "goodput× is ndncc fw's goodput over ndnd fw's (higher is better for ndncc fw); CPU× its CPU per GB over ndnd fw's (lower is better)."
