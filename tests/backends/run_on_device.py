"""``python -m tests.backends.run_on_device [--tf1] SCRIPT [ARGS...]``: ``retrograd run
--device KIND`` with the device kind under test (``tests.backends.target``: the strict
array type unless ``RETROGRAD_TEST_DEVICE`` names another) usable in the process — the
STRICT kind is a test's, so it is registered here, not by retrograd."""

from __future__ import annotations

import sys

from retrograd import cli
from tests.backends import target


def main(argv: list[str]) -> int:
    with target.installed():
        return cli.main(["run", "--device", target.KIND, *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
