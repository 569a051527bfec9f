"""Runs mypy over ``src/retrograd`` and compares its errors with a committed baseline.

The settings are ``[tool.mypy]`` in pyproject.toml. The baseline (``.ci/mypy-baseline.txt``)
lists the errors mypy still reports in the rest of the library, keyed by file, error code
and message with a count (not by line, so that moving code does not break it). It may only
shrink:

- an error that is not in the baseline fails the check (fix it; the message says where);
- an error of the baseline that mypy no longer reports fails it too, until the baseline is
  rewritten without it: ``python .ci/mypy_baseline.py --update``, then commit the file.

Two parts of the library have no baseline at all, so any error there fails:

- the engine: ``src/retrograd/core/`` and ``src/retrograd/autodiff/``;
- the public API: ``src/retrograd/__init__.py`` and the other modules at the package's top
  level (the namespaces users import: ``math``, ``nn``, ``linalg``, ``random``, ``bitwise``,
  ``debugging``, ``test``, ``dtypes``, ``errors``, ``nest``, ``functional``; and the CLI).
  The classes and decorators they export from the engine (``Tensor``, ``Variable``,
  ``GradientTape``, ``custom_gradient``, ...) are covered as the engine. The signatures of
  the ops they re-export from ``ops/`` and ``graph/`` are checked from a user's side by
  ``tests/test_typing.py`` (``mypy --strict`` on user scripts); the bodies of those modules
  are in the baseline.

``--update --allow-new`` records every current error (for a new mypy or NumPy release that
words its messages differently: read the diff before committing it).

Usage: ``python .ci/mypy_baseline.py [--update [--allow-new]]`` from anywhere.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "mypy-baseline.txt"
# Files that may have no error at all: the engine and the public API (see above).
ZERO = re.compile(r"src/retrograd/(core/|autodiff/|[^/]+\.py$)")

Key = tuple[str, str, str]  # (file, error code, message)


def normalise(message: str) -> str:
    """The message without the line numbers some messages mention."""
    return re.sub(r"\bline \d+", "line N", message)


def versions() -> str:
    found = []
    for name in ("mypy", "numpy"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} ?")
    return ", ".join(found) + f", Python {sys.version_info.major}.{sys.version_info.minor}"


def run_mypy() -> list[dict]:
    """mypy's errors (notes left out), each a dict of ``-O json``'s fields."""
    command = [sys.executable, "-m", "mypy", "-O", "json", "--no-error-summary"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    errors, other = [], []
    for line in done.stdout.splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            other.append(line)
            continue
        if entry["severity"] == "error":
            errors.append(entry)
    if done.returncode not in (0, 1) or other or (done.returncode == 1 and not errors):
        sys.exit(
            f"mypy did not run to the end (status {done.returncode}):\n"
            + "\n".join(other)
            + done.stderr
        )
    return errors


def key(error: dict) -> Key:
    return error["file"].replace("\\", "/"), error["code"] or "", normalise(error["message"])


def read_baseline(path: Path = BASELINE) -> Counter[Key]:
    baseline: Counter[Key] = Counter()
    if path.exists():
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                count, file, code, message = line.split("\t", 3)
                baseline[file, code, message] += int(count)
    return baseline


def baseline_text(errors: Counter[Key]) -> str:
    header = (
        "# mypy's errors outside the engine and the public API, which may only shrink (see\n"
        "# .ci/mypy_baseline.py). count<TAB>file<TAB>error code<TAB>message.\n"
        f"# Recorded with {versions()}.\n"
    )
    rows = [
        f"{n}\t{file}\t{code}\t{message}" for (file, code, message), n in sorted(errors.items())
    ]
    return header + "".join(row + "\n" for row in rows)


def recorded_versions(path: Path = BASELINE) -> str:
    text = path.read_text() if path.exists() else ""
    found = re.search(r"Recorded with (.*)\.\n", text)
    return found.group(1) if found else "?"


def compare(current: Counter[Key], baseline: Counter[Key]) -> tuple[Counter[Key], Counter[Key]]:
    """(errors that are new, baseline entries that are gone). Errors of the engine and the
    public API are always new: they may have no baseline."""
    allowed = Counter({k: n for k, n in baseline.items() if not ZERO.match(k[0])})
    return current - allowed, baseline - current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--update", action="store_true", help="drop what mypy no longer reports")
    parser.add_argument(
        "--allow-new", action="store_true", help="with --update: record new errors too"
    )
    args = parser.parse_args(argv)
    errors = run_mypy()
    current = Counter(key(e) for e in errors)
    baseline = read_baseline()
    new, gone = compare(current, baseline)
    if args.update:
        kept = current if args.allow_new else current & baseline
        kept = Counter({k: n for k, n in kept.items() if not ZERO.match(k[0])})
        BASELINE.write_text(baseline_text(kept))
        print(
            f"{BASELINE.relative_to(ROOT)}: {sum(kept.values())} errors "
            f"({sum(baseline.values())} before)"
        )
        new, gone = compare(current, kept)
    for file, code, message in sorted(new):
        n = new[file, code, message]
        where = [e for e in errors if key(e) == (file, code, message)]
        which = "" if len(where) == n else f" ({n} of these {len(where)} lines are new)"
        print(f"new mypy error{which}:")
        for e in where:
            print(f"  {e['file']}:{e['line']}: error: {e['message']}  [{code}]")
    if new:
        zero = sum(n for k, n in new.items() if ZERO.match(k[0]))
        print(
            f"\n{sum(new.values())} new mypy error(s) ({zero} in the engine or the public API, "
            "which must have none): fix them (see .ci/mypy_baseline.py)"
        )
    if gone:
        print(
            f"\n{sum(gone.values())} error(s) of the baseline are fixed; shrink the baseline: "
            "python .ci/mypy_baseline.py --update, and commit .ci/mypy-baseline.txt"
        )
        for (file, code, message), n in sorted(gone.items()):
            print(f"  {n}x {file}: {message}  [{code}]")
    if (new or gone) and recorded_versions() != versions():
        print(
            f"\n(the baseline was recorded with {recorded_versions()}; this is {versions()}: "
            "if only the wording changed, run --update --allow-new and read the diff)"
        )
    if not new and not gone:
        print(f"mypy: no new errors ({sum(current.values())} in the baseline)")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
