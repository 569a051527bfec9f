"""TensorFlow 1's ``tf.app.run``: calls the program's ``main(argv)`` and exits with its
result, as the last line of many TF1 scripts expects (``tf.app.flags`` is not provided).

>>> import sys
>>> try:
...     run(lambda argv: 0, argv=["prog"])
... except SystemExit as e:
...     print(e.code)
0
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["run"]


def run(main: Callable[[list], Any] | None = None, argv: list | None = None) -> None:
    """``sys.exit(main(argv))``; ``main`` defaults to the ``main`` of the running script."""
    if main is None:
        main = getattr(sys.modules.get("__main__"), "main", None)
        if main is None:
            raise AttributeError("tf.app.run: the program defines no main(argv) function")
    sys.exit(main(list(sys.argv if argv is None else argv)))
