"""einsum: any Einstein-summation equation NumPy accepts, with its gradient as an einsum.

The equation is normalised once, from the operands' static shapes, into explicit letters
(``...`` replaced by letters of its own, the output written out), and that is the op's
attribute. The gradient for operand k is one einsum of the upstream gradient with the
other operands, written to k's subscripts; a label repeated in k (a diagonal) is spread
back with an identity matrix, a label summed only inside k with a vector of ones, and a
broadcast ``...`` dimension is summed back to size 1.

>>> import retrograd as rg
>>> a, b = rg.constant([[1.0, 2.0], [3.0, 4.0]]), rg.constant([1.0, 1.0])
>>> rg.einsum("ij,j->i", a, b).numpy().tolist(), rg.einsum("ii", a).numpy().tolist()
([3.0, 7.0], 5.0)
"""

from __future__ import annotations

import re
import string
from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import op_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import broadcast, math_ops
from retrograd.ops.define import beside, tensor_arg, tensor_pair

_TERM = re.compile(r"^[a-zA-Z]*(\.\.\.)?[a-zA-Z]*$")
_OPTIMIZE = ("greedy", "optimal", "branch-2", "branch-all", "auto")
KINDS = "iufc"


def _einsum_kernel(*operands, equation):
    # Paths through tensordot (BLAS) pay off for three or more operands or large ones.
    size = sum(x.size for x in operands)
    return np.einsum(equation, *operands, optimize=len(operands) > 2 or size > 4096)


_Einsum = define_op("Einsum", _einsum_kernel)


def _format_error(equation: str) -> ValueError:
    return ValueError(f"einsum: Subscripts have incorrect format: {equation!r}")


def _split(equation: str, count: int) -> tuple[list[str], str | None]:
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise _format_error(equation)
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != count:
        raise ValueError(
            f'einsum: Got {count} inputs for equation "{equation}", expecting {len(terms)}'
        )
    output = rhs if "->" in eq else None
    for term in [*terms, *([] if output is None else [output])]:
        if not _TERM.match(term):
            raise _format_error(equation)
    return terms, output


def normalize_equation(equation: str, shapes: list[tuple[int, ...]]) -> str:
    """The equation with explicit letters for ``...`` and an explicit output; checks that
    each operand has as many dimensions as labels and that each label has one size."""
    terms, output = _split(equation, len(shapes))
    free = [c for c in string.ascii_letters if c not in equation]
    ellipsis_dims = []
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        labels = len(term.replace("...", ""))
        if "..." not in term and len(shape) != labels:
            raise InvalidArgumentError(
                f"einsum: Expected input {i} to have rank {labels} but got: {len(shape)}"
            )
        if len(shape) < labels:
            raise InvalidArgumentError(
                f"einsum: input {i} of rank {len(shape)} has fewer dimensions than the "
                f"{labels} labels of {term!r}"
            )
        ellipsis_dims.append(len(shape) - labels)
    count = max(ellipsis_dims, default=0)
    if count > len(free):
        raise InvalidArgumentError(f"einsum: too many dimensions under '...' ({count})")
    letters = "".join(free[:count])
    expanded = [t.replace("...", letters[count - e :]) for t, e in zip(terms, ellipsis_dims)]
    _label_sizes(expanded, shapes, set(letters))
    if output is None:  # implicit: '...' then the labels used once, in alphabetical order
        used = "".join(t.replace("...", "") for t in terms)
        output = letters + "".join(sorted(c for c in set(used) if used.count(c) == 1))
    else:
        if count and "..." not in output:
            raise InvalidArgumentError(
                f"einsum: the inputs have {count} dimension(s) under '...' but the output "
                f"subscripts {output!r} have no '...' to keep them"
            )
        output = output.replace("...", letters)
        for c in output:
            if output.count(c) > 1:
                raise ValueError(f"einsum: Output subscripts contain a label appearing more "
                                 f"than once: {equation!r}")  # fmt: skip
            if not any(c in t for t in expanded):
                raise ValueError(
                    f"einsum: Output subscripts contain the label {c!r} not present in the "
                    f"input subscripts"
                )
    return ",".join(expanded) + "->" + output


def _label_sizes(terms: list[str], shapes: list, broadcastable: set) -> dict[str, int]:
    """Each label's size; labels under '...' broadcast (size 1 stretches), others must agree."""
    sizes: dict[str, int] = {}
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        for axis, (c, d) in enumerate(zip(term, shape)):
            known = sizes.setdefault(c, d)
            if known == d:
                continue
            if c in broadcastable and 1 in (known, d):
                sizes[c] = max(known, d)
                continue
            raise InvalidArgumentError(
                f"einsum: Expected dimension {known} at axis {axis} of input {i} shaped "
                f"{list(shape)} (label {c!r}) but got dimension {d}"
            )
    return sizes


def _operands(inputs: tuple) -> list[Tensor]:
    """The operands as tensors of one dtype (Python and NumPy values adopt a tensor's)."""
    if not inputs:
        raise ValueError("einsum: at least one operand is required")
    first = next((x for x in inputs if isinstance(x, Tensor)), inputs[0])
    ref = tensor_arg("Einsum", first, KINDS, "inputs")
    return [tensor_pair("Einsum", ref, x, KINDS)[1] for x in inputs]


def einsum(equation: str, *inputs: TensorLike, **kwargs: Any) -> Tensor:
    """Einstein summation over ``inputs`` as ``equation`` says (NumPy's notation: ``->``
    output, ``...`` broadcast dimensions, repeated labels for diagonals and traces).

    >>> import retrograd as rg
    >>> x = rg.ones([5, 2, 3])
    >>> y = rg.ones([5, 3, 4])
    >>> rg.einsum("bij,bjk->bik", x, y).shape
    TensorShape([5, 2, 4])
    """
    name = kwargs.pop("name", None)
    optimize = kwargs.pop("optimize", "greedy")
    if kwargs:
        raise TypeError(f"einsum: invalid keyword arguments {sorted(kwargs)}")
    if optimize not in _OPTIMIZE:  # accepted for TensorFlow's signature; values are the same
        raise ValueError(f"einsum: `optimize` must be one of {_OPTIMIZE}, got {optimize!r}")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: `equation` must be a string, got {equation!r}")
    tensors = _operands(inputs)
    normalized = normalize_equation(equation, [tuple(t._value.shape) for t in tensors])
    return execute(_Einsum, tensors, {"equation": normalized}, name)


@op_gradient("Einsum")
def _einsum_grad(op, grad):
    equation = op.get_attr("equation")
    lhs, output = equation.split("->")
    terms = lhs.split(",")
    shapes = [plain_dims(x.shape) for x in op.inputs]
    sizes = _label_sizes(terms, shapes, set(string.ascii_letters))
    free = [c for c in string.ascii_letters if c not in equation]
    return [
        _operand_grad(op.inputs, terms, output, k, grad, sizes, free) for k in range(len(op.inputs))
    ]


def _operand_grad(inputs, terms, output, k, grad, sizes, free):
    x = inputs[k]
    dtype = x._value.dtype
    others = [j for j in range(len(inputs)) if j != k]
    extra_terms, extra_operands, target = [], [], []
    fresh = iter(free)
    for c in terms[k]:
        if c in target:  # a diagonal: a new label tied to c by an identity matrix
            new = next(fresh)
            extra_terms.append(c + new)
            extra_operands.append(beside(np.eye(sizes[c], dtype=dtype), x))
            target.append(new)
        else:
            target.append(c)
    reachable = set(output).union(*(terms[j] for j in others))
    for axis, c in enumerate(terms[k]):
        if c not in reachable:  # summed only inside operand k: spread back by ones
            reachable.add(c)
            extra_terms.append(c)
            ones = np.ones(x._value.shape[axis], dtype)
            extra_operands.append(beside(ones, x))
    equation = ",".join([output, *(terms[j] for j in others), *extra_terms])
    equation += "->" + "".join(target)
    operands = [grad, *(math_ops.conj(inputs[j]) for j in others), *extra_operands]
    g = execute(_Einsum, operands, {"equation": equation})
    return broadcast.unbroadcast(g, x)
