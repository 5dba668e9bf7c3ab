"""Experiment files: JSON pointers (RFC 6901), --set edits, path fields, input.json.

JSON pointers are RFC 6901 (/a/b/0, ~1 for '/', ~0 for '~'). A --set value is parsed
as JSON when it parses (numbers, true, null, "quoted", {...}); otherwise it is a string.
Objects missing on the way to a pointer are created (--set /cc/type=... works on a
file without "cc"); roce-run rejects keys outside the schema with the pointer's name.
Paths inside the configuration are relative to the configuration file. input.json, written
elsewhere, keeps them as they are and names that directory in its "paths_relative_to"
(PATHS_KEY): roce-run resolves every path field against it, with the one rule it uses
for any experiment file, so input.json runs from any directory and reads the same files.

Configuration files are read strictly, as roce-run reads them: a duplicate key, NaN or
Infinity, or a number too large for a double is an error naming the file and the JSON
pointer (Python's json module would take the last duplicate and write NaN into
input.json, where roce-run would then refuse it naming input.json).
"""

import copy
import json
import math
import numbers
import os
import re
import sys


class UsageError(Exception):
    """A bad sweep file, configuration or --set: the message names file and pointer."""


def log(message):
    print("roce-lab: " + message, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- pointers


def parse_pointer(pointer, where):
    if pointer == "":
        return []
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        raise UsageError("%s: JSON pointer '%s' must start with '/'" % (where, pointer))
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def escape_token(token):
    """One pointer token as written in a pointer (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def set_pointer(doc, pointer, value, where):
    """Set doc[pointer] = value. Missing objects on the way are created; array indices
    must exist (or be '-', append); a parent that is a number or string is an error."""
    tokens = parse_pointer(pointer, where)
    if not tokens:
        raise UsageError("%s: cannot replace the whole document (pointer '')" % where)
    node = doc
    for depth, token in enumerate(tokens[:-1]):
        here = "/" + "/".join(tokens[: depth + 1])
        node = _child(node, token, here, where)
    last = tokens[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list):
        if last == "-":
            node.append(value)
        else:
            node[_index(node, last, pointer, where)] = value
    else:
        parent = "/" + "/".join(tokens[:-1])
        raise UsageError(
            "%s: %s: %s is a %s, not an object or array"
            % (where, pointer, parent or "/", type(node).__name__)
        )


def get_pointer(doc, pointer, where):
    """doc[pointer]; a missing member or element is an error naming the pointer."""
    node = doc
    tokens = parse_pointer(pointer, where)
    for depth, token in enumerate(tokens):
        here = "/" + "/".join(escape_token(t) for t in tokens[: depth + 1])
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, here, where)]
        else:
            raise UsageError("%s: %s: not in the configuration" % (where, here))
    return node


def _index(node, token, here, where):
    if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
        raise UsageError(
            "%s: %s: no element '%s' (the array has %d)" % (where, here, token, len(node))
        )
    return int(token)


def _child(node, token, here, where):
    if isinstance(node, dict):
        # A missing object on the way is created ({"cc": {}} is the default anyway);
        # roce-run then rejects keys that are not in the schema, naming the pointer.
        if node.get(token) is None:
            node[token] = {}
        return node[token]
    if isinstance(node, list):
        return node[_index(node, token, here, where)]
    raise UsageError("%s: %s: parent is a %s" % (where, here, type(node).__name__))


def parse_value(text):
    """A --set value: JSON when it parses, else the text as a string. NaN, Infinity and
    numbers beyond a double are refused (JSON has none of them)."""
    try:
        return parse_json(text, "value")
    except UsageError as e:
        if text.strip() in ("NaN", "Infinity", "-Infinity") or "out of range" in str(e):
            raise UsageError("'%s' is not a JSON value: JSON has no NaN or Infinity, and "
                             "numbers must fit a double" % text)
        return text


# ------------------------------------------------------------------------ configuration


def load_json(path):
    """The JSON file at path, read strictly (see the module's doc); errors name the file
    and the JSON pointer."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UsageError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:  # not UTF-8
        raise UsageError("%s: not valid JSON: %s" % (path, e))
    return parse_json(text, path)


class _Object(dict):
    """A JSON object as parsed: remembers its first duplicate key."""

    duplicate = None


class _NotJson:
    """NaN, Infinity or -Infinity where a value was: found by its pointer afterwards."""

    def __init__(self, token):
        self.token = token


def _pairs(pairs):
    obj = _Object()
    for key, value in pairs:
        if key in obj and obj.duplicate is None:
            obj.duplicate = key
        obj[key] = value
    return obj


def parse_json(text, where):
    """Parse JSON text strictly: a duplicate key, NaN/Infinity or a number beyond a
    double is a UsageError "WHERE: /pointer: ..." (WHERE: the file)."""
    try:
        doc = json.loads(text, object_pairs_hook=_pairs, parse_constant=_NotJson)
    except ValueError as e:
        raise UsageError("%s: not valid JSON: %s" % (where, e))
    return _checked(doc, "", where)


def _checked(node, pointer, where):
    """node with plain dicts, or a UsageError at the first value JSON does not allow."""
    if isinstance(node, _NotJson):
        raise UsageError("%s: %s: %s is not a JSON number (JSON has no NaN or Infinity)"
                         % (where, pointer or "/", node.token))
    if isinstance(node, tuple):
        node = list(node)
    elif not isinstance(node, (dict, list, str, bool, type(None))):
        # numbers of any kind (numpy's from a DataFrame too) as JSON's; anything else is
        # no JSON value
        if isinstance(node, numbers.Integral):
            node = int(node)
        elif isinstance(node, numbers.Real):
            node = float(node)
        else:
            raise UsageError("%s: %s: %r (of type %s) is not a JSON value (a number, string, "
                             "true/false, null, list or dict)"
                             % (where, pointer or "/", node, type(node).__name__))
    if isinstance(node, float) and not math.isfinite(node):
        raise UsageError("%s: %s: number out of range (beyond a double)"
                         % (where, pointer or "/"))
    if isinstance(node, dict):
        for k in node:
            if not isinstance(k, str):
                raise UsageError("%s: %s: key %r is not a string (JSON object keys are)"
                                 % (where, pointer or "/", k))
        if getattr(node, "duplicate", None) is not None:
            raise UsageError('%s: %s/%s: duplicate key "%s"'
                             % (where, pointer, escape_token(node.duplicate), node.duplicate))
        return {k: _checked(v, "%s/%s" % (pointer, escape_token(k)), where)
                for k, v in node.items()}
    if isinstance(node, list):
        return [_checked(v, "%s/%d" % (pointer, i), where) for i, v in enumerate(node)]
    return node


# input.json's key for the directory its relative paths are relative to: the edited
# configuration's own directory. roce-run resolves every path field of an experiment
# (topology and flow files, CDFs, config_db files and lists of them, NIC profiles by name
# or path, host-model files) against it (JsonSchemaReader::ResolvePath), so no list of
# path fields is kept here.
PATHS_KEY = "paths_relative_to"


def anchor_paths(config, base_dir):
    """config (an object) with PATHS_KEY naming base_dir, the directory its relative
    paths are relative to, first; a PATHS_KEY already there is itself relative to
    base_dir."""
    given = config.get(PATHS_KEY)
    if given is None:
        anchor = os.path.abspath(base_dir)
    elif isinstance(given, str):
        anchor = os.path.normpath(os.path.join(os.path.abspath(base_dir), given))
    else:
        return config  # roce-run refuses it, naming /paths_relative_to
    out = {PATHS_KEY: anchor}
    out.update((k, v) for k, v in config.items() if k != PATHS_KEY)
    return out


def checked_value(value, where, pointer=""):
    """VALUE (a Python object meant as JSON: a configuration, a sweep, an edit's value)
    as plain JSON types; a value JSON has no place for (NaN, an object that is no number,
    string, list or dict) is a UsageError naming WHERE and the pointer."""
    return _checked(value, pointer, where)


def effective_config(config, base_dir, edits, where):
    """config with edits [(pointer, value)] applied and its paths anchored at base_dir
    (PATHS_KEY)."""
    config = copy.deepcopy(config)
    for pointer, value in edits:
        set_pointer(config, pointer, _checked(value, pointer, where), where)
    if not isinstance(config, dict):
        raise UsageError("%s: a configuration is a JSON object" % where)
    return anchor_paths(config, base_dir)


def dumps(config):
    return json.dumps(config, indent=2, sort_keys=False) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def parse_sets(items, seed):
    """[(pointer, value)] of --set /pointer=value items and --seed N."""
    edits = []
    for item in items or []:
        if "=" not in item:
            raise UsageError("--set %s: expected /json/pointer=value" % item)
        pointer, value = item.split("=", 1)
        try:
            edits.append((pointer, parse_value(value)))
        except UsageError as e:
            raise UsageError("--set %s: %s" % (item, e))
    if seed is not None:
        edits.append(("/seed", seed))
    return edits


# The first words of a run's README (OutputDirectory::README_FIRST_WORDS in roce-run):
# a folder whose README begins so is a run's output directory, which a run may clear.
README_FIRST_WORDS = "Output directory of one roce-lab run"


def claim_output(outdir, own=()):
    """Make OUTDIR a run's output directory before writing into it: a new or empty folder
    (or one holding only files named in OWN, such as a sweep's own log.txt) gets a README
    saying so (roce-run replaces it when the run ends), a previous run's is left as it is
    (roce-run clears the files its README lists), and any other folder is a UsageError
    naming it: its files are the user's, never replaced."""
    try:
        entries = sorted(os.listdir(outdir))
    except FileNotFoundError:
        entries = []
    except NotADirectoryError:
        raise UsageError("%s: output directory: not a directory" % outdir)
    except OSError as e:
        raise UsageError("%s: output directory: cannot read: %s" % (outdir, e.strerror))
    readme = os.path.join(outdir, "README")
    if any(e not in own for e in entries):
        try:
            with open(readme, encoding="utf-8", errors="replace") as f:
                if f.readline().startswith(README_FIRST_WORDS):
                    return
        except OSError:
            pass
        shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
        raise UsageError("%s: output directory: not a previous run's (no roce-lab README) "
                         "and not empty (%s): its files are not replaced; give another "
                         "--out, or empty it" % (outdir, shown))
    os.makedirs(outdir, exist_ok=True)
    write_if_changed(readme, README_FIRST_WORDS + " (not finished: the run is in progress "
                     "or failed).\n\nFiles:\ninput.json: the configuration run (edited)\n")


def prepare(config, base_dir, edits, outdir, where):
    """Write OUTDIR/input.json: config (an object) with edits [(pointer, value)] applied
    and its paths anchored at base_dir (PATHS_KEY); returns its path. What ./roce-lab run
    --set/--seed and Experiment.run do before running. OUTDIR must be new, empty or a
    previous run's (claim_output)."""
    eff = effective_config(config, base_dir, edits, where)
    claim_output(outdir)
    path = os.path.join(outdir, "input.json")
    write_if_changed(path, dumps(eff))
    return path
