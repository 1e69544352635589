#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The series' kernel quality gates (lab/kernel/check-series.sh): applies,
# bisectable build, checkpatch --strict, commit messages, sparse.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
exec "$LAB_TOP/lab/kernel/check-series.sh"
