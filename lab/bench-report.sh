#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The benchmark's report, from what lab/bench left in DIR:
# DIR/report.md (the seed's tables with mean, RSD, % vs none, each policy
# against 6.12's EAS and against the optimum on the meter's model, where the
# energy went, the targets met or missed and by how much), one plot per
# platform (DIR/energy-PLATFORM.png, energy against N per policy),
# DIR/verdict.json (each target met, missed or not resolved, with its
# evidence), and the report printed.  DIR/notes.md, when present (a
# human's analysis of a run, with trace evidence), is appended to the
# report.
#
# Usage: lab/bench-report.sh DIR
# (lab/analysis/bench.py, which writes it: see its --help)
exec /usr/bin/python3 "$(dirname -- "$0")/analysis/bench.py" "$@"
