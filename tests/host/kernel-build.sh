#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel build's failure modes give one clear message naming the
# cause: a patch that does not apply, a tree edited by hand, a series
# naming a missing file, a config option that does not stick, a pinned
# version apt cannot provide.
# Also: the lab config really is allnoconfig + fragment, every line kept.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

build=$LAB_TOP/lab/kernel/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


mkdir -p "$tmp/series"
cat >"$tmp/series/0001-does-not-apply.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Lab Test <lab@localhost>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] test: a hunk whose context is not in the tree

---
 kernel/sched/fair.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1,3 +1,3 @@
-this line is not in fair.c
+nor is this one
 context
 context
PATCH
echo 0001-does-not-apply.patch >"$tmp/series/series"
expect_fail "a patch that does not apply stops the build and is named" \
	'patch 1 (0001-does-not-apply.patch) does not apply' \
	env SERIES_DIR="$tmp/series" LAB_KERNEL_STEPS=apply "$build"
check "the tree is left at the pristine base after a failed git am" \
	sh -c "git -C '$KSRC' diff --quiet debian-base && ! test -d '$KSRC/.git/rebase-apply'"

# A hand edit in the tree: named, not built in and not fought with git.
printf '/* a hand edit */\n' >>"$KSRC/kernel/sched/fair.c"
expect_fail "a kernel tree with changes of its own is named" \
	'has changes of its own (kernel/sched/fair.c)' \
	env LAB_KERNEL_STEPS=apply "$build"
git -C "$KSRC" checkout -q -- kernel/sched/fair.c

echo 0002-missing.patch >"$tmp/series/series"
expect_fail "a series naming a missing patch is reported" \
	'names 0002-missing.patch, which does not exist' \
	env SERIES_DIR="$tmp/series" LAB_KERNEL_STEPS=apply "$build"
# ... and stops there, before git am reports the same file as a patch
# that does not apply.
check "a series naming a missing patch gets that one message" \
	sh -c "! out=\$(env SERIES_DIR='$tmp/series' LAB_KERNEL_STEPS=apply '$build' 2>&1) &&
	       ! printf '%s\n' \"\$out\" | grep -q 'does not apply'"

# VIRTIO_BLK without BLK_DEV: merge_config keeps quiet, we must not.
printf 'CONFIG_BLOCK=y\nCONFIG_BLK_DEV=n\nCONFIG_VIRTIO_MENU=y\nCONFIG_VIRTIO_MMIO=y\nCONFIG_VIRTIO_BLK=y\n' >"$tmp/frag.config"
expect_fail "a config option that does not stick fails the build" \
	'CONFIG_VIRTIO_BLK=y, got absent' \
	env LAB_KERNEL_STEPS=config "$build" "$tmp/frag.config" "$tmp/obj"

# Several fragments (the debug kernel's lab.config:debug.config): a later
# line for an option wins, and the check expects what was asked last.
printf 'CONFIG_BLOCK=y\nCONFIG_BLK_DEV=y\nCONFIG_VIRTIO_MENU=y\nCONFIG_VIRTIO_MMIO=y\nCONFIG_VIRTIO_BLK=y\n' >"$tmp/base.config"
printf '# CONFIG_VIRTIO_BLK is not set\n' >"$tmp/override.config"
check "fragments merge in order, a later line for an option winning" \
	sh -c "env LAB_KERNEL_STEPS=config '$build' '$tmp/base.config:$tmp/override.config' '$tmp/merged' >/dev/null 2>&1 &&
	       grep -qx 'CONFIG_VIRTIO_MMIO=y' '$tmp/merged/.config' &&
	       grep -qx '# CONFIG_VIRTIO_BLK is not set' '$tmp/merged/.config'"
expect_fail "a missing fragment of a list is named" \
	"no config fragment $tmp/missing.config" \
	env LAB_KERNEL_STEPS=config "$build" "$tmp/base.config:$tmp/missing.config" "$tmp/merged"

sed 's/^LINUX_SOURCE_VERSION.*/LINUX_SOURCE_VERSION := 6.12.0-0~no.such.version/' \
	"$LAB_TOP/lab/versions.mk" >"$tmp/versions.mk"
expect_fail "an uninstallable pinned kernel version is named" \
	'version 6.12.0-0~no.such.version is not installable' \
	env LAB_VERSIONS="$tmp/versions.mk" "$LAB_TOP/lab/deps.sh" host

# The lab's own config: every fragment line is in the final .config.
missing=$(grep -E '^CONFIG_' "$LAB_TOP/lab/kernel/lab.config" |
	while IFS= read -r l; do grep -qxF "$l" "$KOBJ/.config" || echo "$l"; done)
check "every line of lab/kernel/lab.config is in the built .config${missing:+ (missing: $missing)}" \
	[ -z "$missing" ]
check "the built kernel is the pinned Debian version ($(make_var LINUX_SOURCE_VERSION))" \
	grep -qx "$(make_var LINUX_SOURCE_VERSION)" "$KSRC/.git/lab-source-version"

# Leave the tree as the build wants it: the real series applied.
check "the real series (patches/series) applies again afterwards" \
	env LAB_KERNEL_STEPS=apply "$build"
tests_done
