# SPDX-License-Identifier: GPL-2.0-only
"""The lab's host-side analysis of results and traces.

Python 3 with its standard library only, as Debian ships it, so that a
host needs nothing from PyPI.  One module per concern, so that every report
reads its inputs the same way:

  trace      the one reader of trace-cmd's report text and of the events
             format the behaviour tests keep (trace-cmd decodes trace.dat)
  stats      mean, standard deviation, RSD, paired difference
  platform   the one place that reads a platform: platgen's derived model
  behaviour  the behaviour tests' analysis (placement, scores, the
             over-utilization scenario), with the command line that
             lab/behaviour/*.sh run

Modules import each other as `analysis.NAME`: lab/ is on the path, not
this directory, whose trace.py and platform.py would shadow the standard
library's modules of those names.
"""
