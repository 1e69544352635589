#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Rebuild rt-app 1.0 for the guest from Debian's source with the lab's
# patch (lab/guest/rt-app/*.patch: run/runtime use /dev/lab-work), cross
# compiled against libjson-c-dev:arm64.  Debian's packaging tarball is
# missing from the mirror, so only the upstream tarball is used, checked
# against the SHA-256 pinned in lab/versions.mk; the build is what
# Debian's configure would do (SCHED_DEADLINE support, log level 50).
#
# Usage: lab/guest/build-rtapp.sh [OUTPUT]   (default build/guest/rt-app)
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

OUT=${1:-$BUILD_DIR/guest/rt-app}
# The build runs in a directory of its own: a relative OUT (make passes
# build/guest/rt-app) would land there and be removed with it.
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
SRC=$BUILD_DIR/src
tarball=$SRC/$(make_var RTAPP_ORIG_TARBALL)
want=$(make_var RTAPP_ORIG_SHA256)
CC=aarch64-linux-gnu-gcc

command -v "$CC" >/dev/null || die "$CC missing: run lab/deps.sh host"
[ -f /usr/include/aarch64-linux-gnu/json-c/json.h ] || [ -f /usr/include/json-c/json.h ] ||
	die "libjson-c-dev:arm64 missing: run lab/deps.sh guest"
mkdir -p "$SRC"
if [ ! -f "$tarball" ] || [ "$(sha256sum <"$tarball" | cut -d' ' -f1)" != "$want" ]; then
	log "downloading the source of rt-app $(make_var RTAPP_SOURCE_VERSION)"
	# Exits 1 when the packaging tarball is missing; the upstream one,
	# all that is used, is checked below.
	(cd "$SRC" && apt-get source -qq --download-only \
		"rt-app=$(make_var RTAPP_SOURCE_VERSION)" >/dev/null 2>&1) || true
fi
[ -f "$tarball" ] || die "apt-get source did not fetch $tarball (deb-src line missing? run lab/deps.sh guest)"
got=$(sha256sum <"$tarball" | cut -d' ' -f1)
[ "$got" = "$want" ] || die "$tarball: SHA-256 $got, pinned $want"

work=$(mktemp -d "$BUILD_DIR/rt-app.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
tar -C "$work" -xzf "$tarball"
cd "$work"/rt-app-*
for p in "$LAB_TOP"/lab/guest/rt-app/*.patch; do
	patch -s -p1 <"$p" || die "${p#"$LAB_TOP"/} does not apply to rt-app"
done
# What configure writes; TRUE/FALSE went out of json-c 0.16's headers.
printf '#define DLSCHED 1\n#define LOG_LEVEL 50\n#define TRUE 1\n#define FALSE 0\n' >src/config.h
# shellcheck disable=SC2086 # CFLAGS are words
$CC -O2 -Wall -Wno-deprecated-declarations -Wno-unused-variable -Wno-unused-but-set-variable \
	-Isrc -Ilibdl -o "$work/rt-app" \
	src/rt-app.c src/rt-app_utils.c src/rt-app_args.c src/rt-app_parse_config.c \
	libdl/dl_syscalls.c -ljson-c -lpthread -lrt -lm 2>"$work/cc.log" ||
	die "rt-app does not build: $(tail -n 5 "$work/cc.log")"
mkdir -p "$(dirname "$OUT")"
mv "$work/rt-app" "$OUT"
log "built ${OUT#"$LAB_TOP"/}"
echo "$OUT"
