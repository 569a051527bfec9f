"""Command line: ``python -m retrograd demo | trace script.py -o trace.html | check mod:fn``."""

from __future__ import annotations

from retrograd.cli import console

if __name__ == "__main__":
    console()
