#!/usr/bin/python3
"""analysis/roce_lab/dcqcn_sweep.py as a script: the same as
python3 analysis/roce_lab dcqcn-sweep ARGS."""
import sys

from roce_lab.dcqcn_sweep import main

if __name__ == "__main__":
    sys.exit(main())
