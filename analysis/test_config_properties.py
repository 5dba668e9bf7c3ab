#!/usr/bin/env python3
"""Property-based fuzzing of roce_lab's configuration code (Debian's python3-hypothesis):
JSON pointers, --set values and items, strict JSON, sweep files. Whatever the input, each
function returns or raises UsageError (the documented, located error), never another
exception; pointers round-trip through escaping; a value set at a pointer reads back.

The examples are derandomized (the same inputs on every run, so a CI run does not depend on
the day); explore further with ROCE_LAB_HYPOTHESIS_EXAMPLES=N and
ROCE_LAB_HYPOTHESIS_RANDOM=1."""

import json
import os
import sys
import tempfile
import unittest

# Hypothesis keeps a cache (unicode data) in its storage directory: not in the checkout.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY",
                      os.path.join(tempfile.gettempdir(), "roce-lab-hypothesis"))
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from roce_lab.config import (  # noqa: E402
    UsageError,
    escape_token,
    get_pointer,
    parse_json,
    parse_pointer,
    parse_sets,
    parse_value,
    set_pointer,
)
from roce_lab.sweep import SWEEP_KEYS, Sweep  # noqa: E402

SETTINGS = settings(
    max_examples=int(os.environ.get("ROCE_LAB_HYPOTHESIS_EXAMPLES", "200")),
    deadline=None,
    derandomize=not os.environ.get("ROCE_LAB_HYPOTHESIS_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SCALARS = (st.none() | st.booleans() | st.integers()
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
TOKENS = st.lists(st.text(alphabet="ab~/0-1 ", max_size=4), min_size=1, max_size=4)
# Pointer-like text: mostly well-formed, sometimes not.
POINTERS = TOKENS.map(lambda ts: "/" + "/".join(escape_token(t) for t in ts)) | st.text(max_size=8)


def pointer_of(tokens):
    return "/" + "/".join(escape_token(t) for t in tokens)


class PointerProperties(unittest.TestCase):
    @SETTINGS
    @given(TOKENS)
    def test_escaped_tokens_round_trip(self, tokens):
        self.assertEqual(parse_pointer(pointer_of(tokens), "t"), tokens)

    @SETTINGS
    @given(st.dictionaries(st.text(alphabet="ab~/0-1", max_size=3), JSON_VALUES, max_size=4),
           POINTERS, JSON_VALUES)
    def test_set_then_get_reads_the_value_back(self, doc, pointer, value):
        try:
            set_pointer(doc, pointer, value, "t")
        except UsageError:
            return
        if pointer.endswith("/-"):
            return  # appended to an array: '-' names no element to read back
        self.assertEqual(get_pointer(doc, pointer, "t"), value)

    @SETTINGS
    @given(JSON_VALUES, st.text(max_size=12))
    def test_get_returns_or_refuses(self, doc, pointer):
        try:
            get_pointer(doc, pointer, "t")
        except UsageError:
            pass


class ValueProperties(unittest.TestCase):
    @SETTINGS
    @given(st.text(max_size=24) | JSON_VALUES.map(json.dumps))
    def test_a_set_value_is_json_or_refused(self, text):
        try:
            value = parse_value(text)
        except UsageError:
            return
        json.dumps(value, allow_nan=False)  # a value that parsed is one JSON can write

    @SETTINGS
    @given(st.lists(st.text(max_size=16) | st.tuples(POINTERS, st.text(max_size=8)).map("=".join),
                    max_size=4),
           st.none() | st.integers(min_value=1, max_value=2**32))
    def test_set_items_parse_or_are_refused(self, items, seed):
        try:
            edits = parse_sets(items, seed)
        except UsageError:
            return
        self.assertEqual(len(edits), len(items) + (seed is not None))

    @SETTINGS
    @given(st.text(max_size=40) | JSON_VALUES.map(json.dumps))
    def test_strict_json_round_trips_or_is_refused(self, text):
        try:
            doc = parse_json(text, "f.json")
        except UsageError as e:
            self.assertIn("f.json", str(e))
            return
        self.assertEqual(json.loads(json.dumps(doc, allow_nan=False)), doc)


SWEEP_SPECS = st.dictionaries(
    st.sampled_from(sorted(SWEEP_KEYS)) | st.text(max_size=4),
    JSON_VALUES | st.dictionaries(POINTERS, st.lists(JSON_VALUES, max_size=3), max_size=3),
    max_size=6)


class SweepProperties(unittest.TestCase):
    @SETTINGS
    @given(SWEEP_SPECS, st.booleans())
    def test_a_sweep_file_expands_or_is_refused(self, spec, inline_base):
        if inline_base:
            spec["base"] = {"topology": {"type": "dumbbell", "hosts_per_side": 1}}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sweep.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(spec, f)
            try:
                sweep = Sweep(path, out=os.path.join(d, "out"))
            except UsageError as e:
                self.assertIn(path, str(e))
                return
            self.assertGreaterEqual(len(sweep.runs), 1)
            self.assertFalse(os.path.exists(os.path.join(d, "out")))  # expanding writes nothing


if __name__ == "__main__":
    unittest.main()
