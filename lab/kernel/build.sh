#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the lab kernel: Debian's pinned linux-source-6.12, the series in
# patches/ applied with git am, allnoconfig + a config fragment, cross
# compiled for arm64.  Incremental: each step is skipped when its inputs
# did not change.
#
# Usage: lab/kernel/build.sh [FRAGMENT[:FRAGMENT...] [OBJDIR]]
#   FRAGMENT  config fragment (default lab/kernel/lab.config); several,
#             colon separated, are merged in order, a later line for an
#             option replacing an earlier one (lab.config:debug.config)
#   OBJDIR    kbuild output directory (default build/obj/lab)
# LAB_KERNEL_STEPS=apply|config stops after that step (tests use it).
# Prints the path of the built Image on stdout.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

FRAGMENT=${1:-$LAB_TOP/lab/kernel/lab.config}
OBJ=${2:-$KOBJ}
# kbuild reads a relative O= from inside the source tree.
mkdir -p "$OBJ"
OBJ=$(CDPATH='' cd -- "$OBJ" && pwd)
SERIES_DIR=${SERIES_DIR:-$LAB_TOP/patches}
# Lab-only patches (emulated CPU speed, energy meter), applied after the
# series so that the series stays what would go upstream.
LAB_PATCHES_DIR=${LAB_PATCHES_DIR:-$LAB_TOP/lab/kernel/lab-patches}
JOBS=${JOBS:-$(nproc)}
BASE_TAG=debian-base

kernel_build_env

git_k() {
	git -C "$KSRC" -c gc.auto=0 -c core.looseCompression=1 -c user.name=lab -c user.email=lab@localhost \
		-c advice.detachedHead=false "$@"
}

# The tree is a git repository whose first commit is the pristine Debian
# source, so the series applies with git am and each patch can be checked
# out on its own (bisectability).
extract_source() {
	want=$(make_var LINUX_SOURCE_VERSION)
	tarball=$(make_var LINUX_SOURCE_TARBALL)
	stamp=$KSRC/.git/lab-source-version
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	   git_k rev-parse -q --verify "$BASE_TAG" >/dev/null; then
		return 0
	fi
	[ -f "$tarball" ] || die "$tarball missing: run lab/deps.sh host"
	have=$(dpkg-query -W -f='${Version}' "$(make_var LINUX_SOURCE_PKG)")
	[ "$have" = "$want" ] ||
		die "installed $(make_var LINUX_SOURCE_PKG) is $have, pinned is $want"
	log "extracting $tarball ($want)"
	rm -rf "$KSRC" "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	tar -C "$KSRC.tmp" -xf "$tarball"
	mv "$KSRC.tmp/linux-source-6.12" "$KSRC"
	rmdir "$KSRC.tmp"
	git_k init -q
	# Debian's tree ignores everything (.gitignore: /*), hence -f.
	git_k add -A -f
	git_k commit -q -m "Debian linux-source-6.12 $want"
	git_k tag "$BASE_TAG"
	echo "$want" >"$stamp"
}

# Every patch a series file names exists.  Checked in the script's own
# shell, not in series_id(): a die() in a pipeline or a command
# substitution ends only its subshell, and the missing file would surface
# later as a patch that "does not apply".
check_series_files() {
	for dir in "$SERIES_DIR" "$LAB_PATCHES_DIR"; do
		for p in $(series_patches "$dir"); do
			[ -f "$dir/$p" ] ||
				die "${dir#"$LAB_TOP"/}/series names $p, which does not exist"
		done
	done
}

# Identity of what should be applied: both series files and every patch.
series_id() {
	for dir in "$SERIES_DIR" "$LAB_PATCHES_DIR"; do
		echo "$dir"
		for p in $(series_patches "$dir"); do
			cat "$dir/$p"
		done
	done | sha256sum | cut -d' ' -f1
}

# am_series DIR WHAT: git am every patch of DIR/series; WHAT names them in
# the message of the one that does not apply.
am_series() {
	n=0
	for p in $(series_patches "$1"); do
		n=$((n + 1))
		if ! git_k am -q --whitespace=nowarn "$1/$p" >/dev/null 2>&1; then
			err=$(git_k apply --check "$1/$p" 2>&1 | head -n 3)
			git_k am --abort >/dev/null 2>&1 || true
			die "$2 $n ($p) does not apply to $(make_var LINUX_SOURCE_VERSION)${3:-}: $err"
		fi
	done
	log "applied $n $2(es) from ${1#"$LAB_TOP"/}"
}

# The tree must hold what patches/ and the lab patches make of the base
# and nothing else: a hand edit would be built in silently, or git would
# refuse to move the tree with its own message.
check_tree_clean() {
	edits=$(git_k status --porcelain --untracked-files=no) ||
		die "git status failed in ${KSRC#"$LAB_TOP"/}"
	edits=$(printf '%s\n' "$edits" | sed 's/^...//' | head -n 5 | tr '\n' ' ')
	[ -z "${edits% }" ] ||
		die "${KSRC#"$LAB_TOP"/} has changes of its own (${edits% }): save them as a patch in patches/ or lab/kernel/lab-patches, or drop them with git -C ${KSRC#"$LAB_TOP"/} checkout -- ."
}

apply_series() {
	check_tree_clean
	check_series_files
	sid=$(series_id)
	# The stamp names what was applied and the commit it made: a tree
	# moved to another commit by hand is applied again.
	id="$sid $(git_k rev-parse -q --verify HEAD || true)"
	stamp=$KSRC/.git/lab-series-id
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] && return 0
	rm -f "$stamp"
	git_k am --abort >/dev/null 2>&1 || true
	git_k checkout -q --detach "$BASE_TAG"
	git_k reset -q --hard "$BASE_TAG"
	git_k clean -qfdx
	am_series "$SERIES_DIR" patch
	am_series "$LAB_PATCHES_DIR" "lab patch" " + the series"
	echo "$sid $(git_k rev-parse HEAD)" >"$stamp"
}

# merged_fragment FILE...: their option lines in order, each option once,
# as its last line sets it: a debug fragment overrides the lab one, and
# the check in configure() expects what was asked last.
merged_fragment() {
	awk '/^CONFIG_[A-Za-z0-9_]+=|^# CONFIG_[A-Za-z0-9_]+ is not set/ {
		opt = $0
		sub(/^# /, "", opt)
		sub(/[= ].*/, "", opt)
		if (!(opt in line))
			order[n++] = opt
		line[opt] = $0
	}
	END { for (i = 0; i < n; i++) print line[order[i]] }' "$@"
}

# allnoconfig + fragment; every fragment line must survive olddefconfig,
# because merge_config.sh silently drops an option whose dependency is off.
configure() {
	stamp=$OBJ/.lab-config-id
	old_ifs=$IFS
	IFS=:
	# shellcheck disable=SC2086 # FRAGMENT is split on colons only
	set -- $FRAGMENT
	IFS=$old_ifs
	for f in "$@"; do
		[ -f "$f" ] || die "no config fragment $f"
	done
	id=$( { cat "$@"; git_k rev-parse HEAD; } | sha256sum | cut -d' ' -f1)
	merged=$OBJ/.lab-fragment
	merged_fragment "$@" >"$merged"
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] && [ -f "$OBJ/.config" ] && return 0
	log "configuring $OBJ from allnoconfig + ${FRAGMENT#"$LAB_TOP"/}"
	make -s -C "$KSRC" O="$OBJ" "$CC_OVERRIDE" allnoconfig >/dev/null
	(cd "$OBJ" && KCONFIG_CONFIG=.config \
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" .config "$merged" >/dev/null)
	make -s -C "$KSRC" O="$OBJ" "$CC_OVERRIDE" olddefconfig >/dev/null
	bad=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$merged" | while IFS= read -r want; do
		grep -qxF "$want" "$OBJ/.config" && continue
		opt=${want%%=*}
		got=$(grep -E "^$opt=|^# $opt is not set" "$OBJ/.config" || echo absent)
		printf '  %s, got %s\n' "$want" "$got"
	done)
	[ -z "$bad" ] || die "options of ${FRAGMENT#"$LAB_TOP"/} did not stick (a dependency is off?):
$bad"
	echo "$id" >"$stamp"
}

# build_progress: kbuild's "  CC      file" lines become a count every
# 30 s (a cold build is minutes of them); anything else, warnings and
# errors, goes through.  srand() returns the previous seed: a clock in
# any awk.
build_progress() {
	awk -v me="${0##*/}" '
	function now() { srand(); return srand() }
	BEGIN { t0 = last = now() }
	/^  [A-Z0-9_]+ / {
		n++
		if ((t = now()) - last >= 30) {
			printf "%s: %d files built, %dm%02ds\n", me, n, (t - t0) / 60, (t - t0) % 60
			fflush()
			last = t
		}
		next
	}
	{ print; fflush() }
	END { if (n) printf "%s: %d files built in %ds\n", me, n, now() - t0 }'
}

build() {
	log "make -j$JOBS Image in ${OBJ#"$LAB_TOP"/}"
	rcfile=$OBJ/.lab-build-status
	{
		rc=0
		make --no-print-directory -C "$KSRC" O="$OBJ" "$CC_OVERRIDE" -j"$JOBS" Image 2>&1 || rc=$?
		echo "$rc" >"$rcfile"
	} | build_progress >&2
	[ "$(cat "$rcfile")" = 0 ] || die "kernel build failed in $OBJ (see above)"
}

command -v "${CROSS_COMPILE}gcc" >/dev/null || die "${CROSS_COMPILE}gcc missing: run lab/deps.sh host"
# One kernel build at a time on this machine, whichever checkout it is
# for: two on 2 cores starve each other, and one tree's builds share it.
exec 9>"$KERNEL_BUILD_LOCK"
flock 9

steps=${LAB_KERNEL_STEPS:-all}
extract_source
apply_series
[ "$steps" = apply ] && exit 0
configure
[ "$steps" = config ] && exit 0
build
echo "$OBJ/arch/arm64/boot/Image"
