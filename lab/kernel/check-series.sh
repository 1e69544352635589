#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel quality gates on the series in patches/: every patch applies in
# order, the tree builds without a compiler warning after each one
# (bisectable), and so does kernel/sched/ without the Energy Model (arm64
# allnoconfig: no ENERGY_MODEL, no schedutil, the stubs' side of every
# #ifdef), checkpatch --strict reports nothing, each commit message
# has a body and a Signed-off-by, and sparse reports no new warning in
# the files the series touches.  One "ok"/"not ok" line per gate.
#
# Usage: lab/kernel/check-series.sh [-h|--help]
# Takes 8-11 minutes with a warm compiler cache (2026-12-07, 25 patches);
# cold, 35 before commits were configured only on a Kconfig change, not
# measured since.  Exit status: 0 when every gate passes, 1 otherwise.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

help_only_options "$@"
shift $((OPTIND - 1))
no_more_args "$@"

# One run at a time: a second would move the bisect tree under the first
# one's builds (seen: a header gone between a compile and its fixdep).
mkdir -p "$BUILD_DIR"
exec 9>"$GATES_LOCK"
flock -n 9 ||
	die "another lab/kernel/check-series.sh is running (it holds ${GATES_LOCK#"$LAB_TOP"/})"

BISECT_SRC=$BUILD_DIR/bisect
BISECT_OBJ=$BUILD_DIR/obj/bisect
NOEM_OBJ=$BUILD_DIR/obj/bisect-noem
kernel_build_env
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
ok() { echo "ok - $*"; }
not_ok() {
	echo "not ok - $*"
	failures=$((failures + 1))
}

# bisect_at COMMIT: the bisect tree at COMMIT, configured as the lab's.
bisect_at() {
	git -C "$BISECT_SRC" checkout -q --detach "$1"
	cp "$KOBJ/.config" "$BISECT_OBJ/.config"
	kmake olddefconfig
}

# move_to COMMIT RECONFIGURE: the bisect tree at COMMIT, configured again
# if RECONFIGURE is 1.
move_to() {
	if [ "$2" = 1 ]; then
		bisect_at "$1"
	else
		git -C "$BISECT_SRC" checkout -q --detach "$1"
	fi
}

kmake() {
	flock "$KERNEL_BUILD_LOCK" make -s -C "$BISECT_SRC" O="$BISECT_OBJ" "$CC_OVERRIDE" \
		-j"$(nproc)" "$@"
}

# kmake_noem TARGET...: make in the bisect tree, configured without the
# Energy Model (allnoconfig).
kmake_noem() {
	flock "$KERNEL_BUILD_LOCK" make -s -C "$BISECT_SRC" O="$NOEM_OBJ" "$CC_OVERRIDE" \
		-j"$(nproc)" "$@"
}

if out=$(LAB_KERNEL_STEPS=apply "$LAB_TOP/lab/kernel/build.sh" 2>&1); then
	ok "the series applies to $(make_var LINUX_SOURCE_VERSION) with git am"
else
	not_ok "the series applies: $out"
	exit 1
fi
# The series' commits come first; lab-only patches may follow them.
nr=$(series_patches "$LAB_TOP/patches" | wc -l)
[ "$nr" -gt 0 ] || { ok "no patches: nothing else to check"; exit 0; }
commits=$(git -C "$KSRC" rev-list --reverse debian-base..HEAD | head -n "$nr")
last=$(echo "$commits" | tail -n 1)

# checkpatch.pl runs Python helpers: Debian's python3 has their modules.
for c in $commits; do
	subject=$(git -C "$KSRC" log -1 --format=%s "$c")
	git -C "$KSRC" format-patch -q -1 --stdout "$c" >"$tmp/p"
	if out=$(cd "$KSRC" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q "$tmp/p" 2>&1) &&
	   [ -z "$out" ]; then
		ok "checkpatch --strict: $subject"
	else
		not_ok "checkpatch --strict: $subject"
		echo "$out" | head -n 20 | sed 's/^/    /'
	fi
	body=$(git -C "$KSRC" log -1 --format=%b "$c" | grep -cv '^\(Signed-off-by:.*\)\{0,1\}$' || true)
	if [ "$body" -ge 4 ] && git -C "$KSRC" log -1 --format=%b "$c" | grep -q '^Signed-off-by: '; then
		ok "commit message has a body ($body lines) and a Signed-off-by: $subject"
	else
		not_ok "commit message lacks a body or a Signed-off-by: $subject"
	fi
done

# Bisectability: a worktree of the same repository, built after each patch.
if [ ! -d "$BISECT_SRC" ]; then
	git -C "$KSRC" worktree prune
	git -C "$KSRC" -c gc.auto=0 worktree add -q --detach "$BISECT_SRC" debian-base
fi
mkdir -p "$BISECT_OBJ" "$NOEM_OBJ"
[ -f "$KOBJ/.config" ] || die "no $KOBJ/.config: build the lab kernel first"
# Each commit is configured anew only when it changes a Kconfig file (and
# the first one always): a rewritten .config makes kbuild re-run syncconfig
# and rebuild what reads it, twice the cost of a patch's own compiles.
n=0
prev=''
for c in $commits; do
	n=$((n + 1))
	subject=$(git -C "$KSRC" log -1 --format=%s "$c")
	reconfigure=1
	if [ -n "$prev" ]; then
		changed=$(git -C "$KSRC" diff --name-only "$prev" "$c")
		case $changed in
		*Kconfig*) ;;
		*) reconfigure=0 ;;
		esac
	fi
	prev=$c
	if move_to "$c" "$reconfigure" >"$tmp/log" 2>&1 && kmake Image >>"$tmp/log" 2>&1; then
		if grep -q 'warning:' "$tmp/log"; then
			not_ok "patch $n builds without warnings: $subject"
			grep 'warning:' "$tmp/log" | head -n 10 | sed 's/^/    /'
		else
			ok "patch $n builds on its own: $subject"
		fi
	else
		not_ok "patch $n builds on its own: $subject"
		grep -E 'error|Error' "$tmp/log" | head -n 10 | sed 's/^/    /'
	fi
	if { [ "$reconfigure" = 0 ] || kmake_noem allnoconfig; } >"$tmp/log" 2>&1 &&
	   ! grep -q '^CONFIG_ENERGY_MODEL=y' "$NOEM_OBJ/.config" &&
	   kmake_noem kernel/sched/ >>"$tmp/log" 2>&1 && ! grep -q 'warning:' "$tmp/log"; then
		ok "patch $n builds kernel/sched/ without the Energy Model: $subject"
	else
		not_ok "patch $n builds kernel/sched/ without the Energy Model (allnoconfig): $subject"
		grep -E 'error|Error|warning:' "$tmp/log" | head -n 10 | sed 's/^/    /'
	fi
done

# sparse on the compilation units holding the touched .c files, before
# and after the series; a warning is new if its text (line numbers
# aside) does not appear before.
touched=$(git -C "$KSRC" diff --name-only debian-base "$last" -- '*.c' '*.h')
units=''
for f in $(echo "$touched" | grep '\.c$' || true); do
	# kernel/sched/ builds most of its files inside build_policy.c and
	# build_utility.c (topology.c, debug.c, ...): compiled alone they
	# lack the includes, and report errors that are not the series'.
	u=${f%.c}.o
	case $f in
	kernel/sched/*)
		b=$(grep -lE "^#[[:space:]]*include[[:space:]]+\"${f##*/}\"" \
			"$KSRC"/kernel/sched/build_*.c 2>/dev/null | head -n 1)
		[ -z "$b" ] || u=kernel/sched/$(basename "$b" .c).o ;;
	esac
	case " $units " in
	*" $u "*) ;;
	*) units="$units $u" ;;
	esac
done
sparse_run() {
	bisect_at "$1" >/dev/null 2>&1
	for u in $units; do
		[ -f "$BISECT_SRC/${u%.o}.c" ] || continue
		kmake C=2 CHECK=sparse "$u" 2>&1 || true
	done | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | LC_ALL=C sort -u
}
sparse_run debian-base >"$tmp/before"
sparse_run "$last" >"$tmp/after"
new=$(LC_ALL=C comm -13 "$tmp/before" "$tmp/after")
if [ -z "$new" ]; then
	ok "sparse: no new warning in$units ($(wc -l <"$tmp/before") warnings before the series, $(wc -l <"$tmp/after") after)"
else
	not_ok "sparse: new warnings in the files the series touches:"
	echo "$new" | head -n 20 | sed 's/^/    /'
fi
[ "$failures" -eq 0 ]
