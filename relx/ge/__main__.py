"""``python -m relx.ge evaluate|train|predict|tune`` (see :mod:`relx.ge.cli`)."""

import sys

from relx.ge.cli import main

sys.exit(main())
