# SPDX-License-Identifier: GPL-2.0-only
# Every version the lab depends on, pinned in one place.
# The kernel tree: Debian's linux-source-6.12 package (bookworm-security).
LINUX_SOURCE_PKG     := linux-source-6.12
LINUX_SOURCE_VERSION := 6.12.118-1~deb12u1
LINUX_SOURCE_TARBALL := /usr/src/linux-source-6.12.tar.xz
# rt-app, rebuilt from Debian's source with lab/guest/rt-app/*.patch: the
# upstream tarball of the rt-app 1.0-1 source package and its SHA-256 (as
# in rt-app_1.0-1.dsc).
RTAPP_SOURCE_VERSION := 1.0-1
RTAPP_ORIG_TARBALL   := rt-app_1.0.orig.tar.gz
RTAPP_ORIG_SHA256    := 7562bd5fea657fec0fdc4e01fc78a3afd332ee8151424dbae4bf7767400259f6
