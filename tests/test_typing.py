"""``mypy --strict`` accepts a realistic user script and sees operators as tensors.

Skipped where mypy is not installed (it is in the ``test`` extra). Each run uses a cache
folder of its own under the test's temporary folder (about 2 s cold).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).parents[1]
USER_SCRIPT = ROOT / "tests" / "typecheck" / "user_script.py"
NAMESPACES = [
    "retrograd", "retrograd.math", "retrograd.nn", "retrograd.linalg", "retrograd.random",
    "retrograd.bitwise", "retrograd.debugging", "retrograd.functional", "retrograd.test",
    "retrograd.dtypes", "retrograd.errors", "retrograd.nest", "retrograd.keras",
    "retrograd.keras.optimizers", "retrograd.autodiff", "retrograd.compat.v1",
]  # fmt: skip


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    cache = tmp_path_factory.mktemp("mypy_cache")

    def run(*paths: Path) -> tuple[str, int]:
        stdout, stderr, status = api.run(
            ["--strict", "--follow-imports=silent", "--no-error-summary", "--cache-dir",
             str(cache), *map(str, paths)]
        )  # fmt: skip
        return stdout + stderr, status

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MYPYPATH", str(ROOT / "src"))  # this checkout, not an installed copy
        yield run


def test_a_realistic_user_script_passes_mypy_strict(mypy):
    output, status = mypy(USER_SCRIPT)
    assert status == 0, output


def test_the_script_runs():
    namespace = {"__name__": "user_script"}
    exec(compile(USER_SCRIPT.read_text(), str(USER_SCRIPT), "exec"), namespace)
    assert namespace["main"]() > 0


def test_operators_are_tensors_to_mypy(mypy, tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "import retrograd as tf\n"
        "x = tf.constant([1.0, 2.0])\n"
        "v = tf.Variable(1.0)\n"
        "a: str = 1 - x * 2\n"
        "b: int = (v @ x)[0]\n"
        "c: bool = x == v\n"
    )
    output, status = mypy(wrong)
    assert status == 1
    assert output.count('has type "Tensor"') == 3, output


def test_every_public_name_is_exported(mypy, tmp_path):
    lines = []
    for module_name in NAMESPACES:
        module = importlib.import_module(module_name)
        lines.append(f"import {module_name}")
        lines += [f"print({module_name}.{name})" for name in module.__all__]
    script = tmp_path / "every_name.py"
    script.write_text("\n".join(lines) + "\n")
    output, status = mypy(script)
    assert status == 0, output
