#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make the DTB a platform boots with: QEMU's own virt DTB (dumped with the
# same machine, -cpu, -smp and -m as the boot), with its cpus node replaced
# by the platform's CPUs, cpu-map, fixed clocks and OPP tables (platgen dts).
#
# Usage: lab/mkdtb.sh PLATFORM OUT.dtb
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 2 ] || die "usage: $0 PLATFORM OUT.dtb"
plat=$(platform_file "$1")
out=$2
load_platform "$plat"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# QEMU merges the -machine options: dumpdtb joins the boot's machine.
# shellcheck disable=SC2046 # machine arguments are words
qemu-system-aarch64 $(qemu_machine_args) -machine dumpdtb="$tmp/virt.dtb" \
	-nodefaults >"$tmp/qemu.log" 2>&1 ||
	die "QEMU could not dump its virt DTB: $(cat "$tmp/qemu.log")"
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb" ||
	die "dtc could not decompile QEMU's DTB"
"$PLATGEN" dts "$plat" >"$tmp/platform.dtsi"
cat "$tmp/virt.dts" "$tmp/platform.dtsi" >"$tmp/board.dts"
dtc -q -I dts -O dtb -o "$out.tmp" "$tmp/board.dts" 2>"$tmp/dtc.log" ||
	die "dtc rejected the generated DTS for $plat: $(head -n 5 "$tmp/dtc.log")"
mv "$out.tmp" "$out"
