"""``fit`` with its default shuffle prints Keras' numbers: the loss histories of
data/fit_shuffle_cases.py (default ``shuffle=True``, ``shuffle="batch"``, validation_split,
steps_per_epoch, class and sample weights, two fits in a row) match those of Keras 3 on
TensorFlow 2.21 (goldens made by data/make_fit_shuffle_goldens.py) to 1e-5."""

from __future__ import annotations

import json
import pathlib
import sys
import warnings

import numpy as np
import pytest

import retrograd as rg
from retrograd import keras

HERE = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(HERE))
import fit_shuffle_cases  # noqa: E402

GOLDEN = json.loads((HERE / "fit_shuffle_goldens.json").read_text())


def _run(name, seed, n):
    scope = {"tf": rg, "keras": keras, "np": np, "SEED": seed, "N": n}
    exec(fit_shuffle_cases.SETUP, scope)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (steps_per_epoch: "Your input ran out of data")
        exec(fit_shuffle_cases.CASES[name], scope)
    rg.random.set_seed(None)
    return scope["result"]


def _flat(result):
    if isinstance(result, list):
        return [v for part in result for v in _flat(part)]
    return [(k, v) for k, values in result.items() for v in values]


@pytest.mark.parametrize("run", GOLDEN["runs"], ids=lambda r: f"{r['case']}-{r['seed']}")
def test_fit_with_keras_shuffle_prints_keras_losses(run):
    got = _flat(_run(run["case"], run["seed"], run["n"]))
    want = _flat(run["result"])
    assert [k for k, _ in got] == [k for k, _ in want]
    assert [v for _, v in got] == pytest.approx([v for _, v in want], rel=1e-5, abs=2e-6)


def test_the_shuffle_changes_the_numbers():
    # (the goldens would not see the shuffle if it made no difference)
    by_case = {(r["case"], r["seed"]): r["result"] for r in GOLDEN["runs"]}
    assert by_case[("batch_size", 7)] != by_case[("shuffle_batch", 7)]
    scope = {"tf": rg, "keras": keras, "np": np, "SEED": 7, "N": 50}
    exec(fit_shuffle_cases.SETUP, scope)
    unshuffled = scope["model"].fit(
        scope["x"], scope["y"], batch_size=8, epochs=4, verbose=0, shuffle=False
    )
    rg.random.set_seed(None)
    losses = [round(v, 6) for v in unshuffled.history["loss"]]
    assert losses != pytest.approx(by_case[("batch_size", 7)]["loss"], abs=1e-4)
