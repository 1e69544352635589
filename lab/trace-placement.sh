#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Where the tasks of one name ran, from a trace-cmd trace with
# sched_switch (lab/run -t): per CPU, the time they ran and how many of
# them ran there; with the series' sched_overutilized_sd events, the share
# of the trace each sched domain spent overutilized.  Evidence for a
# placement decision (e.g. a benchmark target missed), shorter than the
# raw trace.
#
# Usage: lab/trace-placement.sh TRACE.DAT [COMM]   (COMM default: small,
#        the name of the benchmark's rt-app tasks)
#        lab/trace-placement.sh --report FILE [COMM]   (the text of
#        `trace-cmd report`, - for stdin, instead of a trace)
# (lab/analysis/placement.py, which writes it: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/analysis/placement.py" "$@"
