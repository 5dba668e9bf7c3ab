#!/usr/bin/python3
"""analysis/roce_lab/compare_profiles.py as a script: the same as
python3 analysis/roce_lab compare-profiles ARGS."""
import sys

from roce_lab.compare_profiles import main

if __name__ == "__main__":
    sys.exit(main())
