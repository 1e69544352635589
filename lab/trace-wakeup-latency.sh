#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How long wake-ups take to land, on the waker's CPU or queued to another
# CPU's wake list (where the target looks idle with a task in flight),
# from a traced run (lab/run -e sched:sched_waking,sched:sched_wakeup).
#
# Usage: lab/trace-wakeup-latency.sh DIR [COMM]   (COMM default: every task)
#        lab/trace-wakeup-latency.sh --report FILE [COMM]
# (lab/analysis/wakeup_latency.py, which writes it: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/analysis/wakeup_latency.py" "$@"
