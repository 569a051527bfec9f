"""Nested structures (TensorFlow's ``tf.nest``): lists, tuples, namedtuples and dicts.

Dict keys are visited in sorted order; everything else (tensors, numbers, None) is a leaf.
A composite value (a ``TensorArray``, ``IndexedSlices``: a type with ``_nest_components()``
and ``_nest_rebuild(components)``) is a leaf too, unless ``expand_composites=True``, which
goes into its component tensors, as TensorFlow's ``expand_composites``.

>>> import retrograd as rg
>>> rg.nest.flatten({"b": [1, 2], "a": (3,)})
[3, 1, 2]
>>> rg.nest.pack_sequence_as({"b": [0, 0], "a": (0,)}, [30, 10, 20])
{'b': [10, 20], 'a': (30,)}
>>> rg.nest.map_structure(lambda x, y: x + y, [1, (2,)], [10, (20,)])
[11, (22,)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "is_nested",
    "is_composite",
]  # fmt: skip


# Whether values of a type are nested, by type: `isinstance(x, Mapping)` is an ABC check,
# slow for the many leaves (tensors) a structure holds.
_NESTED_TYPES: dict[type, bool] = {list: True, tuple: True, dict: True}


def is_nested(seq: Any) -> bool:
    """True for lists, tuples (namedtuples included) and mappings.

    >>> import retrograd as rg
    >>> rg.nest.is_nested([1]), rg.nest.is_nested({'a': 1}), rg.nest.is_nested(rg.constant([1]))
    (True, True, False)
    """
    structure = seq
    kind = type(structure)
    nested = _NESTED_TYPES.get(kind)
    if nested is None:
        nested = _NESTED_TYPES[kind] = isinstance(structure, (list, tuple, Mapping))
    return nested


def _children(structure: Any) -> Sequence[Any]:
    if isinstance(structure, Mapping):
        return [structure[k] for k in _sorted_keys(structure)]
    return structure


def _sorted_keys(mapping: Mapping) -> list[Any]:
    try:
        return sorted(mapping)
    except TypeError as e:
        raise TypeError(f"nest: dict keys must be sortable, got {list(mapping)}") from e


def _flatten_into(structure: Any, leaves: list[Any]) -> None:
    for child in _children(structure):
        if is_nested(child):
            _flatten_into(child, leaves)
        else:
            leaves.append(child)


def flatten(structure: Any, expand_composites: bool = False) -> list[Any]:
    """The leaves of ``structure`` in a deterministic order (a leaf flattens to ``[leaf]``);
    ``expand_composites`` goes into composite values' component tensors.

    >>> import retrograd as rg
    >>> rg.nest.flatten({'b': [1, 2], 'a': (3, None)})
    [3, None, 1, 2]
    """
    if expand_composites:
        leaves: list[Any] = []
        _expand_into(structure, leaves)
        return leaves
    if not is_nested(structure):
        return [structure]
    leaves = []
    _flatten_into(structure, leaves)
    return leaves


def is_composite(value: Any) -> bool:
    """Whether ``value`` is a composite (its type defines ``_nest_components``).

    >>> import retrograd as rg
    >>> is_composite(rg.IndexedSlices([[1.0]], [0], [2, 1])), is_composite([1])
    (True, False)
    """
    return hasattr(type(value), "_nest_components")


def _expand_into(structure: Any, leaves: list[Any]) -> None:
    if is_composite(structure):
        for component in structure._nest_components():
            _expand_into(component, leaves)
    elif is_nested(structure):
        for child in _children(structure):
            _expand_into(child, leaves)
    else:
        leaves.append(structure)


def _pack_expanded(template: Any, position: Any) -> Any:
    if is_composite(template):
        components = [_pack_expanded(c, position) for c in template._nest_components()]
        return template._nest_rebuild(components)
    if is_nested(template):
        return _rebuild(template, [_pack_expanded(c, position) for c in _children(template)])
    return next(position)


def _rebuild(template: Any, children: list[Any]) -> Any:
    kind = type(template)
    if kind is list:
        return children
    if kind is tuple:
        return tuple(children)
    if isinstance(template, Mapping):
        by_key = dict(zip(_sorted_keys(template), children))
        return kind((k, by_key[k]) for k in template)
    if isinstance(template, tuple) and hasattr(template, "_fields"):
        return type(template)(*children)
    return type(template)(children)


def pack_sequence_as(
    structure: Any, flat_sequence: list[Any], expand_composites: bool = False
) -> Any:
    """Builds ``structure``'s shape again with the leaves of ``flat_sequence`` (with
    ``expand_composites``, composites are rebuilt from their components).

    >>> import retrograd as rg
    >>> rg.nest.pack_sequence_as({'b': [0, 0], 'a': 0}, [1, 2, 3])
    {'b': [2, 3], 'a': 1}
    """
    flat_sequence = list(flat_sequence)
    count = len(flatten(structure, expand_composites))
    if count != len(flat_sequence):
        raise ValueError(
            f"pack_sequence_as: structure has {count} leaves but flat_sequence has "
            f"{len(flat_sequence)} elements"
        )
    if expand_composites:
        return _pack_expanded(structure, iter(flat_sequence))
    if not is_nested(structure):
        return flat_sequence[0]
    return _pack(structure, iter(flat_sequence))


def _pack(template: Any, position: Any) -> Any:
    # A module-level function, not a closure calling itself: such a closure is a reference
    # cycle that would keep the packed values (gradients) alive until the next collection.
    return _rebuild(
        template,
        [
            _pack(child, position) if is_nested(child) else next(position)
            for child in _children(template)
        ],
    )


def assert_same_structure(
    nest1: Any, nest2: Any, check_types: bool = True, expand_composites: bool = False
) -> None:
    """Raises ValueError (or TypeError for differing sequence types) when structures differ.

    >>> import retrograd as rg
    >>> rg.nest.assert_same_structure([1, (2, 3)], [4, (5, 6)])
    >>> rg.nest.assert_same_structure([1, (2, 3)], [4, 5])
    Traceback (most recent call last):
        ...
    ValueError: The two structures don't have the same nested structure: (2, 3) vs 5
    """
    if expand_composites and (is_composite(nest1) or is_composite(nest2)):
        if check_types and type(nest1) is not type(nest2):
            raise TypeError(
                f"The two structures don't have the same sequence type: {type(nest1).__name__} "
                f"vs {type(nest2).__name__}"
            )
        nest1 = list(nest1._nest_components()) if is_composite(nest1) else nest1
        nest2 = list(nest2._nest_components()) if is_composite(nest2) else nest2
    if is_nested(nest1) != is_nested(nest2):
        raise ValueError(
            f"The two structures don't have the same nested structure: {nest1!r} vs {nest2!r}"
        )
    if not is_nested(nest1):
        return
    if check_types and type(nest1) is not type(nest2):
        raise TypeError(
            f"The two structures don't have the same sequence type: {type(nest1).__name__} vs "
            f"{type(nest2).__name__}"
        )
    if isinstance(nest1, Mapping) and set(nest1) != set(nest2):
        raise ValueError(
            f"The two dicts don't have the same keys: {sorted(nest1)} vs {sorted(nest2)}"
        )
    c1, c2 = _children(nest1), _children(nest2)
    if len(c1) != len(c2):
        raise ValueError(
            f"The two structures don't have the same number of elements: {len(c1)} vs {len(c2)}"
        )
    for a, b in zip(c1, c2):
        assert_same_structure(a, b, check_types, expand_composites)


def map_structure(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    """Applies ``func`` to corresponding leaves of ``structure``s; returns the first's
    shape. Keywords: ``check_types`` (default True) and ``expand_composites`` (False).

    >>> import retrograd as rg
    >>> rg.nest.map_structure(lambda x, y: x + y, {'a': [1, 2]}, {'a': [10, 20]})
    {'a': [11, 22]}
    """
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError(
            f"Only valid keyword arguments are `check_types` and `expand_composites`, not: "
            f"`{', '.join(kwargs)}`"
        )
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types, expand)
    flats = [flatten(s, expand) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)], expand)
