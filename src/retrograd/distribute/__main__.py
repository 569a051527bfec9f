"""``python -m retrograd.distribute -n 2 [--hosts a,b] program.py [args]``: runs the program
as workers, one replica each, with MPI's launcher (``mpiexec`` of the ``distribute`` extra).

Workers are started so that one that stops does not take the others down unseen: they
raise ``UnavailableError`` naming it (see ``engine``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

__all__ = ["command", "main"]


def _mpiexec() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    found = beside if os.path.exists(beside) else shutil.which("mpiexec")
    if found is None:
        raise SystemExit(
            "retrograd.distribute: no mpiexec found; install the engine with "
            "pip install 'retrograd[distribute]'"
        )
    return found


def command(workers: int, program: list[str], hosts: str | None = None) -> list[str]:
    """The launcher's command line for ``workers`` processes of ``program``.

    >>> callable(command)
    True
    """
    mpiexec = _mpiexec()
    version = subprocess.run([mpiexec, "--version"], capture_output=True, text=True).stdout
    line = [mpiexec]
    if "HYDRA" in version.upper():  # (MPICH: survivors report a stopped worker themselves)
        line.append("-disable-auto-cleanup")
    if hosts:
        line += ["-hosts", hosts]
    return line + ["-n", str(workers), sys.executable, *program]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m retrograd.distribute", description=__doc__)
    parser.add_argument("-n", "--workers", type=int, required=True, help="worker processes")
    parser.add_argument("--hosts", help="comma-separated machines (default: this one)")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="program.py and its args")
    args = parser.parse_args(argv)
    if not args.program:
        parser.error("the program to run is missing")
    return subprocess.run(command(args.workers, args.program, args.hosts)).returncode


if __name__ == "__main__":
    sys.exit(main())
