#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The debug-kernel stress (lab/stress, what make stress runs) as a make
# check suite: 20 s of storm per platform instead of 120, the boots at
# once (-j), which halves their wall time on 2 cores.  Its results,
# consoles included, stay in results/stress-<date>-<time>.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
exec "$LAB_TOP/lab/stress" -d 20 -j
