#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Energy ratio and late activations of one run, on one line.
# Usage: lab/behaviour/score.sh PLATFILE EVENTS RUN_ID PROFILE RTAPP_LOGDIR
# (lab/analysis/behaviour.py score: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/../analysis/behaviour.py" score "$@"
