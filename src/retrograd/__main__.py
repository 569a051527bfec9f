"""Command line: ``python -m retrograd demo | trace script.py -o trace.html | check mod:fn``."""

from __future__ import annotations

import sys

from retrograd.cli import main

if __name__ == "__main__":
    sys.exit(main())
