# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the lab's shell scripts (sourced, POSIX sh).
# The sourcing script sets LAB_TOP to the repository's top directory.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the sourcing scripts

BUILD_DIR=${BUILD_DIR:-$LAB_TOP/build}
KSRC=$BUILD_DIR/linux-source-6.12
KOBJ=$BUILD_DIR/obj/lab
TOOLS_BIN=$BUILD_DIR/tools

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

log() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# make_var NAME: value of NAME in lab/versions.mk, where versions are
# pinned (LAB_VERSIONS names another file, for tests).
make_var() {
	sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "${LAB_VERSIONS:-$LAB_TOP/lab/versions.mk}"
}

PLATFORMS_DIR=$LAB_TOP/lab/platforms
PLATGEN=$TOOLS_BIN/platgen

known_platforms() {
	for f in "$PLATFORMS_DIR"/*.plat; do
		printf '%s ' "$(basename "$f" .plat)"
	done
}

# platform_file NAME|PATH: the description file of a platform.
platform_file() {
	case $1 in
	*/* | *.plat) f=$1 ;;
	*) f=$PLATFORMS_DIR/$1.plat ;;
	esac
	[ -f "$f" ] || die "no platform '$1' (known: $(known_platforms))"
	echo "$f"
}

# load_platform FILE: validate it and set PLATFORM, NR_CPUS, QEMU_CPU, ...
load_platform() {
	[ -x "$PLATGEN" ] || die "$PLATGEN missing: run make tools"
	"$PLATGEN" check "$1" || die "invalid platform description (see above)"
	eval "$("$PLATGEN" info "$1")"
}

# The QEMU machine: the DTB is dumped from, and booted on, exactly this.
qemu_machine_args() {
	echo "-cpu $QEMU_CPU -smp $NR_CPUS -m ${MEMORY_MB}M -display none"
}

# series_patches DIR: the patches DIR/series names, in order.
series_patches() {
	[ -f "$1/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series"
}

# One kernel build at a time on this machine, whichever checkout or
# output directory it is for: every kernel make holds this lock.
KERNEL_BUILD_LOCK=${LAB_BUILD_LOCK:-/tmp/eas-lab-kernel-build.lock}

# kernel_build_env: the cross toolchain for kbuild, and CC_OVERRIDE, the
# CC= argument of every kernel make.
kernel_build_env() {
	export ARCH=arm64
	# Exported for configuration too: some options (ARM64_TLB_RANGE)
	# depend on the compiler's capabilities, so a config made without it
	# differs.
	export CROSS_COMPILE=aarch64-linux-gnu-
	if command -v ccache >/dev/null 2>&1; then
		# Depend mode hashes the dependency list gcc writes rather than
		# running the preprocessor: measured 204 s vs 253 s cold on 2
		# cores.
		export CCACHE_DEPEND=1
		CC_OVERRIDE="CC=ccache ${CROSS_COMPILE}gcc"
	else
		CC_OVERRIDE="CC=${CROSS_COMPILE}gcc"
	fi
}
