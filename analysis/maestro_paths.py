#!/usr/bin/python3
"""analysis/roce_lab/maestro_paths.py as a script: the same as
python3 analysis/roce_lab maestro-paths ARGS."""
import sys

from roce_lab.maestro_paths import main

if __name__ == "__main__":
    sys.exit(main())
