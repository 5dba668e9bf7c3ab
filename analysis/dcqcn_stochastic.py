#!/usr/bin/python3
"""analysis/roce_lab/dcqcn_stochastic.py as a script: the same as
python3 analysis/roce_lab dcqcn-stochastic ARGS."""
import sys

from roce_lab.dcqcn_stochastic import main

if __name__ == "__main__":
    sys.exit(main())
