#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The series' kernel quality gates (lab/kernel/check-series.sh): applies,
# bisectable build, checkpatch --strict, commit messages, sparse; and one
# run of them at a time.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

gates=$LAB_TOP/lab/kernel/check-series.sh
# A second run while one holds the gates' lock is refused at once.
expect_fail "a second check-series.sh is refused while one runs" \
	'another lab/kernel/check-series.sh is running' \
	flock "$GATES_LOCK" "$gates"
exec "$gates"
