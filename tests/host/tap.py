# SPDX-License-Identifier: GPL-2.0-only
"""The host test modules' runner: one "ok - " or "not ok - " line per test,
as make check counts them (tests/run.sh), and status 1 when one fails, so a
module run on its own says what make check would."""

import io
import sys
import unittest


class TapResult(unittest.TextTestResult):
    """Each outcome as a line, recorded by the parent too (for the status)."""

    prefix = ""

    def _name(self, test):
        return f"{self.prefix}: {test.__class__.__name__}.{test._testMethodName}"

    def addSuccess(self, test):
        super().addSuccess(test)
        print(f"ok - {self._name(test)}")

    def _fail(self, test, err, kind, sub=""):
        print(f"not ok - {self._name(test)}{sub} ({kind})")
        for ln in self._exc_info_to_string(err, test).splitlines()[-12:]:
            print(f"    {ln}")

    def addFailure(self, test, err):
        self._fail(test, err, "failed")
        super().addFailure(test, err)

    def addError(self, test, err):
        self._fail(test, err, "error")
        super().addError(test, err)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            kind = "failed" if issubclass(err[0], test.failureException) else "error"
            self._fail(test, err, kind, " " + subtest._subDescription())
        super().addSubTest(test, subtest, err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print(f"ok - {self._name(test)} # skip {reason}")


def run(module, prefix):
    """Run MODULE's tests, each line named after PREFIX; exit with the status."""
    result_class = type("Result", (TapResult,), {"prefix": prefix})
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = unittest.TextTestRunner(stream=io.StringIO(),
                                     resultclass=result_class).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
