#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Placement over time of one run: "DURATION_US CPU:UTIL ..." lines.
# Usage: lab/behaviour/segments.sh EVENTS RUN_ID PROFILE
# (lab/analysis/behaviour.py segments: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/../analysis/behaviour.py" segments "$@"
