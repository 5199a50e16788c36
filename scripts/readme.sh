#!/usr/bin/env bash
# Runs every command of the README, as written: each ```sh block of
# README.md becomes a bash script (set -euo pipefail) run in a copy of the
# working tree, so that what a newcomer types is what CI checks. Commands
# a block starts in the background (&) are stopped, by their PIDs, when the
# block ends. The README's test commands (`go test ./...` and the
# real-time tests' line) are not run here: .ci/run runs them in steps of
# their own. At the end, every file the commands wrote must be under out/
# (or the ./ndncc binary, which .gitignore names too): the README leaves a
# checkout as git status found it.
# Usage: scripts/readme.sh [README]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
readme=$(realpath "${1:-$repo/README.md}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy of the tracked and untracked (not ignored) files.
(cd "$repo" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")

# One script per block; "n" counts them.
n=0
in_block=0
while IFS= read -r line || [ -n "$line" ]; do
	if [ "$in_block" = 0 ] && [ "$line" = '```sh' ]; then
		n=$((n + 1))
		in_block=1
		{
			echo 'set -euo pipefail'
			echo 'trap '\''jobs -p | xargs -r kill 2>/dev/null; wait'\'' EXIT'
		} >"$work/readme-block-$n.sh"
		continue
	fi
	if [ "$in_block" = 1 ] && [ "$line" = '```' ]; then
		in_block=0
		continue
	fi
	if [ "$in_block" = 1 ]; then
		cmd=${line%%#*}
		cmd=$(echo "$cmd" | sed 's/[[:space:]]*$//')
		if [ "$cmd" = "go test ./..." ] || [[ "$cmd" == "NDNCC_REALTIME=1 go test "* ]]; then
			echo "# (run by .ci/run) $line" >>"$work/readme-block-$n.sh"
			continue
		fi
		printf 'echo %q\n%s\n' "\$ $line" "$line" >>"$work/readme-block-$n.sh"
	fi
done <"$readme"
if [ "$in_block" = 1 ]; then
	echo "README: a \`\`\`sh block is not closed" >&2
	exit 1
fi
if [ "$n" = 0 ]; then
	echo "README: no \`\`\`sh block" >&2
	exit 1
fi

cd "$work"
before=$(mktemp)
find . -type f ! -name 'readme-block-*.sh' | sort >"$before"
for i in $(seq 1 "$n"); do
	echo "== README block $i"
	if ! timeout 900 bash "readme-block-$i.sh"; then
		echo "README block $i failed: the README's commands do not run as written" >&2
		exit 1
	fi
done
left=$(comm -13 "$before" <(find . -type f ! -name 'readme-block-*.sh' | sort) | grep -v -e '^\./out/' -e '^\./ndncc$' || true)
rm -f "$before"
if [ -n "$left" ]; then
	echo "the README's commands wrote outside out/ (git status would show them):" >&2
	echo "$left" >&2
	exit 1
fi
echo "== every command of the README ran ($n blocks); all they wrote is under out/"
