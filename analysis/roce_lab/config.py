"""Experiment files: JSON pointers (RFC 6901), --set edits, path fields, input.json.

JSON pointers are RFC 6901 (/a/b/0, ~1 for '/', ~0 for '~'). A --set value is parsed
as JSON when it parses (numbers, true, null, "quoted", {...}); otherwise it is a string.
Objects missing on the way to a pointer are created (--set /cc/type=... works on a
file without "cc"); roce-run rejects keys outside the schema with the pointer's name.
Paths inside the configuration (PATH_FIELDS) are relative to the configuration file, as
in roce-run; they are rewritten as absolute paths in input.json so that it runs from
any directory.
"""

import copy
import json
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
    try:
        return json.loads(text)
    except ValueError:
        return text


# ------------------------------------------------------------------------ configuration


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise UsageError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise UsageError("%s: not valid JSON: %s" % (path, e))


# Every path-valued field of an experiment file, the one list: a JSON pointer whose
# "*" tokens match each element of an array, and the condition on the object holding
# the field under which it is a path (None: always). roce-run resolves the same
# fields relative to the experiment file (ExperimentTopology::ResolvePath).
PATH_FIELDS = [
    ("/topology/path", lambda holder: holder.get("type") == "file"),
    ("/flows_file/path", None),
    ("/workload/cdf", None),
    ("/buffer/config_db", None),
    ("/buffer_switches/*/buffer/config_db", None),
]


def absolutize_paths(config, base_dir):
    """Make the configuration's file references (PATH_FIELDS) absolute; they are
    relative to base_dir."""

    def walk(node, tokens, condition):
        if not tokens:
            return
        token, rest = tokens[0], tokens[1:]
        if token == "*":
            for child in node if isinstance(node, list) else []:
                walk(child, rest, condition)
            return
        if not isinstance(node, dict):
            return
        if rest:
            walk(node.get(token), rest, condition)
        elif isinstance(node.get(token), str) and (condition is None or condition(node)):
            node[token] = os.path.normpath(os.path.join(base_dir, node[token]))

    for pointer, condition in PATH_FIELDS:
        walk(config, pointer.split("/")[1:], condition)


def effective_config(config, base_dir, edits, where):
    """config with edits [(pointer, value)] applied, paths absolute."""
    config = copy.deepcopy(config)
    for pointer, value in edits:
        set_pointer(config, pointer, value, where)
    absolutize_paths(config, base_dir)
    return config


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
        edits.append((pointer, parse_value(value)))
    if seed is not None:
        edits.append(("/seed", seed))
    return edits


def prepare(config, base_dir, edits, outdir, where):
    """Write OUTDIR/input.json: config (an object) with edits [(pointer, value)] applied
    and its paths (relative to base_dir) made absolute; returns its path. What
    ./roce-lab run --set/--seed and Experiment.run do before running."""
    eff = effective_config(config, base_dir, edits, where)
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "input.json")
    write_if_changed(path, dumps(eff))
    return path
