#!/usr/bin/env bash
# pairs-live.sh: two `ndncc fetch` configurations side by side through one
# real ndnd forwarder (paced-delay against cubic, alternating).
#
# It starts `ndnd fw` on a temporary Unix socket (congestion marking on),
# serves one object (100 MB of random bytes by default) with `ndncc serve`,
# then runs PAIRS pairs of fetches: A (`ndncc fetch -v`, paced-delay, plus
# A_ARGS) and B (`ndncc fetch -v` plus B_ARGS, default "-p cubic"), which
# goes first alternating. Per fetch it prints the goodput the fetch reports
# (transfer only, as ndnget reports it), the transfer's time, the congestion
# marks (the `-v` lines, one per mark, which `-p fixed`'s short summary
# also gets), the retransmitted segments and the timeouts of its summary;
# then the medians of goodput, the totals, the marks per second of
# transfer (ndnd fw marks a face at most once per 100 ms, so a fetch's
# marks are bounded by ten times its time), and in how many pairs A was at
# least as fast.
#
# Usage: scripts/pairs-live.sh [PAIRS] [SIZE_MB]
# Environment:
#   NDND_BIN          ndnd binary (default: built from the ndnd module in go.mod)
#   A_ARGS, B_ARGS    arguments of the two configurations (B_ARGS default "-p cubic")
#   KEEP=1            keep the work directory (logs, configuration)
set -euo pipefail

pairs=${1:-12}
size_mb=${2:-100}
a_args=${A_ARGS:-}
b_args=${B_ARGS:--p cubic}
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"
build_tools

serve_object "$size_mb"

# fetch_one ARGS...: fetches the object once, checks it, prints
# "goodput seconds marks retransmissions timeouts" from the fetch's output
# ("-" for the two counts `-p fixed`'s five-line summary leaves out).
fetch_one() {
	# shellcheck disable=SC2068
	"$work/ndncc" fetch /bench/object -v $@ >"$work/out.bin" 2>"$work/fetch.err"
	cmp -s "$work/out.bin" "$work/object.bin" || { echo "fetch $* got a different object" >&2; cat "$work/fetch.err" >&2; exit 1; }
	awk 'BEGIN { split("bit/s kbit/s Mbit/s Gbit/s", u); for (i in u) f[u[i]] = 10 ^ (3 * i - 9) }
		/^Goodput:/ { g = $2 * f[$3] } /^Time elapsed:/ { e = $3 } /congestion mark \(total/ { m++ }
		/^Timeouts:/ { t = $2 } /^Retransmitted segments:/ { r = $3 }
		END { print g, e, m + 0, (r == "" ? "-" : r), (t == "" ? "-" : t) }' "$work/fetch.err"
}

echo "== load before: $(uptime)"
echo "== $pairs pairs: A = fetch $a_args, B = fetch $b_args (goodput in Mbit/s as fetch reports it)"
printf "%-5s %9s %7s %6s %5s %5s   %9s %7s %6s %5s %5s\n" pair A-goodput seconds marks retx tmo B-goodput seconds marks retx tmo
ga=() gb=() ea=0 eb=0 ma=0 mb=0 ra=0 rb=0 ta=0 tb=0 wins=0
for i in $(seq "$pairs"); do
	if ((i % 2)); then a=$(fetch_one "$a_args"); b=$(fetch_one "$b_args"); else b=$(fetch_one "$b_args"); a=$(fetch_one "$a_args"); fi
	read -r g1 e1 m1 r1 t1 <<<"$a"
	read -r g2 e2 m2 r2 t2 <<<"$b"
	ga+=("$g1") gb+=("$g2")
	ea=$(awk -v s="$ea" -v e="$e1" 'BEGIN { print s + e }') eb=$(awk -v s="$eb" -v e="$e2" 'BEGIN { print s + e }')
	ma=$((ma + m1)) mb=$((mb + m2)) ra=$((ra + ${r1/-/0})) rb=$((rb + ${r2/-/0})) ta=$((ta + ${t1/-/0})) tb=$((tb + ${t2/-/0}))
	wins=$((wins + $(awk -v a="$g1" -v b="$g2" 'BEGIN { print (a >= b) }')))
	printf "%-5s %9.1f %7.3f %6s %5s %5s   %9.1f %7.3f %6s %5s %5s\n" "$i" "$g1" "$e1" "$m1" "$r1" "$t1" "$g2" "$e2" "$m2" "$r2" "$t2"
done
printf "%-5s %9s %7.2f %6s %5s %5s   %9s %7.2f %6s %5s %5s\n" median/sum \
	"$(printf '%s\n' "${ga[@]}" | median)" "$ea" "$ma" "$ra" "$ta" "$(printf '%s\n' "${gb[@]}" | median)" "$eb" "$mb" "$rb" "$tb"
echo "== marks per second of transfer: A $(ratio "$ma" "$ea"), B $(ratio "$mb" "$eb")"
echo "== A at least as fast as B in $wins of $pairs pairs"
echo "== load after: $(uptime)"
