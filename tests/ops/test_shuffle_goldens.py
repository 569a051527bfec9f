"""``tf.random.shuffle``, ``Dataset.shuffle`` and ``fit``'s shuffle give TensorFlow's orders:
the programs of data/shuffle_cases.py print what TensorFlow 2.21 printed, and the batches
(``fit``'s data) come in the order of Keras 3's array adapter on TensorFlow over three passes
(goldens made by data/make_shuffle_goldens.py)."""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import pytest

import retrograd as rg
from retrograd.keras.src.data_batches import Batches
from retrograd.ops import philox_random

HERE = pathlib.Path(__file__).parent / "data"
sys.path.insert(0, str(HERE))
import shuffle_cases  # noqa: E402

GOLDEN = json.loads((HERE / "shuffle_goldens.json").read_text())


@pytest.fixture(autouse=True)
def _no_global_seed():
    yield
    rg.random.set_seed(None)


@pytest.mark.parametrize("name", sorted(shuffle_cases.CASES))
def test_shuffle_program_prints_tensorflows_permutations(name):
    scope = {"tf": rg, "np": np, "SIZES": shuffle_cases.SIZES}
    exec(shuffle_cases.CASES[name], scope)
    assert json.loads(json.dumps(scope["result"])) == GOLDEN["cases"][name]


def _orders(n, seed, shuffle):
    rg.random.set_seed(seed)
    x = np.arange(n, dtype="float32").reshape(n, 1)
    batches = Batches(x, x, batch_size=shuffle_cases.ADAPTER_BATCH, shuffle=shuffle)
    return [
        np.concatenate([b[0].numpy().ravel() for b in batches]).astype(int).tolist()
        for _ in range(3)
    ]


@pytest.mark.parametrize(
    "case", GOLDEN["adapter"], ids=lambda c: f"n{c['n']}-seed{c['seed']}-{c['shuffle']}"
)
def test_fit_batches_come_in_keras_order(case):
    assert _orders(case["n"], case["seed"], case["shuffle"]) == case["orders"]


def test_every_pass_is_the_same_permutation_with_a_global_seed_as_in_keras():
    # (TensorFlow runs Keras' traced permutation with a new kernel for each pass)
    for case in GOLDEN["adapter"]:
        first, *rest = case["orders"]
        assert all(order == first for order in rest)
        if case["shuffle"] is True:
            assert sorted(first) == list(range(case["n"])) and first != sorted(first)


def test_without_any_seed_each_pass_is_a_new_permutation():
    rg.random.set_seed(None)
    orders = _orders(200, None, True)
    assert all(sorted(o) == list(range(200)) for o in orders)
    assert orders[0] != orders[1] != orders[2]
    a, b = rg.random.shuffle(rg.range(200)), rg.random.shuffle(rg.range(200))
    assert a.numpy().tolist() != b.numpy().tolist()


def test_the_kernel_draws_one_word_per_swap_and_reserves_whole_blocks():
    stream = philox_random.PhiloxStream(7, 3)
    first = stream.words(5)  # two blocks reserved: the next draw starts at the third
    again = philox_random.PhiloxStream(7, 3)
    assert again.words(8)[:5].tolist() == first.tolist()
    assert stream.words(1).tolist() == again.words(1).tolist()
    # a one-row tensor is copied without drawing, as TensorFlow's kernel does
    rg.random.set_seed(4)
    one = rg.random.shuffle(rg.constant([[1, 2, 3]]), seed=1)
    after = rg.random.shuffle(rg.range(10), seed=1).numpy().tolist()
    rg.random.set_seed(4)
    assert one.numpy().tolist() == [[1, 2, 3]]
    assert rg.random.shuffle(rg.range(10), seed=1).numpy().tolist() == after
