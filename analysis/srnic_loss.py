#!/usr/bin/python3
"""analysis/roce_lab/srnic_loss.py as a script: the same as
python3 analysis/roce_lab srnic-loss ARGS."""
import sys

from roce_lab.srnic_loss import main

if __name__ == "__main__":
    sys.exit(main())
