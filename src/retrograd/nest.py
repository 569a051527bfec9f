"""Nested structures (TensorFlow's ``tf.nest``): lists, tuples, namedtuples and dicts;
composites (``TensorArray``, ``IndexedSlices``) are leaves unless ``expand_composites``.

>>> import retrograd as rg
>>> rg.nest.flatten({"b": [1, 2], "a": (3,)})
[3, 1, 2]
"""

from retrograd.core.nest import (
    assert_same_structure,
    flatten,
    is_nested,
    map_structure,
    pack_sequence_as,
)

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]
