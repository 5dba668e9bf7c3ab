#!/usr/bin/python3
"""analysis/roce_lab/slowdown_by_size.py as a script: the same as
python3 analysis/roce_lab slowdown-by-size ARGS."""
import sys

from roce_lab.slowdown_by_size import main

if __name__ == "__main__":
    sys.exit(main())
