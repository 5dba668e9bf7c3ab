#!/usr/bin/python3
"""analysis/roce_lab/dfabric_pool.py as a script: the same as
python3 analysis/roce_lab dfabric-pool ARGS."""
import sys

from roce_lab.dfabric_pool import main

if __name__ == "__main__":
    sys.exit(main())
