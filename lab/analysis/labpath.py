# SPDX-License-Identifier: GPL-2.0-only
"""What the scripts of lab/analysis do first when run as scripts.

Run as a script, a module's own directory comes first on the import
path, and there trace.py and platform.py would shadow the standard
library's modules of the same names: the directory goes, lab/ comes in
its place, and the scripts import their siblings as analysis.NAME.
Bytecode is not written into the source tree.
"""

import os
import sys


def use_lab_path():
    """lab/ first on the path instead of this directory; no bytecode."""
    here = os.path.dirname(os.path.abspath(__file__))
    lab = os.path.dirname(here)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    if lab not in (os.path.abspath(p or ".") for p in sys.path):
        sys.path.insert(0, lab)
    sys.dont_write_bytecode = True
