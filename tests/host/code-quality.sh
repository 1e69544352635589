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

# Host analysis in Python: pyflakes (unused names, undefined ones,
# shadowed imports) on every Python file.
# shellcheck disable=SC2046 # file names without blanks
check "pyflakes3 on every Python file ($(git ls-files -co --exclude-standard '*.py' | wc -l) files)" \
	pyflakes3 $(git ls-files -co --exclude-standard '*.py')

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

# Every source file names its license (LICENSE) in its first two lines.
unlicensed=$(git ls-files -co --exclude-standard | while read -r f; do
	[ -f "$f" ] || continue
	case $f in
	*.c | *.h | *.py | *.sh | Makefile | *.mk) ;;
	*) head -n 1 "$f" | grep -q '^#!' || continue ;;
	esac
	head -n 2 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || echo "$f"
done)
check "every source file has an SPDX line for GPL-2.0-only${unlicensed:+ (missing: $(echo "$unlicensed" | xargs))}" \
	[ -z "$unlicensed" ]
check "LICENSE states the terms and carries the GPL-2.0 text" \
	sh -c "grep -q 'GPL-2.0-only' LICENSE && grep -q 'GNU GENERAL PUBLIC LICENSE' LICENSE && grep -q 'Version 2, June 1991' LICENSE"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check "platgen builds with gcc -std=c11 -Wall -Wextra -Werror" \
	gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$tmp/platgen" tools/platgen/*.c
tests_done
