"""Raises the conformance baseline to what retrograd has now and regenerates the page.

    PYTHONPATH=src python -m tests.conformance.update_baseline [--table]

The baseline (tests/conformance/baseline/<namespace>.json: names present, names whose
signature accepts TensorFlow's, submodules, methods and properties) may only grow: the
script refuses to write when something the baseline holds is gone, and prints what.
``--table`` prints the per-namespace table of the committed baseline and writes nothing.
"""

from __future__ import annotations

import sys

from retrograd.core.atomic_files import write_text
from tests.conformance import report, surface


def main(argv: list[str]) -> int:
    snapshot = surface.load_snapshot()
    if "--table" in argv:
        print(report.table(snapshot))
        return 0
    namespaces = surface.survey(snapshot)
    lost = [line for ns in namespaces.values() for line in surface.regressions(ns)]
    if lost:
        print("Not written: the baseline holds what retrograd no longer has:")
        print("\n".join(f"  {line}" for line in lost))
        return 1
    surface.BASELINE.mkdir(exist_ok=True)
    gained = 0
    for ns in namespaces.values():
        gained += surface.gains(ns)
        write_text(surface.baseline_file(ns.path), surface.dump_baseline(ns.standing()))
    write_text(report.PAGE, report.page(snapshot))
    print(report.table(snapshot))
    print(f"baseline raised by {gained} entries; {report.PAGE.relative_to(report.ROOT)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
