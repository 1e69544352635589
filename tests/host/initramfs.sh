#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The guest initramfs is byte-for-byte reproducible from the same .debs and
# holds the tools the experiments need.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk=$LAB_TOP/lab/guest/build-initramfs.sh

"$mk" "$tmp/a.cpio.gz" >/dev/null 2>&1 || not_ok "initramfs builds"
sleep 1 # a different wall-clock second must not matter
"$mk" "$tmp/b.cpio.gz" >/dev/null 2>&1 || not_ok "initramfs builds twice"
check "two builds are byte-for-byte identical ($(sha256sum <"$tmp/a.cpio.gz" | cut -c1-16))" \
	cmp -s "$tmp/a.cpio.gz" "$tmp/b.cpio.gz"

zcat "$tmp/a.cpio.gz" | cpio -t --quiet >"$tmp/list" 2>/dev/null
for f in init bin/busybox bin/sh usr/bin/rt-app usr/bin/hackbench \
	usr/bin/trace-cmd lib/ld-linux-aarch64.so.1 \
	usr/lib/aarch64-linux-gnu/libjson-c.so.5 lib/aarch64-linux-gnu/libgcc_s.so.1 \
	lab/bin/lab-facts lab/bin/lab-snapshot lab/trace-events; do
	check "initramfs has $f" grep -qxF "$f" "$tmp/list"
done

# The rt-app the initramfs packs is the one just built: make passes a
# relative output path, which the build (in a directory of its own) lost.
rel=build/rtapp-test.$$
rm -f "$rel"
(cd "$LAB_TOP" && lab/guest/build-rtapp.sh "$rel" >/dev/null 2>"$tmp/rtapp.err") ||
	sed 's/^/    /' "$tmp/rtapp.err"
check "rt-app built to a relative path lands there ($rel)" \
	sh -c "aarch64-linux-gnu-readelf -h '$LAB_TOP/$rel' | grep -q 'Machine: *AArch64'"
rm -f "$LAB_TOP/$rel"
tests_done
