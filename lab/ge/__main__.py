"""``python -m lab.ge evaluate|train|predict|tune`` (see :mod:`lab.ge.cli`)."""

import sys

from lab.ge.cli import main

sys.exit(main())
