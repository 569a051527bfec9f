"""tf.data.Dataset, the in-memory part (tests for src/retrograd/data; the folder is not
named data/ because tests' data/ folders hold goldens and are not collected)."""

import numpy as np
import pytest

import retrograd as rg

Dataset = rg.data.Dataset


def _values(ds):
    return [
        np.asarray(e).tolist()
        if not isinstance(e, tuple)
        else tuple(np.asarray(v).tolist() for v in e)
        for e in ds.as_numpy_iterator()
    ]


def test_from_tensor_slices_structures_and_spec():
    ds = Dataset.from_tensor_slices({"a": np.arange(6).reshape(3, 2), "b": [1.0, 2.0, 3.0]})
    first = next(iter(ds))
    assert sorted(first) == ["a", "b"] and first["a"].numpy().tolist() == [0, 1]
    assert ds.element_spec["a"].shape.as_list() == [2] and ds.element_spec["b"].dtype == rg.float32
    assert len(ds) == 3
    with pytest.raises(ValueError, match="same size"):
        Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))


def test_lists_are_values_and_from_tensors_is_one_element():
    assert _values(Dataset.from_tensor_slices([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert _values(Dataset.from_tensors([1, 2])) == [[1, 2]]


def test_batch_with_and_without_remainder():
    ds = Dataset.range(7)
    assert _values(ds.batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert _values(ds.batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert ds.batch(3).element_spec.shape.as_list() == [None]
    assert ds.batch(3, drop_remainder=True).element_spec.shape.as_list() == [3]
    assert int(ds.batch(3).cardinality()) == 3


def test_map_filter_take_skip_repeat_zip_enumerate():
    ds = Dataset.range(10).map(lambda i: i * 2).filter(lambda i: i % 3 == 0)
    assert _values(ds) == [0, 6, 12, 18]
    assert _values(Dataset.range(5).skip(1).take(2).repeat(2)) == [1, 2, 1, 2]
    pairs = Dataset.zip((Dataset.range(3), Dataset.range(10, 20)))
    assert _values(pairs) == [(0, 10), (1, 11), (2, 12)]
    assert _values(Dataset.range(2).enumerate(5)) == [(5, 0), (6, 1)]
    assert int(Dataset.range(3).repeat().cardinality()) == rg.data.INFINITE
    assert _values(Dataset.range(3).repeat().take(5)) == [0, 1, 2, 0, 1]


def test_shuffle_is_reproducible_and_reshuffles_each_pass():
    ds = Dataset.range(20).shuffle(8, seed=3)
    first, second = _values(ds), _values(ds)
    assert sorted(first) == list(range(20)) and first != list(range(20))
    assert first != second
    again = Dataset.range(20).shuffle(8, seed=3)
    assert _values(again) == first and _values(again) == second
    fixed = Dataset.range(20).shuffle(8, seed=3, reshuffle_each_iteration=False)
    assert _values(fixed) == _values(fixed)
    try:
        rg.random.set_seed(5)
        a = _values(Dataset.range(20).shuffle(20))
        rg.random.set_seed(5)
        assert _values(Dataset.range(20).shuffle(20)) == a
    finally:
        rg.random.set_seed(None)


def test_cache_prefetch_and_iteration_each_pass_starts_over():
    calls = []
    ds = Dataset.range(3).map(lambda i: (calls.append(1), i)[1]).cache().prefetch(rg.data.AUTOTUNE)
    calls.clear()
    assert _values(ds) == [0, 1, 2] and _values(ds) == [0, 1, 2]
    assert len(calls) == 3  # the second pass came from the cache


def test_iteration_inside_a_function():
    ds = Dataset.from_tensor_slices(np.arange(6, dtype=np.float32)).batch(2)

    @rg.function
    def total(dataset):
        s = rg.constant(0.0)
        for batch in dataset:
            s += rg.reduce_sum(batch * batch)
        return s

    assert float(total(ds)) == 55.0


def test_filter_predicate_must_be_a_scalar_bool():
    with pytest.raises(TypeError, match="scalar bool"):
        list(Dataset.range(3).filter(lambda i: i * 2))


def test_from_generator_with_a_signature_restarts_each_pass():
    def gen(n):
        for i in range(n):
            yield np.full((2,), i), i * 10

    ds = Dataset.from_generator(
        gen,
        output_signature=(rg.TensorSpec([2], rg.float32), rg.TensorSpec([], rg.int64)),
        args=(3,),
    )
    assert _values(ds) == [([0.0, 0.0], 0), ([1.0, 1.0], 10), ([2.0, 2.0], 20)]
    assert _values(ds.batch(2))[0] == ([[0.0, 0.0], [1.0, 1.0]], [0, 10])
    legacy = Dataset.from_generator(lambda: iter([1, 2]), output_types=rg.int32)
    assert _values(legacy) == [1, 2]
    bad = Dataset.from_generator(lambda: iter([[1, 2, 3]]), output_signature=rg.TensorSpec([2]))
    with pytest.raises(TypeError, match="shape"):
        list(bad)
