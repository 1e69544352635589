#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The repository's own code meets its standards: every shell script
# passes ShellCheck, the C host tools build with -Wall -Wextra -Werror.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
cd "$LAB_TOP"

scripts=$(git ls-files -co --exclude-standard | while read -r f; do
	if [ -f "$f" ] && head -n 1 "$f" | grep -q '^#!/bin/sh'; then
		echo "$f"
	fi
done; echo lab/lib.sh tests/lib.sh)
for f in $scripts; do
	if out=$(shellcheck -s sh "$f" 2>&1); then
		ok "shellcheck $f"
	else
		not_ok "shellcheck $f"
		echo "$out" | head -n 20 | sed 's/^/    /'
	fi
done

# Lab kernel C: kernel coding style, checked on the lab-only patches.
checkpatch=$KSRC/scripts/checkpatch.pl
for p in lab/kernel/lab-patches/*.patch; do
	# On stdin: checkpatch checks a file git tracks as a source file.
	if out=$(perl "$checkpatch" --strict --no-tree --quiet - <"$p" 2>&1); then
		ok "checkpatch --strict ${p#lab/kernel/}"
	else
		not_ok "checkpatch --strict ${p#lab/kernel/}"
		echo "$out" | head -n 20 | sed 's/^/    /'
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check "platgen builds with gcc -std=c11 -Wall -Wextra -Werror" \
	gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$tmp/platgen" tools/platgen/*.c
