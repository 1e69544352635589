#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what the lab needs on a Debian 12 host, and nothing when it is
# already there.  Usage: lab/deps.sh host|guest|all
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

HOST_PKGS="make gcc libc6-dev git bc flex bison libssl-dev libelf-dev cpio
gzip xz-utils device-tree-compiler gcc-aarch64-linux-gnu
binutils-aarch64-linux-gnu qemu-system-arm ccache sparse trace-cmd jq shellcheck
python3 python3-ply python3-git pyflakes3 gnuplot-nox procps"

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || printf '%s ' "$p"
	done
}

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return 0
	log "apt-get update"
	apt-get update -qq >/dev/null || die "apt-get update failed"
	apt_updated=1
}

apt_install() {
	[ "$(id -u)" = 0 ] || die "need root to install: $*"
	apt_update
	log "installing: $*"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null ||
		die "apt-get install failed for: $*"
}

host() {
	# shellcheck disable=SC2086 # word splitting of the package list
	m=$(missing $HOST_PKGS)
	# shellcheck disable=SC2086
	[ -z "$m" ] || apt_install $m

	pkg=$(make_var LINUX_SOURCE_PKG)
	want=$(make_var LINUX_SOURCE_VERSION)
	have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
	if [ "$have" != "$want" ]; then
		apt_update
		avail=$(apt-cache madison "$pkg" 2>/dev/null | awk '{print $3}')
		echo "$avail" | grep -qxF "$want" ||
			die "$pkg version $want is not installable from the configured apt sources (available: $(echo "$avail" | tr '\n' ' '))"
		apt_install "$pkg=$want"
	fi
}

# rt-app is rebuilt from Debian's source (lab/guest/build-rtapp.sh):
# apt-get source needs a deb-src line.
SRC_LIST=/etc/apt/sources.list.d/lab-deb-src.sources
GUEST_BUILD_PKGS="libc6-dev:arm64 libjson-c-dev:arm64 patch"

deb_src() {
	grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
	[ "$(id -u)" = 0 ] || die "need root to add a deb-src source"
	log "adding $SRC_LIST (deb-src bookworm main)"
	cat >"$SRC_LIST" <<-SOURCES
	Types: deb-src
	URIs: http://deb.debian.org/debian
	Suites: bookworm
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	SOURCES
	apt_updated=
	apt_update
}

guest() {
	dpkg --print-foreign-architectures | grep -qx arm64 || {
		[ "$(id -u)" = 0 ] || die "need root to add the arm64 architecture"
		log "dpkg --add-architecture arm64"
		dpkg --add-architecture arm64
		apt_updated=
	}
	# The arm64 package lists exist only after an update with arm64 enabled.
	ls /var/lib/apt/lists/*_binary-arm64_Packages* >/dev/null 2>&1 ||
		apt_update
	deb_src
	# shellcheck disable=SC2086 # word splitting of the package list
	m=$(missing $GUEST_BUILD_PKGS)
	# shellcheck disable=SC2086
	[ -z "$m" ] || apt_install $m
}

case ${1:-all} in
host) host ;;
guest) guest ;;
all) host; guest ;;
*) die "usage: $0 host|guest|all" ;;
esac
