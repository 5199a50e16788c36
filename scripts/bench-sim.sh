#!/usr/bin/env bash
# bench-sim.sh: the simulator's speed, an older commit against this tree.
#
# Builds the `sim` package's test binary of REV (in a temporary worktree)
# and of this tree, both without a profile (`go test -c`, as `go test`
# builds them), and runs their BenchmarkLinear10MiB side by side with
# internal/sidebyside: in each round both start together, pinned to one
# processor, and each runs the benchmark N times; the kernel time-slices
# them, so both meet the same conditions. It prints every round's CPU time
# and ns/op of each, the ratio old/new of the medians of each set of five
# rounds, and the median of the rounds' ratios (above 1: this tree is
# faster). See docs/performance.md, "Measuring".
#
# Usage: scripts/bench-sim.sh REV [ROUNDS] [N]
#   REV      the commit to compare with (e.g. HEAD~1, a tag, a hash)
#   ROUNDS   rounds (default 10)
#   N        benchmark iterations per run (default 60)
# Environment:
#   CPU      the processor both run on (default: the last one)
#   KEEP=1   keep the work directory (the two test binaries)
set -euo pipefail

rev=${1:?usage: scripts/bench-sim.sh REV [ROUNDS] [N]}
rounds=${2:-10}
n=${3:-60}
cpu=${CPU:-$(($(nproc) - 1))}
# shellcheck source=bench-lib.sh
source "$(dirname "$0")/bench-lib.sh"

old=$work/old
echo "== building the benchmark of $rev and of this tree"
git -C "$repo" worktree add --detach --quiet "$old" "$rev"
cleanup_worktree() { git -C "$repo" worktree remove --force "$old" 2>/dev/null || true; }
trap 'cleanup_worktree; cleanup' EXIT
(cd "$old/sim" && go test -c -o "$work/old.test" .)
(cd "$repo/sim" && go test -c -o "$work/new.test" .)
(cd "$repo" && go build -o "$work/sidebyside" ./internal/sidebyside)
echo "== $rounds rounds of $n iterations each, both on processor $cpu"
"$work/sidebyside" -rounds "$rounds" -n "$n" -cpu "$cpu" "$work/old.test" "$old/sim" "$work/new.test" "$repo/sim"
