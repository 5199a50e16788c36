#!/usr/bin/env bash
# bench-live.sh: goodput of `ndncc fetch` against `ndnd cat` through one real
# ndnd forwarder.
#
# It starts `ndnd fw` on a temporary Unix socket, serves one object (100 MB
# of random bytes by default) with `ndncc serve`, then fetches it RUNS times
# with each tool, alternating which goes first, and prints every goodput and
# the median of the per-run ratios ndncc/ndnd, for ndncc's default pipeline
# and for ndnd cat's own window policy. Goodput is object bytes over
# the wall-clock time of the whole command (start to exit: connection,
# version discovery, transfer, output), measured the same way for both.
#
# Usage: scripts/bench-live.sh [RUNS] [SIZE_MB]
# Environment:
#   NDND_BIN          ndnd binary (default: built from the ndnd module in go.mod)
#   FETCH_ARGS        extra arguments for `ndncc fetch` (e.g. "-p aimd")
#   KEEP=1            keep the work directory (logs, configuration)
set -euo pipefail

runs=${1:-5}
size_mb=${2:-100}
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
build_tools

serve_object "$size_mb"

# run_one TOOL [ARGS...]: fetches the object once, checks it, prints the
# goodput in Mbit/s.
run_one() {
	local tool=$1 start end
	shift
	start=$(date +%s.%N)
	if [ "$tool" = ndncc ]; then
		"$work/ndncc" fetch /bench/object -q "$@" >"$work/out.bin" 2>"$work/$tool.err"
	else
		"$ndnd" cat /bench/object >"$work/out.bin" 2>"$work/$tool.err"
	fi
	end=$(date +%s.%N)
	cmp -s "$work/out.bin" "$work/object.bin" || { echo "$tool fetched a different object" >&2; cat "$work/$tool.err" >&2; exit 1; }
	awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", b * 8 / (e - s) / 1e6 }'
}


# Two ndncc configurations against ndnd cat:
#  - "default": ndncc fetch as shipped (paced-delay, reacting to the
#    forwarder's congestion marks and to the RTT), plus FETCH_ARGS;
#  - "same-window": the window policy ndnd cat itself uses (a fixed window
#    of 100 Interests, no reaction to marks), so that the ratio compares
#    the two implementations rather than two congestion controllers.
# The three fetches of a run go in a rotating order.
echo "== load before: $(uptime)"
echo "== $runs runs (goodput in Mbit/s, wall clock per command)"
printf "%-6s %10s %12s %10s %14s %12s\n" run default same-window "ndnd cat" ratio-default ratio-same
d=() f=() n=() rd=() rf=()
for i in $(seq "$runs"); do
	case $((i % 3)) in
	1) x=$(run_one ndncc ${FETCH_ARGS:-}); y=$(run_one ndncc -p fixed -s 100); z=$(run_one ndnd) ;;
	2) y=$(run_one ndncc -p fixed -s 100); z=$(run_one ndnd); x=$(run_one ndncc ${FETCH_ARGS:-}) ;;
	0) z=$(run_one ndnd); x=$(run_one ndncc ${FETCH_ARGS:-}); y=$(run_one ndncc -p fixed -s 100) ;;
	esac
	d+=("$x"); f+=("$y"); n+=("$z"); rd+=("$(ratio "$x" "$z")"); rf+=("$(ratio "$y" "$z")")
	printf "%-6s %10s %12s %10s %14s %12s\n" "$i" "$x" "$y" "$z" "${rd[-1]}" "${rf[-1]}"
done
printf "%-6s %10s %12s %10s %14s %12s\n" median \
	"$(printf '%s\n' "${d[@]}" | median)" "$(printf '%s\n' "${f[@]}" | median)" "$(printf '%s\n' "${n[@]}" | median)" \
	"$(printf '%s\n' "${rd[@]}" | median)" "$(printf '%s\n' "${rf[@]}" | median)"
echo "== load after: $(uptime)"
