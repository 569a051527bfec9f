"""``mypy --strict`` accepts a realistic user script and sees operators as tensors.

Skipped where mypy is not installed (it is in the ``test`` extra). Each run uses a cache
folder of its own under the test's temporary folder (about 2 s cold).
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).parents[1]
USER_SCRIPT = ROOT / "tests" / "typecheck" / "user_script.py"
OPS_SCRIPT = ROOT / "tests" / "typecheck" / "ops_script.py"
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


def test_a_broad_sample_of_ops_passes_mypy_strict(mypy):
    output, status = mypy(OPS_SCRIPT)
    assert status == 0, output


def test_the_sample_of_ops_runs():
    namespace = {"__name__": "ops_script"}
    exec(compile(OPS_SCRIPT.read_text(), str(OPS_SCRIPT), "exec"), namespace)
    assert namespace["main"]() > 0


# Misuses the types exclude, each with the words mypy's report must contain: the types are
# not ``Any`` in disguise.
MISUSES = [
    ('tf.reduce_sum(x, axis="0")', 'Argument "axis" to "reduce_sum" has incompatible type "str"'),
    ('tf.exp("a string")', 'Argument 1 to "__call__" of "UnaryOp" has incompatible type "str"'),
    ("tf.reduce_mean(None)", 'Argument 1 to "reduce_mean" has incompatible type "None"'),
    ('tf.matmul(x, ["a"])', 'List item 0 has incompatible type "str"'),
    ("tf.zeros([2], dtype=3)", 'Argument "dtype" to "zeros" has incompatible type "int"'),
    ("tf.add_n(x)", 'Argument 1 to "add_n" has incompatible type "Tensor"'),
    ('tf.nn.conv2d(x, x, strides="1", padding="SAME")', 'Argument "strides" to "conv2d"'),
    ("label: str = tf.reduce_sum(x)", 'expression has type "Tensor", variable has type "str"'),
    ("pair: int = tf.linalg.eigh(x)", '"tuple[Tensor, Tensor]", variable has type "int"'),
    ("square(1.0)", 'Argument 1 to "__call__" of "TracedFunction" has incompatible type "float"'),
    ("n: int = square(x)", 'expression has type "Tensor", variable has type "int"'),
    ("tf.custom_gradient(negate)", 'Argument 1 to "custom_gradient" has incompatible type'),
    ("tf.cond(x > 0, 1.0, 2.0)", 'Argument 2 to "cond" has incompatible type "float"'),
    ("tf.Variable(1.0).assign(2.0, read_value=False).numpy()", '"None" has no attribute "numpy"'),
    ("tf.functional.grad(negate)(x, x)", "Too many arguments"),
]  # fmt: skip


def test_mypy_reports_misuses_of_ops(mypy, tmp_path):
    wrong = tmp_path / "misuses.py"
    lines = [
        "import retrograd as tf",
        "x = tf.constant([[1.0, 2.0], [3.0, 4.0]])",
        "@tf.function",
        "def square(t: tf.Tensor) -> tf.Tensor:",
        "    return t * t",
        "def negate(t: tf.Tensor) -> tf.Tensor:",  # no gradient function: not a custom gradient
        "    return -t",
    ]
    first = len(lines) + 1
    wrong.write_text("\n".join(lines + [code for code, _ in MISUSES]) + "\n")
    output, status = mypy(wrong)
    assert status == 1, output
    for line, (code, expected) in enumerate(MISUSES, first):
        reported = [r for r in output.splitlines() if f"misuses.py:{line}: error" in r]
        assert any(expected in r for r in reported), (code, reported)


# The op namespaces: no public function takes or returns ``Any`` where a tensor goes, except
# these arguments, which are arbitrary by nature (what is printed, a slice key, options).
OP_NAMESPACES = [
    "retrograd", "retrograd.math", "retrograd.nn", "retrograd.linalg", "retrograd.random",
    "retrograd.bitwise", "retrograd.debugging",
]  # fmt: skip
ARBITRARY = {
    "Assert": {"data"}, "strided_slice": {"index"}, "einsum": {"kwargs"},
    "meshgrid": {"kwargs"}, "check_gradients": {"args"}, "function": {"options", "return"},
    "map_fn": {"elems", "dtype", "fn_output_signature"}, "vectorized_map": {"elems", "return"},
    "while_loop": {"shape_invariants", "loop_vars"}, "custom_gradient": {"return"},
    "gradient_override": {"overrides"},
    # Higher-order functions over structures of any nesting (as map_fn).
    "case": {"pred_fn_pairs", "return"}, "switch_case": {"branch_fns", "return"},
    "foldl": {"elems", "initializer", "return"}, "foldr": {"elems", "initializer", "return"},
    "scan": {"elems", "initializer", "return"}, "numpy_function": {"return"},
    "py_function": {"return"},
}  # fmt: skip
# Functions that transform functions (their Callable[..., Any] arguments are not "Any").
_PARAM = re.compile(r"^\*{0,2}(\w+): (.*?)(?: =)?$")


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for c in text:
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    return [p for p in parts + [current.strip()] if p]


def _parenthesised(text: str) -> tuple[str, str]:
    """``"(a, (b)) -> c"`` → ``("a, (b)", " -> c")``."""
    depth = 0
    for i, c in enumerate(text):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if depth == 0:
            return text[1:i], text[i + 1 :]
    return text, ""


def _any_slots(signature: str) -> set[str]:
    """Names of the parameters typed exactly ``Any`` (and "return" for an Any result)."""
    found = set()
    for single in re.split(r"(?:^Overload\(|, )(?=def )", signature):
        single = single.removesuffix(")") if single.endswith("))") else single
        single = re.sub(r"^def (?:\[.*?\] )?", "", single.strip())
        params, result = _parenthesised(single)
        for param in _split_top_level(params):
            name_type = _PARAM.match(param)
            if name_type and name_type.group(2) == "Any":
                found.add(name_type.group(1))
        if result.removeprefix(" -> ") == "Any":
            found.add("return")
    return found


def test_no_op_takes_or_returns_any(mypy, tmp_path):
    lines, names = [], []
    for module_name in OP_NAMESPACES:
        module = importlib.import_module(module_name)
        lines.append(f"import {module_name}")
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value) or type(value).__name__ == "function":
                names.append(name)
                lines.append(f"reveal_type({module_name}.{name})")
    script = tmp_path / "signatures.py"
    script.write_text("\n".join(lines) + "\n")
    output, status = mypy(script)
    revealed = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(r":(\d+): note: Revealed type is \"(.*)\"", output)
    }
    offenders = {}
    for line, code in enumerate(lines, 1):
        if code.startswith("reveal_type("):
            name = code.rsplit(".", 1)[1][:-1]
            slots = _any_slots(revealed[line]) - ARBITRARY.get(name, set())
            if slots:
                offenders[code[12:-1]] = sorted(slots)
    assert len(names) > 250 and not offenders, offenders
