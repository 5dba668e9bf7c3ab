#!/usr/bin/python3
"""analysis/roce_lab/fct_cdf.py as a script: the same as
python3 analysis/roce_lab fct-cdf ARGS."""
import sys

from roce_lab.fct_cdf import main

if __name__ == "__main__":
    sys.exit(main())
