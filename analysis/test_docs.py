#!/usr/bin/python3
"""The doc check: every command that README.md, doc/*.md and the module docs
(contrib/*/doc/*.md) show is extracted (lines of fenced blocks, and inline `./roce-lab ...`,
`build/bin/...`, `analysis/*.py ...` and `python3 ...` spans) and checked:

* the program exists: a ./roce-lab subcommand, a built program of scratch/ or examples/, an
  analysis script (executable when the doc runs it directly);
* the files it names exist (paths under results/ or out/ are outputs of an earlier command;
  upper-case names such as CONFIG.json or DIR are placeholders);
* its flags parse: each --flag is one the program's --help lists (ns-3 CommandLine programs,
  argparse scripts, ./roce-lab subcommands), --ns3::Type::Attr=v names a registered
  attribute, and ./roce-lab test -R PATTERN selects at least one ctest test;
* a dry run where one exists: ./roce-lab run/bench CONFIG --set ... loads the config with
  its edits (roce_lab prepare), ./roce-lab sweep FILE expands (roce_lab expand);
* a fenced block preceded by the line "<!-- doc-check: run -->" is run as written, in a
  scratch directory that links the checkout's top-level entries (so results/ lands there),
  and must exit 0; a ```python block so marked is run by python3 there (its "import
  roce_lab" as the doc shows it). A block preceded by "<!-- doc-check: output -->" must be
  what the marked block before it printed on stdout (trailing blanks aside), so an output
  a doc shows is the one the command gives. The lone-WRITE figure of reproduce.md is
  compared with the run's flows.csv.

Commands it cannot check (an ns-3 source tree, MPI, a user's own file) are listed in the
output with the reason. Run by ctest (doc-check) with ROCE_LAB_BUILD_DIR set to the build
directory and ROCE_LAB_TEST_DIR to a scratch directory.
"""

import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("ROCE_LAB_BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD, "bin")
WORK = os.environ.get("ROCE_LAB_TEST_DIR", "/tmp/roce-lab-test-docs")

PROGRAM = re.compile(r"^(\./roce-lab|build/bin/|build/mpi/|/usr/bin/python3 |python3 |"
                     r"analysis/[a-z_]+\.py|mpirun |cmake |cd |ln |make )")
INLINE = re.compile(r"`((?:\./roce-lab|build/bin/|/usr/bin/python3 |python3 analysis/|"
                    r"analysis/[a-z_]+\.py)[^`]*)`")
RUN_MARK = "<!-- doc-check: run -->"
OUTPUT_MARK = "<!-- doc-check: output -->"
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)
# Needs what the doc check does not have: an ns-3 source tree, an MPI build, a cluster.
NOT_CHECKED = {"cmake": "builds against an ns-3 source tree", "cd": "changes into an ns-3 tree",
               "ln": "links into an ns-3 tree", "make": "a build command",
               "ctest": "runs a test build made against an ns-3 tree (.ci/ci-tree-check.sh)",
               "mpirun": "needs the MPI build (./roce-lab setup --mpi; .ci/ci-mpi-check.sh)"}
SUBCOMMANDS = ["run", "check", "sweep", "plot", "by-size", "list", "doc", "test", "fuzz", "bench", "build", "setup",
               "format", "help"]


def doc_files():
    return (["README.md"] + sorted(glob.glob("doc/*.md", root_dir=ROOT))
            + sorted(glob.glob("contrib/*/doc/*.md", root_dir=ROOT)))


def commands(path):
    """(line number, command text, run) of every command the doc shows; run is True for
    the lines of a block marked RUN_MARK."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    found = []
    fence = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
    for m in fence.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        run = bool(before) and before[-1].strip() == RUN_MARK
        line_no = text.count("\n", 0, m.start()) + 2
        pending, start = "", None
        for i, line in enumerate(m.group(1).splitlines()):
            if pending:
                line = pending + " " + line.strip()
            elif not PROGRAM.match(line.strip()):
                continue
            else:
                start = line_no + i
            if line.rstrip().endswith("\\"):
                pending = line.rstrip()[:-1]
                continue
            pending = ""
            found.append((start, line.strip(), run))
    for m in INLINE.finditer(text):
        found.append((text.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split()), False))
    return found


def fenced_blocks(path):
    """(line of its first line, language, text, the doc-check mark on the line before it
    or "") of every fenced block of a doc."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    found = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        mark = before[-1].strip() if before and before[-1].strip() in (RUN_MARK,
                                                                      OUTPUT_MARK) else ""
        found.append((text.count("\n", 0, m.start()) + 2, m.group(1), m.group(2), mark))
    return found


def normalized(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def split(command):
    """The command's words, comments dropped, split into commands at && (shell words)."""
    words = shlex.split(command, comments=True)
    parts, current = [], []
    for w in words:
        if w in ("&&", ";"):
            parts.append(current)
            current = []
        else:
            current.append(w)
    parts.append(current)
    return [p for p in parts if p]


def placeholder(word):
    """CONFIG.json, DIR, DIR..., SWEEP.json, N, TABLE, ns3::Type, a user's my.json ..."""
    base = word.rstrip(".").split("/")[-1]
    stem = base.rsplit(".", 1)[0] if base.endswith((".json", ".png", ".csv")) else base
    return (bool(re.fullmatch(r"[A-Z][A-Z0-9_-]*", stem)) or word in ("ns3::Type",
            "ns3::Type::Attribute") or re.fullmatch(r"my[-.\w]*\.json", base) is not None)


def is_output(word):
    return word.startswith(("results/", "out/", "results-", "/tmp/"))


def looks_like_path(word):
    return ("/" in word and not word.startswith(("-", "/usr/bin/", "ns3::"))
            and re.fullmatch(r"[\w./{},*-]+", word) is not None
            and not re.fullmatch(r"(/[\w~-]+)+", word))  # a JSON pointer such as /cc/type


_help_cache = {}


def help_text(argv):
    key = tuple(argv)
    if key not in _help_cache:
        r = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60)
        _help_cache[key] = (r.returncode, r.stdout + r.stderr)
    return _help_cache[key]


def python_with_matplotlib():
    for exe in ("/usr/bin/python3", sys.executable):
        if os.access(exe, os.X_OK) and subprocess.run(
                [exe, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return exe
    return sys.executable


def mentions(text, flag):
    """The help text lists the option itself (--job is not --jobs)."""
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(flag), text) is not None


def flags_of(words):
    """The --flag names of a command (without values; [optional] brackets removed)."""
    names = []
    for w in words:
        w = w.strip("[]")
        if w.startswith("--"):
            names.append(w.split("=", 1)[0])
        elif re.fullmatch(r"-[a-zA-Z]", w):
            names.append(w)
    return names


def check_attribute(flag):
    """--ns3::Type::Attr names a registered attribute (roce-doc)."""
    code, _ = help_text([os.path.join(BIN, "roce-doc"), flag[2:]])
    return None if code == 0 else "%s: not a registered attribute (roce-doc %s)" % (flag,
                                                                                    flag[2:])


def check_files(words, skip_first):
    problems = []
    for i, w in enumerate(words):
        if i < skip_first:
            continue
        w = w.strip("[]")
        value = w.split("=", 1)[1] if w.startswith("-") and "=" in w else w
        if w.startswith("-") and "=" not in w:
            continue
        prev = words[i - 1].strip("[]") if i else ""
        if prev in ("--out", "-o", "--csv") or w.startswith(("--out=", "-o=", "--csv=")):
            continue
        for alt in value.split("|"):
            if (not looks_like_path(alt) or placeholder(alt) or is_output(alt)
                    or alt.startswith("build/")):
                continue
            if not os.path.exists(os.path.join(ROOT, alt)):
                problems.append("%s: no such file" % alt)
    return problems


class Checker:
    def __init__(self):
        self.unchecked = []

    def check(self, words):
        """Problems with one command (a list of words); [] if it checks out. Adds the
        commands it cannot check to self.unchecked."""
        prog = words[0]
        if prog in NOT_CHECKED:
            self.unchecked.append((words, NOT_CHECKED[prog]))
            return []
        if prog in ("python3", "/usr/bin/python3"):
            words = words[1:]
            if not words:
                return ["python3 without a script"]
            return self.check_script(words, direct=False)
        if prog.startswith("analysis/"):
            return self.check_script(words, direct=True)
        if prog == "./roce-lab":
            return self.check_roce_lab(words)
        if prog.startswith("build/mpi/"):
            self.unchecked.append((words, NOT_CHECKED["mpirun"]))
            return []
        if prog.startswith("build/bin/"):
            return self.check_program(words)
        return ["%s: not a program the doc check knows" % prog]

    def check_script(self, words, direct):
        script = words[0]
        path = os.path.join(ROOT, script)
        package = os.path.isfile(os.path.join(path, "__main__.py"))  # analysis/roce_lab
        if not os.path.isfile(path) and not package:
            return ["%s: no such script" % script]
        if direct and not os.access(path, os.X_OK):
            return ["%s: run directly by the doc but not executable" % script]
        problems = check_files(words, 1)
        sub = []
        if len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*(\|[a-z][a-z-]*)*", words[1]):
            sub = words[1].split("|")
        for s in sub or [None]:
            argv = [python_with_matplotlib(), path] + ([s] if s else []) + ["--help"]
            code, text = help_text(argv)
            if code != 0:
                problems.append("%s --help failed: %s" % (" ".join(argv[1:]), text[-300:]))
                continue
            for flag in flags_of(words[1:]):
                if not mentions(text, flag):
                    problems.append("%s: no option %s (%s --help)" % (script, flag,
                                                                      " ".join(argv[1:-1])))
        return problems

    def check_program(self, words):
        name = words[0][len("build/bin/"):]
        if not name:
            return []  # the directory itself
        binary = os.path.join(BIN, name)
        if not os.access(binary, os.X_OK):
            return ["%s: no such program in %s" % (name, BIN)]
        problems = check_files(words, 1)
        code, text = help_text([binary, "--PrintHelp"])
        options = set(re.findall(r"^\s+(--[\w-]+)", text, re.M))
        for flag in flags_of(words[1:]):
            if flag.startswith("--ns3::"):
                p = check_attribute(flag)
                if p:
                    problems.append(p)
            elif flag not in options:
                problems.append("%s: no option %s (%s --PrintHelp: %s)"
                                % (name, flag, name, " ".join(sorted(options))))
        return problems

    def check_roce_lab(self, words):
        while len(words) > 1 and words[1] in ("-v", "--verbose"):  # ./roce-lab -v build
            words = words[:1] + words[2:]
        if len(words) == 1:
            return []
        sub = words[1]
        if placeholder(sub):
            self.unchecked.append((words, "a placeholder subcommand"))
            return []
        if sub not in SUBCOMMANDS:
            return ["./roce-lab: no subcommand %s" % sub]
        problems = check_files(words, 2)
        code, text = help_text([os.path.join(ROOT, "roce-lab"), sub, "--help"])
        rest = words[2:]
        if sub == "test":
            # ctest arguments: -R PATTERN must select tests.
            for i, w in enumerate(rest):
                if w == "-R" and i + 1 < len(rest):
                    r = subprocess.run(["ctest", "-N", "-R", rest[i + 1]], cwd=BUILD,
                                       capture_output=True, text=True)
                    m = re.search(r"Total Tests: (\d+)", r.stdout)
                    if not m or int(m.group(1)) == 0:
                        problems.append("./roce-lab test -R %s selects no test" % rest[i + 1])
            return problems
        if sub in ("run", "check", "bench", "sweep"):
            problems += self.dry_run(sub, rest)
        if sub == "doc":
            for i, w in enumerate(rest):
                if i and rest[i - 1] == "--search" and not placeholder(w):  # must find some
                    c, t = help_text([os.path.join(BIN, "roce-doc"), "--search=" + w])
                    if c != 0:
                        problems.append("./roce-lab doc --search %s: nothing found" % w)
                elif not w.startswith("-") and not placeholder(w):
                    c, t = help_text([os.path.join(BIN, "roce-doc"), w])
                    if c != 0:
                        problems.append("./roce-lab doc %s: %s" % (w, t.strip()[-200:]))
        for flag in flags_of(rest):
            if flag.startswith("--ns3::"):
                p = check_attribute(flag)
                if p:
                    problems.append(p)
            elif not mentions(text, flag):
                problems.append("./roce-lab %s: no option %s (./roce-lab %s --help)"
                                % (sub, flag, sub))
        return problems


    def dry_run(self, sub, rest):
        """run/check/bench: the config and its --set edits load (roce_lab prepare); sweep:
        the sweep file expands (roce_lab expand). Placeholders are skipped."""
        files = [w for w in rest if not w.startswith("-") and w.endswith(".json")]
        if not files or placeholder(files[0]) or is_output(files[0]):
            return []
        tool = [sys.executable, os.path.join(HERE, "roce_lab")]
        if sub == "sweep":
            argv = tool + ["expand", files[0]]
        else:
            sets = []
            for i, w in enumerate(rest):
                if w == "--set" and i + 1 < len(rest):
                    sets += ["--set", rest[i + 1]]
                elif w.startswith("--set="):
                    sets += ["--set", w[len("--set="):]]
            out = os.path.join(WORK, "dry-run")
            argv = tool + ["prepare", files[0], out] + sets
        r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            return ["dry run failed (%s): %s" % (" ".join(argv[1:]), r.stderr.strip()[-300:])]
        return []


def sandbox(name):
    """A directory with the checkout's top-level entries linked in (build as BUILD)."""
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for entry in os.listdir(ROOT):
        if entry in (".git", "results", "out", "build"):
            continue
        os.symlink(os.path.join(ROOT, entry), os.path.join(d, entry))
    os.symlink(BUILD, os.path.join(d, "build"))
    return d


class DocCommands(unittest.TestCase):
    def test_every_command_checks_out(self):
        checker = Checker()
        failures, checked = [], 0
        for doc in doc_files():
            for line, command, _ in commands(doc):
                where = "%s:%d: %s" % (doc, line, command)
                try:
                    parts = split(command)
                except ValueError as e:
                    failures.append("%s: cannot split into words (%s)" % (where, e))
                    continue
                for words in parts:
                    checked += 1
                    for problem in checker.check(words):
                        failures.append("%s\n    %s" % (where, problem))
        print("doc check: %d commands in %d docs; not checked:" % (checked, len(doc_files())))
        for words, why in checker.unchecked:
            print("  %s  (%s)" % (" ".join(words), why))
        self.assertGreater(checked, 50)
        self.assertEqual(failures, [], "\n" + "\n".join(failures))

    def test_checker_catches_drift(self):
        # The check can fail: a missing config, an unknown flag, a test pattern that
        # selects nothing, a script that is not executable.
        c = Checker()
        self.assertTrue(c.check(["build/bin/dcqcn-regional", "configs/nope.json"]))
        self.assertTrue(c.check(["build/bin/dcqcn-regional", "--warm-up=1ms"]))
        self.assertTrue(c.check(["./roce-lab", "test", "-R", "NoSuchTestAnywhere"]))
        self.assertTrue(c.check(["./roce-lab", "sweep", "x.json", "--job", "2"]))
        self.assertTrue(c.check(["analysis/roce_lab.py", "gather", "x.json"]))
        self.assertTrue(c.check(["./roce-lab", "run", "configs/dumbbell-small.json",
                                 "--set", "/flows/7/bytes=1"]))
        self.assertTrue(c.check(["./roce-lab", "sweep", "configs/dumbbell-small.json"]))
        self.assertTrue(c.check(["build/bin/roce-run", "--ns3::RdmaDcqcn::NoSuchAttr=1"]))
        self.assertEqual(c.check(["build/bin/dcqcn-regional",
                                  "configs/regional-small.json", "--window=1ms"]), [])

    def test_marked_blocks_run(self):
        env = dict(os.environ, ROCE_LAB_NO_BUILD="1", ROCE_LAB_BUILD_DIR=BUILD,
                   PATH="/usr/bin:" + os.environ.get("PATH", ""))
        ran = compared = 0
        for doc in doc_files():
            if not any(mark == RUN_MARK for _, _, _, mark in fenced_blocks(doc)):
                continue
            cwd = sandbox("run-" + os.path.basename(doc).replace(".md", ""))
            r, c = self.run_blocks(doc, cwd, env)
            ran, compared = ran + r, compared + c
            if doc.endswith("reproduce.md"):
                self.check_lone_write(doc, cwd)
        self.assertGreaterEqual(ran, 3)
        print("doc check: %d marked commands run, %d outputs compared" % (ran, compared))

    def test_shown_output_must_match(self):
        # An output block that is not what its block printed fails the check (the first
        # matches; trailing blanks do not count).
        doc = os.path.join(WORK, "drift.md")
        with open(doc, "w") as f:
            f.write("%s\n```sh\npython3 -c 'print(6 * 7)'\n```\n%s\n```text\n42\n```\n"
                    "%s\n```python\nprint('a  ')\n```\n%s\n```text\nb\n```\n"
                    % (RUN_MARK, OUTPUT_MARK, RUN_MARK, OUTPUT_MARK))
        with self.assertRaises(AssertionError) as ctx:
            self.run_blocks(doc, WORK, dict(os.environ))
        self.assertIn("drift.md:15: the output the doc shows", str(ctx.exception))

    def run_blocks(self, doc, cwd, env):
        """Run DOC's marked blocks in order in CWD and compare the outputs it shows;
        returns (commands run, outputs compared)."""
        ran = compared = 0
        blocks = fenced_blocks(doc)
        run_lines = [(line, c) for line, c, run in commands(doc) if run]
        printed = None
        for start, language, body, mark in blocks:
            end = start + len(body.splitlines())
            if mark == RUN_MARK and language == "python":
                r = subprocess.run([python_with_matplotlib(), "-c", body], cwd=cwd, env=env,
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, "%s:%d: python block\n%s"
                                 % (doc, start, r.stderr[-2000:]))
                printed = r.stdout
                ran += 1
            elif mark == RUN_MARK:
                printed = ""
                for line, command in run_lines:
                    if not start <= line < end:
                        continue
                    r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env,
                                       capture_output=True, text=True, timeout=300)
                    self.assertEqual(r.returncode, 0, "%s:%d: %s\n%s"
                                     % (doc, line, command, r.stderr[-2000:]))
                    printed += r.stdout
                    ran += 1
            elif mark == OUTPUT_MARK:
                self.assertIsNotNone(printed, "%s:%d: an output block before any run "
                                              "block" % (doc, start))
                self.assertEqual(normalized(body), normalized(printed),
                                 "%s:%d: the output the doc shows is not what the block "
                                 "before it printed" % (doc, start))
                compared += 1
        return ran, compared

    def check_lone_write(self, doc, cwd):
        """reproduce.md's lone-WRITE figure is what its command gives."""
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
        section = text[text.index("## Ideal FCT sanity check"):]
        m = re.search(r"WRITE across the idle\s+dumbbell, ([0-9.]+) µs .*? of ([0-9.]+) µs, "
                      r"slowdown ([0-9.]+)", section, re.S)
        self.assertIsNotNone(m, "reproduce.md: the lone-WRITE sentence changed")
        with open(os.path.join(cwd, "results", "lone-write", "flows.csv")) as f:
            rows = f.read().splitlines()
        header = rows[0].split(",")
        self.assertEqual(len(rows), 2, "one flow")
        row = dict(zip(header, rows[1].split(",")))
        self.assertEqual("%.3f" % float(row["fct_us"]), m.group(1))
        self.assertEqual("%.3f" % float(row["ideal_fct_us"]), m.group(2))
        self.assertEqual("%.4f" % float(row["slowdown"]), m.group(3))


class SweepHelp(unittest.TestCase):
    def test_example_pointers_resolve_in_its_base(self):
        r = subprocess.run([os.path.join(ROOT, "roce-lab"), "sweep", "--help"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stdout
        example = text[text.index("{"):text.index("}\n", text.index("\"out\"")) + 1]
        spec = json.loads(example)
        base = os.path.normpath(os.path.join(ROOT, "configs", "sweeps", spec["base"]))
        self.assertTrue(os.path.isfile(base), base)
        with open(base) as f:
            config = json.load(f)
        for pointer in list(spec.get("set", {})) + list(spec["grid"]):
            node = config
            for token in pointer.split("/")[1:]:
                token = token.replace("~1", "/").replace("~0", "~")
                if isinstance(node, list):
                    self.assertTrue(token.isdigit() and int(token) < len(node), pointer)
                    node = node[int(token)]
                else:
                    self.assertIn(token, node, "%s: %s does not resolve in %s"
                                  % ("sweep --help", pointer, base))
                    node = node[token]


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main()
