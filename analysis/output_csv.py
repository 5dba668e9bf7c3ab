"""Reading a run's CSV output by column name, with errors that name the file and line.

read_rows(outdir, name, columns, program) returns the rows of OUTDIR/NAME as dicts, after
checking that every column in COLUMNS is present; a missing file, a missing column or an
empty file ends the script with a message naming the file (and PROGRAM, the run that writes it).
parse(path, line, fn) applies fn to one row, turning a ValueError into 'path:line: reason'.
"""
import csv
import pathlib
import sys


def read_rows(outdir, name, columns, program):
    path = pathlib.Path(outdir) / name
    if not path.is_file():
        sys.exit(f"{path}: not found (run {program} --out={outdir})")
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        for column in columns:
            if column not in (reader.fieldnames or []):
                sys.exit(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
        rows = [(line, row) for line, row in enumerate(reader, start=2)]
    if not rows:
        sys.exit(f"{path}: no rows")
    return path, rows


def parse(path, line, fn):
    try:
        return fn()
    except ValueError as e:
        sys.exit(f"{path}:{line}: {e}")
