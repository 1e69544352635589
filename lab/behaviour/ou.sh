#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The over-utilization scenario of one run, on one line.
# Usage: lab/behaviour/ou.sh EVENTS RUN_ID PROFILE 'LITTLES' 'BIGS'
# (lab/analysis/behaviour.py ou: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/../analysis/behaviour.py" ou "$@"
