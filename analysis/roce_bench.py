#!/usr/bin/env python3
"""analysis/roce_lab/bench.py as a script (./roce-lab bench runs it): the same as
python3 analysis/roce_lab bench ARGS."""
import sys

from roce_lab.bench import main

if __name__ == "__main__":
    sys.exit(main())
