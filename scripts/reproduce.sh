#!/usr/bin/env bash
# Regenerates docs/reproduction.md: runs the whole experiment catalog
# (3 runs per variant by default) and writes every seed table with our
# figures beside the seed's. Usage: scripts/reproduce.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/ndncc reproduce --runs "${1:-3}" --out docs/reproduction.md
echo "wrote docs/reproduction.md"
