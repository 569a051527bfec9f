"""The style and type checks of ``.ci/run``: what they compare, and that the committed
baseline of mypy errors has no entry for the engine or the public API.

The checks themselves run in CI (and locally: see CONTRIBUTING.md); running mypy over the
whole library here would double the suite's mypy time.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[1]
_spec = importlib.util.spec_from_file_location("mypy_baseline", ROOT / ".ci" / "mypy_baseline.py")
assert _spec is not None and _spec.loader is not None
baseline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(baseline)

ENGINE = "src/retrograd/core/tensor.py"
OTHER = "src/retrograd/keras/src/models.py"


def test_ci_runs_the_readme_command_style_and_types():
    run = (ROOT / ".ci" / "run").read_text()
    for command in [
        "pip install -e '.[test,docs]' && pytest",
        "ruff check src tests benchmarks",
        "ruff format --check src tests benchmarks",
        "python .ci/mypy_baseline.py",
    ]:
        assert command in run, command


def test_keys_ignore_line_numbers():
    error = {"file": OTHER, "code": "no-redef", "message": 'Name "f" already defined on line 12'}
    assert baseline.key(error) == (OTHER, "no-redef", 'Name "f" already defined on line N')


def test_new_errors_fail_and_fixed_ones_shrink_the_baseline():
    a, b = (OTHER, "arg-type", "a"), (OTHER, "attr-defined", "b")
    new, gone = baseline.compare(Counter({a: 2, b: 1}), Counter({a: 1, b: 3}))
    assert new == Counter({a: 1}) and gone == Counter({b: 2})


def test_the_engine_and_the_public_api_may_have_no_baseline():
    key = (ENGINE, "arg-type", "a")
    new, gone = baseline.compare(Counter({key: 1}), Counter({key: 1}))
    assert new == Counter({key: 1}) and not gone
    for path in ["src/retrograd/__init__.py", "src/retrograd/nn.py", ENGINE,
                 "src/retrograd/autodiff/backprop.py"]:  # fmt: skip
        assert baseline.ZERO.match(path), path
    assert not baseline.ZERO.match(OTHER)
    assert not baseline.ZERO.match("src/retrograd/ops/math_ops.py")


def test_the_baseline_reads_back_as_written(tmp_path):
    errors = Counter({(OTHER, "arg-type", "tab-free message"): 2, (OTHER, "misc", "m"): 1})
    path = tmp_path / "baseline.txt"
    path.write_text(baseline.baseline_text(errors))
    assert baseline.read_baseline(path) == errors
    assert baseline.recorded_versions(path) == baseline.versions()


def test_the_committed_baseline_has_no_entry_for_the_engine_or_the_public_api():
    committed = baseline.read_baseline()
    assert committed and all(n > 0 for n in committed.values())
    assert not [k for k in committed if baseline.ZERO.match(k[0])]
    lines = [x for x in baseline.BASELINE.read_text().splitlines() if not x.startswith("#")]
    assert lines == sorted(lines, key=lambda x: x.split("\t", 1)[1])  # sorted: small diffs
