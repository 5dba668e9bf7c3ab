#!/usr/bin/env python3
"""Fail on ns-3 API the modules may not use: what only ns-3.36/3.37 accept (a ctest).

The modules and the programs CI builds inside ns-3 trees (doc/usage.md, "Using the
modules elsewhere") must compile against ns-3.35, 3.36 and 3.37. Two constructs compile against
Debian's 3.37 only, so the standalone build cannot catch them:
  - an ns3::Callback built from a lambda (3.37): Callback<...>([...]...), SomeCallback([...]);
  - a lambda passed to Simulator::Schedule* (3.36: ns-3.35's MakeEvent takes no functor);
  - MakeCallback(&Class::Method, object, boundArgs...) (3.37: before, MakeCallback takes the
    method and its object only, and MakeBoundCallback binds arguments to free functions).
Use MakeCallback/MakeBoundCallback and member or free functions instead.

    python3 test/ns3_api_compat.py [ROOT]     (exit status 1 and file:line for each use)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
# What a tree builds: the modules, and the programs copied into it.
FILES = ["contrib/*/model/**/*", "contrib/*/helper/**/*", "scratch/roce-run.cc", "scratch/log-notice.h",
         "examples/*.cc"]

SCHEDULE = re.compile(r"Simulator::(?:Schedule|ScheduleNow|ScheduleWithContext|ScheduleDestroy)\s*\(")
# A callback type (Callback<...> or a name ending in Callback) constructed from a lambda.
CALLBACK_FROM_LAMBDA = re.compile(r"\b(?:Callback\s*<[^;{}]*?>|\w*Callback)\s*[({]\s*\[")
MAKE_CALLBACK = re.compile(r"\bMakeCallback\s*\(")
LAMBDA = re.compile(r"\[[^\[\]]*\]\s*(?:\([^()]*\))?\s*(?:mutable\s*)?\{")


def arguments(text, start):
    """The text of a call's arguments, from just after its '('."""
    depth, i = 1, start
    while depth and i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return text[start:i]


def top_level_commas(args):
    """The commas between a call's arguments (not those inside brackets or templates)."""
    depth, commas = 0, 0
    for ch in args[:-1]:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
    return commas


def findings(path):
    text = path.read_text()
    line = lambda pos: text.count("\n", 0, pos) + 1  # noqa: E731
    for m in SCHEDULE.finditer(text):
        if LAMBDA.search(arguments(text, m.end())):
            yield line(m.start()), "lambda passed to Simulator::Schedule (ns-3 >= 3.36 only)"
    for m in MAKE_CALLBACK.finditer(text):
        if top_level_commas(arguments(text, m.end())) > 1:
            yield line(m.start()), "MakeCallback with bound arguments (ns-3 >= 3.37 only)"
    for m in CALLBACK_FROM_LAMBDA.finditer(text):
        yield line(m.start()), "ns3::Callback built from a lambda (ns-3 >= 3.37 only)"


def main():
    bad = []
    for pattern in FILES:
        for path in sorted(ROOT.glob(pattern)):
            if path.suffix in (".cc", ".h"):
                bad += [f"{path.relative_to(ROOT)}:{n}: {why}" for n, why in findings(path)]
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("ns-3 API common to 3.35, 3.36 and 3.37: ok")


if __name__ == "__main__":
    main()
