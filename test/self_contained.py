#!/usr/bin/python3
"""The repository stands alone: no tracked file names a folder beside the checkout
(../shared, or a shared/bench, shared/sonic-samples ... folder reached some other way) or a
path of one machine (/work/..., /home/..., /root/..., /Users/...). Tests, shipped
configurations and documented commands read only what the repository holds: test data is
under test/data/, the benchmark inputs under bench/, flow-size CDFs under traces/.

The one exception is the CI step that builds our modules inside ns-3 source trees
(.ci/ci-tree-check.sh): ns-3's release tarballs are not shipped, and CI keeps them in
../shared/ns-3-sources; that name may appear.

Run by ctest (repository-self-contained); prints each offending file:line. Files are those
`git ls-files` lists, or, outside a git checkout, every file under the top folder except
build and output folders. .ci/run also runs the tests in a clone of the repository that
has no sibling folder (.ci/ci-clone-check.sh).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELF = os.path.relpath(os.path.abspath(__file__), ROOT)

# Built from pieces so that this file does not match itself.
SIBLING = re.compile(rb"\.\./" + rb"shared\b|(?<![\w.-])shared/(?:bench|sonic-samples|seeds|"
                     rb"design|workloads|hooks)\b")
MACHINE = re.compile(rb"(?<![\w.~$-])/(?:" + rb"work|home|root|Users)/")
ALLOWED = re.compile(rb"\.\./" + rb"shared/ns-3-sources\b")
SKIP_DIRS = {".git", "build", "results", "out", "__pycache__"}


def tracked_files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build-")]
            found += [os.path.relpath(os.path.join(top, f), ROOT) for f in files]
        return found


def offending_lines(path):
    """(line number, line) of each line of a file that names a sibling folder or a
    machine path, other than the allowed ns-3 source tarballs' folder."""
    try:
        with open(os.path.join(ROOT, path), "rb") as f:
            data = f.read()
    except OSError:
        return []
    found = []
    for number, line in enumerate(data.split(b"\n"), 1):
        rest = ALLOWED.sub(b"", line)
        if SIBLING.search(rest) or MACHINE.search(rest):
            found.append((number, line.decode("utf-8", "replace").strip()[:160]))
    return found


def main():
    files = [f for f in tracked_files() if f != SELF]
    bad = [(f, n, text) for f in files for n, text in offending_lines(f)]
    for f, n, text in bad:
        print(f"{f}:{n}: {text}")
    if bad:
        print(f"{len(bad)} line(s) name a folder outside the repository or a machine path; "
              "bring the data into the repository (test/data/, bench/, traces/) and name it "
              "relative to the file that reads it", file=sys.stderr)
        return 1
    print(f"{len(files)} tracked files: none names ../shared (other than "
          "../shared/ns-3-sources, the CI tree builds' tarballs) or a machine path")
    return 0


if __name__ == "__main__":
    sys.exit(main())
