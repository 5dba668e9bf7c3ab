#!/usr/bin/python3
"""analysis/roce_lab/dcqcn_regional.py as a script: the same as
python3 analysis/roce_lab dcqcn-regional ARGS."""
import sys

from roce_lab.dcqcn_regional import main

if __name__ == "__main__":
    sys.exit(main())
