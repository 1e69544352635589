#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Assemble the guest's initramfs from Debian arm64 packages, rt-app rebuilt
# with the lab's patch, and the lab's guest scripts.  Byte-for-byte reproducible from the same .debs: file
# order, owners and timestamps are fixed, gzip stores no name or time.
#
# Usage: lab/guest/build-initramfs.sh [OUTPUT]   (default build/guest/initramfs.cpio.gz)
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

OUT=${1:-$BUILD_DIR/guest/initramfs.cpio.gz}
DEBS=$BUILD_DIR/debs
LIST=$LAB_TOP/lab/guest/packages.list
# Debian's rt-app rebuilt with the lab's patch (lab/guest/build-rtapp.sh).
RTAPP=${RTAPP:-$BUILD_DIR/guest/rt-app}
# Any fixed instant will do; this is the date of the seed RFC.
EPOCH=1521539000

pkgs() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LIST"
}

deb_file() {
	# apt-get download writes the epoch colon URL-encoded.
	printf '%s/%s_%s_arm64.deb\n' "$DEBS" "$1" "$(printf %s "$2" | sed 's/:/%3a/')"
}

download() {
	mkdir -p "$DEBS"
	pkgs | while read -r name version; do
		f=$(deb_file "$name" "$version")
		[ -s "$f" ] && continue
		log "downloading $name=$version (arm64)"
		(cd "$DEBS" && apt-get download -qq "$name:arm64=$version" >/dev/null 2>&1) ||
			die "cannot download $name:arm64=$version (pinned in ${LIST#"$LAB_TOP"/}); apt-cache policy $name:arm64 says: $(apt-cache policy "$name:arm64" 2>/dev/null | awk '/Candidate/{print $2}')"
		[ -s "$f" ] || die "apt-get download did not produce $f"
	done
}

stage() {
	root=$1
	pkgs | while read -r name version; do
		dpkg-deb -x "$(deb_file "$name" "$version")" "$root"
	done
	# What a guest never reads.
	rm -rf "$root/usr/share/doc" "$root/usr/share/man" \
		"$root/usr/share/lintian" "$root/usr/share/bug" \
		"$root/usr/share/locale" "$root/usr/share/info" \
		"$root/etc/ld.so.conf.d" "$root/usr/lib/python3" \
		"$root/usr/lib/aarch64-linux-gnu/gconv"
	mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
		"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" \
		"$root/results" "$root/lab/bin" "$root/lab/experiment"
	# busybox --install at boot creates the other applet links.
	ln -sf ../bin/busybox "$root/bin/sh"
	install -m 0755 "$RTAPP" "$root/usr/bin/rt-app"
	install -m 0755 "$LAB_TOP/lab/guest/init" "$root/init"
	install -m 0644 "$LAB_TOP/lab/guest/trace-events" "$root/lab/trace-events"
	for f in "$LAB_TOP"/lab/guest/bin/*; do
		install -m 0755 "$f" "$root/lab/bin/${f##*/}"
	done
}

pack() {
	root=$1 out=$2
	find "$root" -exec touch -h -d "@$EPOCH" {} +
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --reproducible --owner=0:0 --quiet) |
		gzip -n -9 >"$out.tmp"
	mv "$out.tmp" "$out"
}

command -v dpkg-deb >/dev/null || die "dpkg-deb missing"
dpkg --print-foreign-architectures | grep -qx arm64 ||
	die "arm64 is not a dpkg architecture here: run lab/deps.sh guest"
[ -x "$RTAPP" ] || "$LAB_TOP/lab/guest/build-rtapp.sh" "$RTAPP" >/dev/null
download
mkdir -p "$(dirname "$OUT")"
stage_dir=$(mktemp -d "$BUILD_DIR/initramfs.XXXXXX")
trap 'rm -rf "$stage_dir"' EXIT INT TERM
stage "$stage_dir"
pack "$stage_dir" "$OUT"
log "$(du -k "$OUT" | cut -f1) KiB ${OUT#"$LAB_TOP"/}"
echo "$OUT"
