"""tf.nest semantics: flatten order, packing, mapping, structure checks."""

from __future__ import annotations

import collections

import pytest

import retrograd as rg

Point = collections.namedtuple("Point", "x y")


def test_flatten_visits_dict_keys_sorted_and_treats_tensors_as_leaves():
    t = rg.constant([1.0, 2.0])
    assert rg.nest.flatten({"b": [1, (2, 3)], "a": Point(4, t)}) == [4, t, 1, 2, 3]
    assert rg.nest.flatten(None) == [None] and rg.nest.flatten(t) == [t]


def test_pack_sequence_as_rebuilds_types():
    structure = {"b": [0, (0, 0)], "a": Point(0, 0)}
    packed = rg.nest.pack_sequence_as(structure, [1, 2, 3, 4, 5])
    assert packed == {"a": Point(1, 2), "b": [3, (4, 5)]} and isinstance(packed["a"], Point)
    with pytest.raises(ValueError, match="3 leaves"):
        rg.nest.pack_sequence_as([0, 0, 0], [1])


def test_map_structure_and_assert_same_structure():
    assert rg.nest.map_structure(lambda a, b: a * b, [1, {"k": 2}], [3, {"k": 4}]) == [3, {"k": 8}]
    with pytest.raises(ValueError, match="number of elements"):
        rg.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(TypeError, match="sequence type"):
        rg.nest.assert_same_structure([1], (1,))
    with pytest.raises(ValueError, match="keys"):
        rg.nest.assert_same_structure({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match="at least one"):
        rg.nest.map_structure(lambda: 0)
    assert rg.nest.is_nested([]) and not rg.nest.is_nested(rg.constant(1.0))
