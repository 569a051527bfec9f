"""The arguments of a custom-gradient call, and the gradients ``grad_fn`` returns for them.

TensorFlow's contract: every positional argument (nested lists, tuples and dicts included)
is an input — tensors and variables as they are, Python numbers and NumPy arrays converted
— and ``grad_fn`` returns one gradient per input, None where there is none. Arguments that
cannot be tensors (functions, strings, other objects) are passed through and get no
gradient; integer and bool inputs get None whatever ``grad_fn`` returns for them. Keyword
arguments are not inputs.

Gradients are matched to the arguments by path: a dict's gradients by key (a wrong key is
an error naming it), lists and tuples by position. A flat sequence of gradients in the
order of the flattened inputs is accepted too (TensorFlow flattens).

>>> import retrograd as rg
>>> @rg.custom_gradient
... def scaled(x, factor):
...     return x * factor, lambda dy: (dy * factor, None)
>>> x = rg.constant(2.0)
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = scaled(x, 3.0)
>>> tape.gradient(y, x)
<retrograd.Tensor: shape=(), dtype=float32, numpy=3.0>
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable

__all__ = ["Arguments"]

_CONVERTED = (bool, int, float, complex, np.ndarray, np.generic)


class _Leaf:
    """One leaf of the arguments: its path (``x``, ``inputs['a']``), its kind and value."""

    __slots__ = ("path", "kind", "value")

    def __init__(self, path: str, kind: str, value: Any) -> None:
        self.path = path
        self.kind = kind  # "tensor" (tensor or variable), "converted", or "passed"
        self.value = value


class Arguments:
    """The positional arguments of one call, flattened with paths.

    ``inputs`` are the leaves that are inputs of the custom op (tensors, variables and
    converted numbers), in flattening order; ``keyword_tensors`` names the tensors passed
    by keyword (not inputs, as in TensorFlow).
    """

    __slots__ = ("args", "leaves", "inputs", "keyword_tensors", "_names")

    def __init__(self, f: Callable, args: tuple, kwargs: dict) -> None:
        self.args = args
        self._names = _parameter_names(f, len(args))
        self.leaves: list[_Leaf] = []
        for i, a in enumerate(args):
            _collect(a, self._names[i], self.leaves)
        self.inputs = [leaf for leaf in self.leaves if leaf.kind != "passed"]
        self.keyword_tensors = [
            (k, v)
            for k, value in kwargs.items()
            for v in nest.flatten(value)
            if isinstance(v, (Tensor, Variable))
        ]

    def match(self, returned: Any, describe: str) -> list:
        """One gradient (or None) per input, from what ``grad_fn`` returned for the inputs."""
        args = self.args
        try:
            if len(args) == 1:
                single = returned
                if (
                    isinstance(single, (list, tuple))
                    and len(single) == 1
                    and not _same_kind_sequence(args[0], 1)
                ):
                    single = single[0]
                found = _match(args[0], single, self._names[0], describe)
            elif type(returned) in (list, tuple) and len(returned) == len(args):
                found = []
                for a, g, name in zip(args, returned, self._names):
                    found.extend(_match(a, g, name, describe))
            else:
                found = self._flat(returned, describe)
        except _StructureError:
            if not _is_flat(returned):
                raise
            found = self._flat(returned, describe)  # flat gradients, as TensorFlow's
        grads = []
        for leaf, g in zip(self.leaves, found):
            if leaf.kind == "passed":
                if g is not None:
                    raise ValueError(
                        f"{describe}: grad_fn returned a gradient for {leaf.path}, a "
                        f"{type(leaf.value).__name__} passed through without a gradient; "
                        f"return None for it"
                    )
                continue
            if g is not None and leaf.value._value.dtype.kind not in "fc":
                g = None  # integer and bool inputs get no gradient, as in TensorFlow
            grads.append(g)
        return grads

    def _flat(self, returned: Any, describe: str) -> list:
        """Gradients given as a flat sequence: one per leaf, per input, or per tensor."""
        bearing = [
            a for a in self.args if any(isinstance(v, (Tensor, Variable)) for v in nest.flatten(a))
        ]
        if _has_mapping(returned) and len(bearing) == 1:
            # The gradient of the one argument holding tensors (the others are numbers or
            # objects the rule gives none): matched to it by path.
            index = next(i for i, a in enumerate(self.args) if a is bearing[0])
            found: list = []
            for i, a in enumerate(self.args):
                if i == index:
                    found.extend(_match(a, returned, self._names[i], describe))
                else:
                    found.extend([None] * len(nest.flatten(a)))
            return found
        flat = [returned] if not nest.is_nested(returned) else nest.flatten(returned)
        leaves = self.leaves
        if len(flat) == len(leaves):
            return flat
        inputs = self.inputs
        if len(flat) == len(inputs):
            given = iter(flat)
            return [None if leaf.kind == "passed" else next(given) for leaf in leaves]
        tensors = [leaf for leaf in leaves if leaf.kind == "tensor"]
        if len(flat) == len(tensors):
            given = iter(flat)
            return [next(given) if leaf.kind == "tensor" else None for leaf in leaves]
        raise ValueError(
            f"{describe}: grad_fn returned {len(flat)} gradient(s) but the function has "
            f"{len(inputs)} tensor input(s) ({', '.join(leaf.path for leaf in inputs)})"
            f"{self._keyword_note()}; return one per input (None for no gradient)"
        )

    def _keyword_note(self) -> str:
        if not self.keyword_tensors:
            return ""
        names = sorted({k for k, _ in self.keyword_tensors})
        return (
            f". The tensors passed by keyword ({', '.join(names)}) are not inputs, as in "
            f"TensorFlow: pass them positionally to give them gradients"
        )


def _parameter_names(f: Callable, count: int) -> list[str]:
    names = [f"args[{i}]" for i in range(count)]
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return names
    for i in range(count):
        if i < len(params) and params[i].kind in (
            params[i].POSITIONAL_ONLY,
            params[i].POSITIONAL_OR_KEYWORD,
        ):
            names[i] = params[i].name
        elif i < len(params) and params[i].kind is params[i].VAR_POSITIONAL:
            names[i:] = [f"{params[i].name}[{j}]" for j in range(count - i)]
            break
    return names


def _collect(value: Any, path: str, leaves: list) -> None:
    """Appends the leaves of ``value`` in ``nest.flatten``'s order."""
    if isinstance(value, Mapping):
        for key in sorted(value):
            _collect(value[key], f"{path}[{key!r}]", leaves)
    elif isinstance(value, (list, tuple)):
        fields = getattr(value, "_fields", None)
        for i, v in enumerate(value):
            _collect(v, f"{path}.{fields[i]}" if fields else f"{path}[{i}]", leaves)
    elif isinstance(value, (Tensor, Variable)):
        leaves.append(_Leaf(path, "tensor", value))
    elif isinstance(value, _CONVERTED):
        leaves.append(_Leaf(path, "converted", convert_to_tensor(value)))
    else:
        leaves.append(_Leaf(path, "passed", value))


class _StructureError(ValueError):
    """The gradients' structure differs from the arguments' at a path."""


def _is_flat(value: Any) -> bool:
    """A single gradient, or a list or tuple of gradients none of which is a structure."""
    if not isinstance(value, (list, tuple, Mapping)):
        return True
    return isinstance(value, (list, tuple)) and not any(nest.is_nested(v) for v in value)


def _same_kind_sequence(value: Any, length: int) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == length


def _has_mapping(value: Any) -> bool:
    if isinstance(value, Mapping):
        return True
    return isinstance(value, (list, tuple)) and any(_has_mapping(v) for v in value)


def _match(arg: Any, grad: Any, path: str, describe: str) -> list:
    """The gradients for the leaves of ``arg`` (in flattening order), taken from ``grad`` by
    path; an error naming the path where the structures differ."""
    if grad is None:
        return [None] * len(nest.flatten(arg)) if nest.is_nested(arg) else [None]
    if isinstance(arg, Mapping):
        if not isinstance(grad, Mapping):
            raise _StructureError(
                f"{describe}: the gradient for {path} must be a dict with keys "
                f"{sorted(arg)}, like the argument; got {type(grad).__name__}"
            )
        if set(grad) != set(arg):
            missing, unexpected = sorted(set(arg) - set(grad)), sorted(set(grad) - set(arg))
            raise _StructureError(
                f"{describe}: the gradient for {path} has keys {sorted(grad)} but the argument "
                f"has keys {sorted(arg)} (missing {missing}, unexpected {unexpected})"
            )
        found: list = []
        for key in sorted(arg):
            found.extend(_match(arg[key], grad[key], f"{path}[{key!r}]", describe))
        return found
    if isinstance(arg, (list, tuple)):
        if not isinstance(grad, (list, tuple)) or len(grad) != len(arg):
            got = (
                f"{type(grad).__name__} of {len(grad)}"
                if isinstance(grad, (list, tuple))
                else type(grad).__name__
            )
            raise _StructureError(
                f"{describe}: the gradient for {path} must be a sequence of {len(arg)} "
                f"gradient(s), like the argument; got {got}"
            )
        fields = getattr(arg, "_fields", None)
        if fields and getattr(grad, "_fields", fields) != fields:
            raise _StructureError(
                f"{describe}: the gradient for {path} is a {type(grad).__name__} with fields "
                f"{list(getattr(grad, '_fields', ()))} but the argument has fields {list(fields)}"
            )
        found = []
        for i, (a, g) in enumerate(zip(arg, grad)):
            found.extend(
                _match(a, g, f"{path}.{fields[i]}" if fields else f"{path}[{i}]", describe)
            )
        return found
    if isinstance(grad, (Mapping, list, tuple)):
        raise _StructureError(
            f"{describe}: the gradient for {path} is a {type(grad).__name__} but the argument is "
            f"a single value ({type(arg).__name__})"
        )
    if not isinstance(arg, (Tensor, Variable, *_CONVERTED)):
        raise _StructureError(
            f"{describe}: grad_fn returned a gradient for {path}, a {type(arg).__name__} passed "
            f"through without a gradient; return None for it"
        )
    return [grad]
