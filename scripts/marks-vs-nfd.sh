#!/usr/bin/env bash
# marks-vs-nfd.sh: congestion marks per fetch through NFD 24.07 and through
# `ndncc fw`, for the same consumers and the same producer.
#
# It starts both forwarders, each alone on a Unix socket of its own in a
# temporary directory (NFD: no UDP, TCP, Ethernet or WebSocket faces,
# congestion marking on, its default 64 KiB threshold and 100 ms
# interval; `ndncc fw`: --udp none --tcp none, its defaults), serves one object of SIZE_MB megabytes of random bytes
# through each with ndnputchunks (8000-byte segments, signed with a key
# made in a temporary HOME), and fetches it RUNS times with each consumer
# through each forwarder, interleaved (run 1 of the first consumer
# through NFD, then through ndncc fw, then the next consumer, ...), so
# that a change of the machine's load falls on both alike:
#   catchunks-cubic   ndncatchunks -p cubic
#   catchunks-aimd    ndncatchunks -p aimd
#   fetch             ndncc fetch (its default pipeline), --trust any
#   fetch-cubic       ndncc fetch -p cubic, --trust any
# Each fetch is compared with the object. It prints one row per fetch
# (the consumer's own summary: time, congestion marks, timeouts,
# retransmissions and their share, RTT average and maximum) and a table of
# marks per consumer: NFD's and ndncc fw's per run, their medians, and the
# ratios of the medians and of the sums (ndncc fw / NFD).
#
# Neither forwarder caches: NFD's Content Store is set to 0 packets, as
# `ndncc fw` has none by default, so that every fetch's Data come from the
# producer through the same path (with NFD's default Content Store every
# fetch after the first would be answered from it). CS_PACKETS=N gives
# NFD N instead.
#
# Usage: scripts/marks-vs-nfd.sh [RUNS] [SIZE_MB]       (defaults: 3, 50)
# Environment:
#   NDN_REF      prefix of the reference stack (scripts/build-reference.sh;
#                default $HOME/.local/ndn-ref): bin/nfd, bin/ndncatchunks,
#                bin/ndnputchunks, bin/ndnsec, lib64 or lib
#   NDNCC_BIN    ndncc binary (default: built from this tree)
#   FORWARDERS   which to run, in order (default "nfd ndncc")
#   CONSUMERS    which consumers (default "catchunks-cubic catchunks-aimd
#                fetch fetch-cubic")
#   FETCH_TIMEOUT  seconds a fetch may take before it is stopped (120)
#   KEEP=1       keep the work directory (logs, configurations)
# Every process it starts is stopped by its own PID at exit; nothing runs
# longer than FETCH_TIMEOUT per fetch.
set -euo pipefail

runs=${1:-3}
size_mb=${2:-50}
ref=${NDN_REF:-$HOME/.local/ndn-ref}
forwarders=${FORWARDERS:-nfd ndncc}
consumers=${CONSUMERS:-catchunks-cubic catchunks-aimd fetch fetch-cubic}
fetch_timeout=${FETCH_TIMEOUT:-120}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d /tmp/ndncc-marks.XXXXXX)

for tool in nfd ndncatchunks ndnputchunks ndnsec; do
	[ -x "$ref/bin/$tool" ] || { echo "no $ref/bin/$tool: build the reference stack (scripts/build-reference.sh) or set NDN_REF" >&2; exit 2; }
done
libdir=$ref/lib64
[ -d "$libdir" ] || libdir=$ref/lib
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

pids=()
stop() {
	local pid
	for pid in "$@"; do kill "$pid" 2>/dev/null || true; done
	for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
}
cleanup() {
	stop "${pids[@]}"
	if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

ndncc=${NDNCC_BIN:-}
if [ -z "$ndncc" ]; then
	echo "== building ndncc"
	(cd "$repo" && go build -pgo=cmd/ndncc/ndncc.pgo -o "$work/bin/ndncc" ./cmd/ndncc)
	ndncc=$work/bin/ndncc
fi
# ndn-cxx's keychain goes in a HOME of its own (after the build, which
# uses the caller's Go caches).
export HOME=$work/home
mkdir -p "$HOME"
"$ref/bin/ndnsec" key-gen /ndncc/marks >/dev/null
head -c "$((size_mb * 1000 * 1000))" /dev/urandom >"$work/object.bin"

# nfd_config FILE SOCKET [UDP_PORT] (scripts/nfd-conf.sh)
source "$repo/scripts/nfd-conf.sh"

# start_forwarder NAME: starts it on $work/NAME/fw.sock and a producer on
# it.
start_forwarder() {
	local dir=$work/$1
	mkdir -p "$dir"
	case $1 in
	nfd)
		nfd_config "$dir/nfd.conf" "$dir/fw.sock"
		"$ref/bin/nfd" --config "$dir/nfd.conf" >"$dir/fw.log" 2>&1 &
		;;
	ndncc)
		"$ndncc" fw --socket "$dir/fw.sock" --udp none --tcp none >"$dir/fw.log" 2>&1 &
		;;
	esac
	pids+=($!)
	for _ in $(seq 100); do [ -S "$dir/fw.sock" ] && break; sleep 0.05; done
	[ -S "$dir/fw.sock" ] || { echo "$1 did not start:" >&2; cat "$dir/fw.log" >&2; exit 1; }
	NDN_CLIENT_TRANSPORT="unix://$dir/fw.sock" "$ref/bin/ndnputchunks" /ndncc/marks/object <"$work/object.bin" >"$dir/put.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 600); do grep -q '^Published' "$dir/put.log" && break; sleep 0.1; done
	grep -q '^Published' "$dir/put.log" || { echo "ndnputchunks did not publish:" >&2; cat "$dir/put.log" >&2; exit 1; }
}

# fetch_one FORWARDER CONSUMER RUN: one fetch; prints its row and appends
# "FORWARDER CONSUMER RUN marks" to $work/marks.
fetch_one() {
	local fw=$1 c=$2 run=$3 err=$work/$1/$2.$3.err
	local cmd=()
	case $c in
	catchunks-cubic) cmd=("$ref/bin/ndncatchunks" -p cubic /ndncc/marks/object) ;;
	catchunks-aimd) cmd=("$ref/bin/ndncatchunks" -p aimd /ndncc/marks/object) ;;
	fetch) cmd=("$ndncc" fetch --trust any /ndncc/marks/object) ;;
	fetch-cubic) cmd=("$ndncc" fetch --trust any -p cubic /ndncc/marks/object) ;;
	*) echo "unknown consumer $c" >&2; exit 2 ;;
	esac
	if ! NDN_CLIENT_TRANSPORT="unix://$work/$fw/fw.sock" timeout "$fetch_timeout" "${cmd[@]}" >"$work/out.bin" 2>"$err"; then
		printf '%-6s %-16s %3s  failed or timed out (%s s): %s\n' "$fw" "$c" "$run" "$fetch_timeout" "$(tail -1 "$err")"
		echo "$fw $c $run -" >>"$work/marks"
		return
	fi
	cmp -s "$work/out.bin" "$work/object.bin" || { echo "$fw $c run $run: the object differs" >&2; exit 1; }
	awk -v fw="$fw" -v c="$c" -v run="$run" -v marks="$work/marks" '
		/^Time elapsed:/ { time = $3 }
		/^Congestion marks:/ { m = $3 }
		/^Timeouts:/ { to = $2 }
		/^Retransmitted segments:/ { retx = $3; share = $4; gsub(/[(),%]/, "", share) }
		/^RTT min\/avg\/max/ { split($4, r, "/") }
		END {
			printf "%-6s %-16s %3d %8.2f %6d %8d %7d %6.1f%% %8.1f %8.1f\n", fw, c, run, time, m, to, retx, share, r[2], r[3]
			printf "%s %s %d %d\n", fw, c, run, m >> marks
		}' "$err"
}

echo "== $runs runs per consumer, ${size_mb} MB, one forwarder, Unix faces; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-16s %3s %8s %6s %8s %7s %7s %8s %8s\n' fw consumer run time_s marks timeouts retx retx% rtt_avg rtt_max
for fw in $forwarders; do start_forwarder "$fw"; done
for run in $(seq "$runs"); do
	for c in $consumers; do
		for fw in $forwarders; do fetch_one "$fw" "$c" "$run"; done
	done
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "Congestion marks per fetch (the consumer's count), per run:"
echo
echo "| consumer | NFD 24.07 | ndncc fw | median NFD | median ndncc fw | ratio of medians | ratio of sums |"
echo "|---|---|---|---|---|---|---|"
for c in $consumers; do
	awk -v c="$c" '
		function median(v, n,    i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			return n == 0 ? 0 : (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
		}
		function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : (a > 0 ? "inf" : "-") }
		$2 == c && $1 == "nfd" { nfd = nfd (nfd == "" ? "" : ", ") $4; if ($4 != "-") { sn += $4; vn[++nn] = $4 } }
		$2 == c && $1 == "ndncc" { our = our (our == "" ? "" : ", ") $4; if ($4 != "-") { so += $4; vo[++no] = $4 } }
		END {
			mn = median(vn, nn); mo = median(vo, no)
			printf "| %s | %s | %s | %g | %g | %s | %s |\n", c, nfd, our, mn, mo, ratio(mo, mn), ratio(so, sn)
		}' "$work/marks"
done
