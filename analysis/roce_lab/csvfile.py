"""Reading roce-lab's CSV files (a run's flows.csv, pfc.csv ..., a sweep's table.csv) by
column name: the one reader of roce_lab's analyses.

    for line, row in rows(path, ("bytes", "slowdown"), missing="is OUT a run's folder?"):
        ...   # row: {column: text}; line: its line in the file (the header is line 1)

rows() checks before the first row: a file that is not there is an error naming it when
MISSING (what to do about it) is given, else the OSError of opening it; each of COLUMNS must
be in the header. Errors are raised as ERROR(message): SystemExit (the message on stderr,
exit status 1) unless the caller gives another class (UsageError). table() is the same as a
list, or None for a file that is not there when optional. read_rows() and parse() are what
the figure modules of run output use: every row, or an error naming the file; a value that
does not parse as 'path:line: reason'.
"""

import csv
import os
import pathlib


class Rows:
    """The rows of one CSV file, read as they are iterated: (line, row) pairs."""

    def __init__(self, path, file, reader):
        self.path = path
        self.fieldnames = reader.fieldnames
        self._file = file
        self._reader = reader

    def __iter__(self):
        with self._file:
            yield from enumerate(self._reader, start=2)

    def dicts(self):
        """The rows without their line numbers."""
        for _, row in self:
            yield row


def rows(path, columns=(), missing=None, error=SystemExit):
    """The rows of the CSV file PATH (a Rows), its header checked for COLUMNS."""
    if missing is not None and not os.path.isfile(path):
        raise error(f"{path}: not found ({missing})")
    f = open(path, newline="")
    try:
        reader = csv.DictReader(f)
        for column in columns:
            if column not in (reader.fieldnames or []):
                raise error(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
    except BaseException:
        f.close()
        raise
    return Rows(path, f, reader)


def table(path, columns=(), missing=None, error=SystemExit, optional=False):
    """rows() as a list of dicts; None when OPTIONAL and PATH is not a file."""
    if optional and not os.path.isfile(path):
        return None
    return list(rows(path, columns, missing, error).dicts())


def read_rows(outdir, name, columns, program):
    """(path, [(line, row), ...]) of OUTDIR/NAME, written by PROGRAM: a file that is not
    there, a missing column or no rows ends the program with a message naming the file."""
    path = pathlib.Path(outdir) / name
    found = list(rows(path, columns, missing=f"run {program} --out={outdir}"))
    if not found:
        raise SystemExit(f"{path}: no rows")
    return path, found


def parse(path, line, fn):
    """fn() for one row at PATH:LINE, its ValueError ending the program as 'path:line: e'."""
    try:
        return fn()
    except ValueError as e:
        raise SystemExit(f"{path}:{line}: {e}")
