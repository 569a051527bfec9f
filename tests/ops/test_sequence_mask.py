"""sequence_mask matches TensorFlow (goldens from tests/ops/data/make_sequence_mask_goldens.py),
eagerly and in a graph whose lengths are known only when it runs."""

import json
import pathlib

import numpy as np
import pytest

import retrograd as rg

DATA = json.loads((pathlib.Path(__file__).parent / "data/sequence_mask_goldens.json").read_text())


@pytest.mark.parametrize("case, golden", list(zip(DATA["cases"], DATA["goldens"])), ids=str)
def test_sequence_mask_matches_tensorflow(case, golden):
    lengths, maxlen, dtype = case
    got = rg.sequence_mask(lengths, maxlen, dtype=getattr(rg, dtype))
    assert got.dtype.name == dtype
    assert got.numpy().tolist() == golden


def test_run_time_lengths_in_a_graph():
    g = rg.Graph()
    with g.as_default():
        lengths = rg.compat.v1.placeholder(rg.int32, [None])
        mask = rg.sequence_mask(lengths)
        assert mask.shape.as_list() == [None, None]
        with rg.compat.v1.Session() as session:
            got = session.run(mask, {lengths: [1, 3]})
    np.testing.assert_array_equal(got, [[True, False, False], [True, True, True]])


def test_a_maxlen_that_is_not_a_scalar_is_refused():
    with pytest.raises(ValueError, match="maxlen.*scalar"):
        rg.sequence_mask([1, 2], [3])
