"""`python -m explorer ...`: the command line (see explorer.cli)."""

from __future__ import annotations

import sys

from explorer.cli import main

if __name__ == "__main__":
    sys.exit(main())
