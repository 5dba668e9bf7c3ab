"""Percentiles and flow-size buckets: the one definition of each that roce_lab's analyses use.

Percentiles are nearest-rank, as summary.json's (roce-run): the p-th percentile of n sorted
values is the ceil(p/100 n)-th smallest (the smallest for p = 0). percentile() is that, and
keeps one other rule by name for the node_effects tables, which have printed it from the
start: "rounded-index", the value at index round(q (n - 1)) (Python's round, half to even).

Flow-size buckets are summary.json's "by_size" ones: bytes, KB = 1000 B, upper bounds
inclusive: 0-10KB, 10KB-100KB, 100KB-1MB, 1MB+.
"""

import math

# (largest size in bytes, or None for no bound; name), in order.
BUCKETS = [(10_000, "0-10KB"), (100_000, "10KB-100KB"), (1_000_000, "100KB-1MB"), (None, "1MB+")]
BUCKET_NAMES = [name for _, name in BUCKETS]

NEAREST_RANK = "nearest-rank"
ROUNDED_INDEX = "rounded-index"


def bucket_index(size):
    """The index in BUCKETS of the bucket of a flow of SIZE bytes."""
    for i, (limit, _) in enumerate(BUCKETS):
        if limit is None or size <= limit:
            return i
    return len(BUCKETS) - 1


def bucket_name(size):
    """The name of the bucket of a flow of SIZE bytes ("0-10KB", ...)."""
    return BUCKETS[bucket_index(size)][1]


def nearest_rank(sorted_values, percent):
    """The PERCENT-th (0..100) nearest-rank percentile of SORTED_VALUES (ascending); NaN
    when there are none."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(percent / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def percentile(values, percent, method=NEAREST_RANK):
    """The PERCENT-th (0..100) percentile of VALUES (any order); NaN when there are none.
    METHOD: NEAREST_RANK (summary.json's) or ROUNDED_INDEX (see the module's text)."""
    if not values:
        return float("nan")
    values = sorted(values)
    if method == NEAREST_RANK:
        return nearest_rank(values, percent)
    if method == ROUNDED_INDEX:
        q = percent / 100
        return values[min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))]
    raise ValueError("percentile: no method %r (%s, %s)" % (method, NEAREST_RANK, ROUNDED_INDEX))


def describe(values, stats):
    """{stat: value} of VALUES for each name in STATS: "mean", or "pNN" (the NN-th
    nearest-rank percentile, e.g. "p99", "p99.9"); None for each when there are no values."""
    if not values:
        return {s: None for s in stats}
    v = sorted(values)
    out = {}
    for s in stats:
        out[s] = sum(v) / len(v) if s == "mean" else nearest_rank(v, float(s[1:]))
    return out
