#!/usr/bin/python3
"""analysis/roce_lab/host_pushback.py as a script: the same as
python3 analysis/roce_lab host-pushback ARGS."""
import sys

from roce_lab.host_pushback import main

if __name__ == "__main__":
    sys.exit(main())
