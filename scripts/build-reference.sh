#!/usr/bin/env bash
# Builds the reference NDN stack the seed documents ran — ndn-cxx 0.9.0,
# NFD 24.07 and ndn-tools 24.07 — from their release tags into a prefix, so
# that `ndncc emu --forwarder nfd` and ndncatchunks/ndnputchunks flows can run
# the same scenario as the simulator (docs/validation.md).
#
#   scripts/build-reference.sh [PREFIX]        default PREFIX: $HOME/.local/ndn-ref
#
# Environment:
#   REF_SRC     where to clone from: a directory holding (or a URL base of)
#               ndn-cxx, NFD and ndn-tools repositories; default
#               https://github.com/named-data. A local mirror may also be
#               given per project: REF_NDN_CXX, REF_NFD, REF_NDN_TOOLS.
#   REF_WORK    build directory (default: a temp dir, removed at the end)
#   REF_JOBS    parallel compile jobs (default: nproc)
#   REF_NO_APT  set to skip installing the build dependencies with apt
#
# About 35 minutes on 2 cores. NFD's WebSocket support (a git submodule) is
# left out; nothing here uses it. When it ends, PREFIX/bin holds nfd, nfdc,
# ndncatchunks, ndnputchunks, ndnping, ...; the last line it prints is the
# environment to export.
set -euo pipefail

prefix=${1:-$HOME/.local/ndn-ref}
src=${REF_SRC:-https://github.com/named-data}
jobs=${REF_JOBS:-$(nproc)}

if [ -z "${REF_NO_APT:-}" ]; then
	echo "== build dependencies (apt)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq build-essential pkg-config python3 git \
		libboost-all-dev libssl-dev libsqlite3-dev libpcap-dev libsystemd-dev >/dev/null
fi

work=${REF_WORK:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" "$prefix"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# fetch REPO TAG [OVERRIDE]: a clean checkout of TAG in $work/REPO.
fetch() {
	local repo=$1 tag=$2 from=${3:-$src/$1}
	rm -rf "${work:?}/$repo"
	git clone -q --no-checkout "$from" "$work/$repo"
	git -C "$work/$repo" -c advice.detachedHead=false checkout -q "$tag"
	echo "== $repo at $tag ($(git -C "$work/$repo" rev-parse --short HEAD))"
}

# waf_build REPO [configure flags...]
waf_build() {
	local repo=$1
	shift
	(
		cd "$work/$repo"
		python3 ./waf configure --prefix="$prefix" "$@"
		python3 ./waf build -j"$jobs"
		python3 ./waf install
	)
}

start=$SECONDS
fetch ndn-cxx ndn-cxx-0.9.0 "${REF_NDN_CXX:-}"
waf_build ndn-cxx
fetch NFD NFD-24.07 "${REF_NFD:-}"
waf_build NFD --without-websocket
fetch ndn-tools ndn-tools-24.07 "${REF_NDN_TOOLS:-}"
waf_build ndn-tools

# NFD reads its configuration from PREFIX/etc/ndn/nfd.conf; the sample is
# installed beside it. The emulator writes a config of its own per node, so
# this copy is only for running nfd by hand.
if [ ! -f "$prefix/etc/ndn/nfd.conf" ] && [ -f "$prefix/etc/ndn/nfd.conf.sample" ]; then
	cp "$prefix/etc/ndn/nfd.conf.sample" "$prefix/etc/ndn/nfd.conf"
fi

for b in nfd nfdc ndncatchunks ndnputchunks; do
	[ -x "$prefix/bin/$b" ] || { echo "missing $prefix/bin/$b" >&2; exit 1; }
done
echo "== built in $(((SECONDS - start) / 60)) min into $prefix"
echo "export PATH=\"$prefix/bin:\$PATH\" LD_LIBRARY_PATH=\"$prefix/lib64:$prefix/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\""
