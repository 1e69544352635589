# SPDX-License-Identifier: GPL-2.0-only
"""What the lab's log-log cost plots share: gnuplot's settings for a cost in
guest instructions against CPUs, and running gnuplot with one error naming
the cause."""

import subprocess


def loglog_cost_header(png_path, title, size="800,560"):
    """gnuplot's lines before the plot command: PNG_PATH, TITLE, log-log
    axes of CPUs and guest instructions, "-" for a missing value."""
    return f"""set terminal pngcairo size {size}
set output "{png_path}"
set title "{title}"
set xlabel "CPUs"
set ylabel "guest instructions"
set logscale xy
set datafile missing "-"
set key left top
set grid
"""


def run_gnuplot(script, error):
    """SCRIPT fed to gnuplot; ERROR (an exception class) raised with the
    cause if gnuplot cannot run or fails."""
    try:
        res = subprocess.run(["gnuplot"], input=script.encode(), check=False)
    except OSError as e:
        raise error(f"gnuplot failed: {e.strerror}") from None
    if res.returncode != 0:
        raise error("gnuplot failed")
