#!/usr/bin/python3
"""analysis/roce_lab/dcqcn_fluid.py as a script: the same as
python3 analysis/roce_lab dcqcn-fluid ARGS."""
import sys

from roce_lab.dcqcn_fluid import main

if __name__ == "__main__":
    sys.exit(main())
