#!/usr/bin/python3
"""Shipped text speaks for itself: no tracked file (configurations, docs, code and its
comments, test data, messages) refers to the project's issue tracker ("issue 17", "Issue
33, defect 6", "issue #4"). A reader of a configuration's description, a doc or a test
cannot open those; say what the thing is, what it does or what went wrong instead.

Run by ctest (no-internal-references); prints each offending file:line. Files are those
`git ls-files` lists, or, outside a git checkout, every file under the top folder except
build and output folders (as test/self_contained.py).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from self_contained import ROOT, tracked_files  # noqa: E402

SELF = os.path.relpath(os.path.abspath(__file__), ROOT)

# Built from pieces so that this file does not match itself.
REFERENCE = re.compile(rb"\b" + rb"issue\s*#?\s*[0-9]+\b", re.IGNORECASE)

# Files another change is rewording at the same time: reported, not failed. Remove an entry
# once its file is clean.
PENDING = set()


def offending_lines(path):
    try:
        with open(os.path.join(ROOT, path), "rb") as f:
            data = f.read()
    except OSError:
        return []
    return [(n, line.decode("utf-8", "replace").strip()[:160])
            for n, line in enumerate(data.split(b"\n"), 1) if REFERENCE.search(line)]


def main():
    files = [f for f in tracked_files() if f != SELF]
    bad = []
    for f in files:
        for n, text in offending_lines(f):
            if f in PENDING:
                print(f"note (pending): {f}:{n}: {text}")
            else:
                bad.append((f, n, text))
    for f, n, text in bad:
        print(f"{f}:{n}: {text}")
    if bad:
        print(f"{len(bad)} line(s) refer to the project's issue tracker; describe the thing "
              "itself (what it is, what it does, what went wrong)", file=sys.stderr)
        return 1
    print(f"{len(files)} tracked files: none refers to an issue by number")
    return 0


if __name__ == "__main__":
    sys.exit(main())
