"""Command line: ``python -m retrograd demo``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m retrograd", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="walk through the seed programs: custom gradients explained")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from retrograd import demo

        demo.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
