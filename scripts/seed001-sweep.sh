#!/usr/bin/env bash
# Regenerates docs/seed001-sweep: paper 001's seven findings checked over a
# grid of bottleneck rates and buffers (ndncc seed001-sweep's defaults, one
# run per variant and point; about 425 runs of 100 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/ndncc seed001-sweep --out docs/seed001-sweep "$@"
echo "wrote docs/seed001-sweep"
