#!/usr/bin/python3
"""analysis/roce_lab/maestro_transport.py as a script: the same as
python3 analysis/roce_lab maestro-transport ARGS."""
import sys

from roce_lab.maestro_transport import main

if __name__ == "__main__":
    sys.exit(main())
