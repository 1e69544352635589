# SPDX-License-Identifier: GPL-2.0-only
"""What the report scripts of lab/analysis share on the command line: a
parser that refuses a bad command line with the usage and status 2, as
every lab command does (tests/host/cli.sh), and the printing of a report
to a reader that may stop early (| head) without a traceback."""

import argparse
import os
import sys


class Parser(argparse.ArgumentParser):
    """argparse, with status 2 and the usage on stderr for a bad command line."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def print_report(text):
    """TEXT on stdout; a reader that stopped early is not an error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # None again when Python flushes stdout on its way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
