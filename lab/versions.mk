# Every version the lab depends on, pinned in one place.
# The kernel tree: Debian's linux-source-6.12 package (bookworm-security).
LINUX_SOURCE_PKG     := linux-source-6.12
LINUX_SOURCE_VERSION := 6.12.118-1~deb12u1
LINUX_SOURCE_TARBALL := /usr/src/linux-source-6.12.tar.xz
