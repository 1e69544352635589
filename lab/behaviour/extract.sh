#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The events of a behaviour test's trace that the analysis reads.
# Usage: lab/behaviour/extract.sh TRACE.dat >EVENTS
# (lab/analysis/behaviour.py extract: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/../analysis/behaviour.py" extract "$@"
