# SPDX-License-Identifier: GPL-2.0-only
"""What the report scripts of lab/analysis share on the command line: a
parser that refuses a bad command line with the usage and status 2, as
every lab command does (tests/host/cli.sh), the printing of a report to a
reader that may stop early (| head) without a traceback, and the main() of
a script that turns one results directory into DIR/report.md."""

import argparse
import os
import shutil
import sys

from analysis import trace


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


def report_main(argv, prog, description, dir_help, make_report, errors):
    """The main() of a report script.  MAKE_REPORT(DIR) returns (text,
    files, failure): report.md's text, {name: text} of further files to
    write into DIR, and None or the reason the run it reports failed.  A
    report that cannot be made (one of ERRORS) is one message and status 1;
    a failed run is written and printed, then one message and status 1."""
    ap = Parser(prog=prog, description=description)
    ap.add_argument("dir", metavar="DIR", help=dir_help)
    args = ap.parse_args(argv)
    try:
        text, files, failure = make_report(args.dir)
    except errors as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    for name, content in {"report.md": text, **files}.items():
        with open(os.path.join(args.dir, name), "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write(content)
    print_report(text)
    if failure:
        print(f"{prog}: {failure}", file=sys.stderr)
        return 1
    return 0


def run_dir_parser(prog, description, dir_help, report_help):
    """The parser of a trace script: operands "DIR [COMM]" (DIR_HELP) and
    --report FILE (REPORT_HELP), which run_dir_operands() reads."""
    ap = Parser(prog=prog, description=description)
    ap.add_argument("operands", metavar="DIR [COMM]", nargs="*", help=dir_help)
    ap.add_argument("--report", metavar="FILE", help=report_help)
    return ap


def run_dir_operands(ap, args, default_comm):
    """(DIR, COMM) of a trace script's operands "DIR [COMM]", or (None,
    COMM) of "[COMM]" with --report; a bad count is AP's usage error."""
    ops = args.operands
    if args.report is not None:
        if len(ops) > 1:
            ap.error(f"unexpected argument '{ops[1]}'")
        return None, (ops + [""])[0] or default_comm
    if not ops:
        ap.error("no results directory given")
    if len(ops) > 2:
        ap.error(f"unexpected argument '{ops[2]}'")
    return ops[0], (ops + ["", ""])[1] or default_comm


def run_dir_report(report, run_dir, error, record_hint):
    """The report lines of --report REPORT, or of RUN_DIR/trace.dat
    through trace-cmd; ERROR (an exception class) names what is missing,
    RECORD_HINT how to record a trace."""
    if report is not None:
        return read_report(report)
    dat = os.path.join(run_dir, "trace.dat")
    if not os.path.isfile(dat):
        raise error(f"no trace at {dat}: {record_hint}")
    if shutil.which("trace-cmd") is None:
        raise error("trace-cmd is not installed on the host")
    return trace.report(dat)


def print_or_fail(prog, make_text, errors):
    """A trace script's last step: MAKE_TEXT()'s report on stdout and
    status 0, or one message naming the cause and status 1 when it raises
    one of ERRORS."""
    try:
        text = make_text()
    except errors as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    print_report(text)
    return 0


def read_report(path):
    """The lines of report text in PATH ("-": stdin), as trace.report
    returns them."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise trace.TraceError(f"cannot read {path}: {e.strerror}") from None
    return data.decode(trace.ENCODING, trace.ERRORS).split("\n")
