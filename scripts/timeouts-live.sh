#!/usr/bin/env bash
# timeouts-live.sh: timeouts and retransmissions of `ndncc fetch
# --init-ssthresh inf` through one real ndnd forwarder (the check
# "retransmissions < 1%, zero spurious timeouts").
#
# It starts `ndnd fw` on a temporary Unix socket with congestion marking on
# (ndnd's default), serves one object (100 MB of random bytes by default)
# with `ndncc serve`, then fetches it RUNS times with the default pipeline
# and RUNS times with `-p cubic`, alternating, both with --init-ssthresh inf,
# and prints per fetch the goodput of the summary, the timeouts, the
# spurious timeouts (the Data was read before the retransmission left), the
# retransmissions and their share of the Interests, the catch-ups of the
# event loop after stalls and the time it found it had not run (fetch -v),
# and the totals; with the load average before and after.
#
# Usage: scripts/timeouts-live.sh [RUNS] [SIZE_MB]
# Environment:
#   NDND_BIN     ndnd binary (default: built from the ndnd module in go.mod)
#   NDNCC_BIN    ndncc binary to fetch with (default: built from this tree)
#   STALLS=N     stop each fetch's process (SIGSTOP, its own PID only) N
#                times for STALL_MS (default 400) ms, 300 ms apart, from
#                300 ms after it starts, as a descheduled process would be
#   STALL_PROC   the process STALLS stops: fetch (default), serve (the
#                producer, `ndncc serve`) or fw (the forwarder): a stall of
#                another process on the path, which the fetch's loop cannot
#                see as its own
#   KEEP=1       keep the work directory (logs, configuration)
set -euo pipefail

runs=${1:-10}
size_mb=${2:-100}
stalls=${STALLS:-0}
stall_proc=${STALL_PROC:-fetch}
case $stall_proc in fetch | serve | fw) ;; *) echo "STALL_PROC must be fetch, serve or fw" >&2; exit 2 ;; esac
stall_s=$(awk -v ms="${STALL_MS:-400}" 'BEGIN { printf "%.3f", ms / 1000 }')
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
build_tools
fetcher=${NDNCC_BIN:-$work/ndncc}

serve_object "$size_mb"
fw_pid=${pids[0]} serve_pid=${pids[1]}

# fetch_one LABEL [ARGS...]: fetches the object once (stalling it STALLS
# times), checks it, prints one row and appends "timeouts spurious retx
# interests" to $work/LABEL.sums.
fetch_one() {
	local label=$1 fp sp k
	shift
	"$fetcher" fetch /bench/object -v --init-ssthresh inf "$@" >"$work/out.bin" 2>"$work/fetch.err" &
	fp=$!
	case $stall_proc in fetch) sp=$fp ;; serve) sp=$serve_pid ;; fw) sp=$fw_pid ;; esac
	if [ "$stalls" -gt 0 ]; then
		sleep 0.3
		for k in $(seq "$stalls"); do
			kill -0 "$fp" 2>/dev/null || break
			kill -STOP "$sp" 2>/dev/null || break
			sleep "$stall_s"
			kill -CONT "$sp" 2>/dev/null || break
			sleep 0.3
		done
	fi
	wait "$fp" || { echo "fetch ($label) failed:" >&2; cat "$work/fetch.err" >&2; exit 1; }
	cmp -s "$work/out.bin" "$work/object.bin" || { echo "fetch ($label) got a different object" >&2; exit 1; }
	awk -v label="$label" -v sums="$work/$label.sums" '
		/^Goodput:/ { goodput = $2 }
		/^Timeouts:/ { timeouts = $2 }
		/^Spurious timeouts:/ { spurious = $3 }
		/^Retransmitted segments:/ { retx = $3 }
		/^Segments received:/ { segments = $3 }
		/^Loop:/ { catchups = $10; stalled = $(NF - 3) }
		END {
			interests = segments + retx
			printf "%-12s %9.1f %9d %9d %9d %8.3f%% %9d %9.3f\n", label, goodput, timeouts, spurious, retx, 100 * retx / interests, catchups, stalled
			printf "%d %d %d %d\n", timeouts, spurious, retx, interests >> sums
		}' "$work/fetch.err"
}

echo "== load before: $(uptime)"
echo "== $runs runs of each, alternating; $stalls stalls of ${STALL_MS:-400} ms of the $stall_proc process per fetch"
printf "%-12s %9s %9s %9s %9s %9s %9s %9s\n" pipeline Mbit/s timeouts spurious retx retx% catch-ups stalled-s
for i in $(seq "$runs"); do
	if [ $((i % 2)) = 1 ]; then
		fetch_one default; fetch_one cubic -p cubic
	else
		fetch_one cubic -p cubic; fetch_one default
	fi
done
for label in default cubic; do
	awk -v label="$label" '{ t += $1; s += $2; r += $3; n += $4; if ($3 > 0) runs++ }
		END { printf "total %-6s %d timeouts, %d spurious, %d retransmissions (%.3f%% of %d Interests; %d of %d runs had any)\n", label, t, s, r, 100 * r / n, n, runs, NR }' "$work/$label.sums"
done
echo "== load after: $(uptime)"
