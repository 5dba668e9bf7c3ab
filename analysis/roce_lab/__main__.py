"""python3 analysis/roce_lab ... (the folder run as a script) or python3 -m roce_lab ..."""
import os
import sys

if not __package__:
    # Run as a folder: its parent (analysis/) is where the package is imported from.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[0] = os.path.dirname(here)

from roce_lab.cli import main  # noqa: E402

sys.exit(main())
