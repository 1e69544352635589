# SPDX-License-Identifier: GPL-2.0-only
"""The statistics of the lab's reports, in one place, so that a mean or an
error bar means the same in every table.

- `mean`, `sd` (sample standard deviation, n - 1), `rsd_pct` (sd over
  mean, in percent): the spread of repeated runs;
- `percentile`: the nearest-rank percentile of a sample;
- `paired`: the difference of two policies run in the same repetition
  (the lab boots each platform once and alternates policies, so a
  repetition's drift of the host cancels out in the difference), with an
  error bar of two standard errors, as lab/rfc_report.py and
  lab/bench-report.sh print it.

Sums are taken in the values' order, as awk sums them, so that a report
ported from awk prints the same digits.
"""

import math
from typing import NamedTuple, Optional


class Paired(NamedTuple):
    """Mean difference over the pairs and its error bar (two standard
    errors; None with fewer than two pairs: one pair has no spread)."""

    mean: float
    two_se: Optional[float]
    n: int


def _values(xs):
    xs = [float(x) for x in xs]
    if not xs:
        raise ValueError("no values")
    return xs


def percentile(xs, q):
    """The q-th percentile (0..100) of XS, nearest rank."""
    s = sorted(xs)
    if not s:
        raise ValueError("no values")
    rank = max(1, math.ceil(q / 100.0 * len(s)))
    return s[rank - 1]


def mean(xs):
    """Arithmetic mean; ValueError on no values."""
    xs = _values(xs)
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs)


def sd(xs):
    """Sample standard deviation (n - 1); 0.0 for a single value, as the
    lab's reports print it."""
    xs = _values(xs)
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def rsd_pct(xs):
    """Relative standard deviation, sd / mean in percent; None when the
    mean is 0."""
    m = mean(xs)
    return None if m == 0 else 100.0 * sd(xs) / m


def paired_text(mean_pct, two_se):
    """A paired difference in percent as the reports print it: "+x.x%
    +-y.y", or "+x.x% (one pair)" when one pair left no error bar."""
    if two_se is None:
        return "%+.1f%% (one pair)" % mean_pct
    return "%+.1f%% +-%.1f" % (mean_pct, two_se)


def paired(a, b, relative=False):
    """A against B over the keys both have (repetitions): the mean of
    a[k] - b[k], or with RELATIVE of 100 * (a[k] / b[k] - 1) in percent,
    and its error bar.  ValueError when they have no key in common."""
    keys = sorted(set(a) & set(b))
    if not keys:
        raise ValueError("no pair: the two series have no repetition in common")
    if relative:
        if any(b[k] == 0 for k in keys):
            raise ValueError("a relative difference against 0")
        xs = [100.0 * (a[k] / b[k] - 1) for k in keys]
    else:
        xs = [a[k] - b[k] for k in keys]
    two_se = 2 * sd(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None
    return Paired(mean(xs), two_se, len(xs))
