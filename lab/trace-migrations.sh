#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How the tasks of one name moved between CPU classes and why, from a
# traced run (lab/run -t, or -e with sched_migrate_task, sched_switch,
# sched_wakeup and sched_waking; sched_overutilized_sd and
# sched_overutilized_rd add the domains flagged at each move): moves by
# the classes of the two CPUs and by cause (active balance, wake-up,
# balance), and each domain's flagged share of the trace.
#
# Usage: lab/trace-migrations.sh DIR [COMM]   (COMM default: small, the
#        name of the benchmark's rt-app tasks)
#        lab/trace-migrations.sh --report FILE --capacity LIST [COMM]
# (lab/analysis/migrations.py, which writes it: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/analysis/migrations.py" "$@"
