#!/usr/bin/python3
"""analysis/roce_lab/node_effects.py as a script: the same as
python3 analysis/roce_lab node-effects ARGS."""
import sys

from roce_lab.node_effects import main

if __name__ == "__main__":
    sys.exit(main())
