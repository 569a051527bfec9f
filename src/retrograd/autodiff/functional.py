"""Function transforms, as JAX and ``torch.func`` offer them, on Python functions of tensors:
``grad``, ``value_and_grad``, ``vjp``, ``jvp``, ``jacfwd``, ``jacrev`` (``jacobian``),
``hessian`` and ``hvp``.

Arguments may be tensors, NumPy arrays, Python numbers or nested lists, tuples and dicts of
them; results come in the same structures. Each differentiated argument is its own value
(``f(x, x)`` has two gradients), differentiated inside ``f`` only, so transforms nest
(``grad(grad(f))``, ``jacfwd(jacrev(f))``) and compose with tapes and accumulators around
them. Custom gradients work in every transform, forward or reverse.

>>> import retrograd as rg
>>> from retrograd import functional as F
>>> f = lambda x: rg.reduce_sum(x ** 3)
>>> F.grad(f)(rg.constant([1.0, 2.0])).numpy().tolist()
[3.0, 12.0]
>>> F.hessian(f)(rg.constant([1.0, 2.0])).numpy().tolist()
[[6.0, 0.0], [0.0, 12.0]]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec

import numpy as np

from retrograd.autodiff.forward import ForwardAccumulator
from retrograd.autodiff.tape import GradientTape, UnconnectedGradients
from retrograd.core import nest
from retrograd.core.backends import on_device_of, zeros_like
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.core.variables import Variable
from retrograd.ops import array_ops
from retrograd.ops.indexed_slices import dense_gradients

__all__ = [
    "grad",
    "value_and_grad",
    "vjp",
    "jvp",
    "jacfwd",
    "jacrev",
    "jacobian",
    "hessian",
    "hvp",
]

_ZERO = UnconnectedGradients.ZERO


# --- arguments, outputs and auxiliary data ---------------------------------------------------

_P = ParamSpec("_P")


def _fresh(value: Any, where: str) -> Any:
    """A differentiated argument: each tensor leaf a new value (a recorded identity)."""

    def leaf(x: Any) -> Tensor:
        t = x if isinstance(x, Tensor) else convert_to_tensor(x)
        if t._value.dtype.kind not in "fc":
            raise TypeError(
                f"{where}: differentiation needs floating or complex inputs, got a "
                f"{t.dtype.name} value {x!r}"
            )
        return array_ops.identity(t)

    return nest.map_structure(leaf, value)


def _positions(argnums: int | tuple, count: int, where: str) -> tuple[int, ...]:
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for p in positions:
        if not isinstance(p, int) or not -count <= p < count:
            raise ValueError(
                f"{where}: argnums {argnums!r} does not name positional arguments of a call "
                f"with {count} argument(s)"
            )
    return tuple(p % count for p in positions)


def _with_fresh(args: tuple, argnums: int | tuple, where: str) -> tuple[tuple, Any]:
    """The arguments with those in ``argnums`` made fresh, and those (one, or a tuple)."""
    fresh = list(args)
    positions = _positions(argnums, len(fresh), where)
    for p in positions:
        fresh[p] = _fresh(fresh[p], where)
    chosen = tuple(fresh[p] for p in positions)
    return tuple(fresh), chosen[0] if isinstance(argnums, int) else chosen


def _split_aux(out: Any, has_aux: bool, where: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(
            f"{where}: with has_aux=True the function must return a pair (output, aux), got "
            f"{type(out).__name__}"
        )
    return out[0], out[1]


def _check_outputs(out: Any, where: str) -> list[Tensor]:
    flat = nest.flatten(out)
    for i, y in enumerate(flat):
        if not isinstance(y, (Tensor, Variable)):
            raise TypeError(
                f"{where}: the function must return tensors (a nested structure of them); "
                f"output {i} is a {type(y).__name__}"
            )
    return flat


# --- reverse mode -----------------------------------------------------------------------------


def value_and_grad(
    f: Callable[_P, Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[_P, tuple[Any, Any]]:
    """``f`` returning ``(value, gradient)``: the gradient of its scalar output with respect
    to argument ``argnums`` (a tuple of positions gives a tuple of gradients).

    With ``has_aux=True``, ``f`` returns ``(value, aux)`` and the result is
    ``((value, aux), gradient)``.

    >>> import retrograd as rg
    >>> value, g = rg.functional.value_and_grad(lambda x, y: x * y, argnums=(0, 1))(2.0, 3.0)
    >>> float(value), float(g[0]), float(g[1])
    (6.0, 3.0, 2.0)
    """

    @functools.wraps(f)
    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        args, chosen = _with_fresh(args, argnums, "value_and_grad")
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(chosen)
            out = f(*args, **kwargs)
        value, aux = _split_aux(out, has_aux, "value_and_grad")
        if not isinstance(value, Tensor) or value.ndim != 0 or value._value.dtype.kind not in "fc":
            raise TypeError(
                f"grad: gradients are only defined for functions with a scalar floating output; "
                f"'{getattr(f, '__name__', f)}' returned "
                + (
                    f"shape {plain_dims(value.shape)} and dtype {value.dtype.name}"
                    if isinstance(value, Tensor)
                    else f"a {type(value).__name__}"
                )
            )
        grads = dense_gradients(tape.gradient(value, chosen, unconnected_gradients=_ZERO))
        return ((value, aux), grads) if has_aux else (value, grads)

    return value_and_grad_f


def grad(
    f: Callable[_P, Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[_P, Any]:
    """``f``'s gradient function: the gradient of its scalar output with respect to argument
    ``argnums`` (an int, or a tuple of positions for a tuple of gradients). With
    ``has_aux=True``, ``f`` returns ``(value, aux)`` and the gradient function returns
    ``(gradient, aux)``.

    >>> import retrograd as rg
    >>> rg.functional.grad(rg.sin)(0.0)
    <retrograd.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    value_and_grad_f = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        value, grads = value_and_grad_f(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return grad_f


def vjp(f: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """``(f(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` returns a tuple with one gradient per
    primal, the cotangents (in the structure of the output) times the Jacobian. With
    ``has_aux=True``: ``(output, vjp_fn, aux)``. ``vjp_fn`` may be called several times.

    >>> import retrograd as rg
    >>> y, vjp_fn = rg.functional.vjp(lambda x: x * x, rg.constant([1.0, 2.0]))
    >>> vjp_fn(rg.constant([1.0, 10.0]))[0].numpy().tolist()
    [2.0, 40.0]
    """
    fresh = [_fresh(p, "vjp") for p in primals]
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(fresh)
        out = f(*fresh)
    y, aux = _split_aux(out, has_aux, "vjp")
    outputs = _check_outputs(y, "vjp")

    def vjp_fn(cotangents: Any) -> tuple:
        nest.assert_same_structure(y, cotangents, check_types=False)
        given = [
            Tensor(zeros_like(o._value)) if c is None else convert_to_tensor(c, dtype=o.dtype)
            for o, c in zip(outputs, nest.flatten(cotangents))
        ]
        return tuple(
            dense_gradients(tape.gradient(outputs, fresh, given, unconnected_gradients=_ZERO))
        )

    return (y, vjp_fn, aux) if has_aux else (y, vjp_fn)


def jacrev(
    f: Callable[_P, Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[_P, Any]:
    """``f``'s Jacobian by reverse mode (``GradientTape.jacobian``: vectorised where the
    rules allow). For each output leaf of shape ``S``, the structure of argument ``argnums``
    with leaves of shape ``S + leaf.shape``. Best when outputs are fewer than inputs.

    >>> import retrograd as rg
    >>> rg.functional.jacrev(lambda x: x * x)(rg.constant([1.0, 2.0])).numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """

    @functools.wraps(f)
    def jacrev_f(*args: Any, **kwargs: Any) -> Any:
        args, chosen = _with_fresh(args, argnums, "jacrev")
        with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
            tape.watch(chosen)
            out = f(*args, **kwargs)
        y, aux = _split_aux(out, has_aux, "jacrev")
        outputs = _check_outputs(y, "jacrev")
        jac = [tape.jacobian(o, chosen, unconnected_gradients=_ZERO) for o in outputs]
        jac = nest.pack_sequence_as(y, jac) if nest.is_nested(y) else jac[0]
        return (jac, aux) if has_aux else jac

    return jacrev_f


jacobian = jacrev


# --- forward mode -----------------------------------------------------------------------------


def jvp(f: Callable[..., Any], primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """``(f(*primals), J·tangents)`` by forward mode: ``primals`` and ``tangents`` are tuples
    (or lists) of arguments, each tangent shaped like its primal. With ``has_aux=True``:
    ``(output, tangent, aux)``.

    >>> import retrograd as rg
    >>> y, t = rg.functional.jvp(rg.sin, (0.0,), (2.0,))
    >>> float(y), float(t)
    (0.0, 2.0)
    """
    for what, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(
                f"jvp: {what} must be a tuple or list of arguments, got {type(value).__name__}"
            )
    if len(primals) != len(tangents):
        raise ValueError(
            f"jvp: {len(primals)} primal(s) but {len(tangents)} tangent(s); give one per primal"
        )
    fresh = [_fresh(p, "jvp") for p in primals]
    with ForwardAccumulator(fresh, list(tangents)) as acc:
        out = f(*fresh)
    y, aux = _split_aux(out, has_aux, "jvp")
    _check_outputs(y, "jvp")
    t = acc.jvp(y, unconnected_gradients=_ZERO)
    return (y, t, aux) if has_aux else (y, t)


def jacfwd(
    f: Callable[_P, Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[_P, Any]:
    """``f``'s Jacobian by forward mode, one JVP per element of the inputs; the same layout
    as ``jacrev``. Best when inputs are fewer than outputs.

    >>> import retrograd as rg
    >>> rg.functional.jacfwd(lambda x: x * x)(rg.constant([1.0, 2.0])).numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """

    @functools.wraps(f)
    def jacfwd_f(*args: Any, **kwargs: Any) -> Any:
        args, chosen = _with_fresh(args, argnums, "jacfwd")
        sources = nest.flatten(chosen)
        columns: list[list] = []  # per source leaf: per element, the output tangents
        out = None
        for x in sources:
            columns.append([])
            for k in range(x._value.size):
                unit = np.zeros(x._value.size, dtype=x._value.dtype)
                unit[k] = 1
                unit = on_device_of(unit.reshape(x._value.shape), x._value)
                with ForwardAccumulator(x, Tensor(unit)) as acc:
                    out = f(*args, **kwargs)
                y = _split_aux(out, has_aux, "jacfwd")[0]
                columns[-1].append(acc.jvp(_check_outputs(y, "jacfwd"), _ZERO))
        if out is None:  # no input elements: run once for the output's structure
            out = f(*args, **kwargs)
        y, aux = _split_aux(out, has_aux, "jacfwd")
        outputs = _check_outputs(y, "jacfwd")
        jac = [
            nest.pack_sequence_as(
                chosen, [_stacked(cols, i, o, x) for cols, x in zip(columns, sources)]
            )
            for i, o in enumerate(outputs)
        ]
        jac = nest.pack_sequence_as(y, jac) if nest.is_nested(y) else jac[0]
        return (jac, aux) if has_aux else jac

    return jacfwd_f


def _stacked(columns: list, i: int, output: Any, source: Tensor) -> Tensor:
    """Output ``i``'s tangents for each element of ``source``, as ``[*output, *source]``."""
    shape = (*output._value.shape, *source._value.shape)
    if not columns:
        return Tensor(zeros_like(source._value, shape))
    stacked = array_ops.stack([c[i] for c in columns], axis=-1)
    return array_ops.reshape(stacked, shape)


# --- second order -----------------------------------------------------------------------------


def hessian(
    f: Callable[_P, Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[_P, Any]:
    """``f``'s Hessian, forward over reverse (``jacfwd(jacrev(f))``): for a scalar function
    of ``x``, shape ``x.shape + x.shape``.

    >>> import retrograd as rg
    >>> rg.functional.hessian(lambda x: x[0] * x[1])(rg.constant([1.0, 2.0])).numpy().tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    return jacfwd(jacrev(f, argnums, has_aux), argnums, has_aux)


def hvp(f: Callable[..., Any], primals: Any, tangents: Any) -> Any:
    """The Hessian of scalar ``f`` times ``tangents``, forward over reverse without forming
    the Hessian: ``jvp(grad(f), primals, tangents)[1]`` (JAX's recipe), in the structure of
    the first argument.

    >>> import retrograd as rg
    >>> f = lambda x: rg.reduce_sum(x ** 3)
    >>> rg.functional.hvp(f, (rg.constant([1.0, 2.0]),), (rg.constant([1.0, 1.0]),))
    <retrograd.Tensor: shape=(2,), dtype=float32, numpy=array([ 6., 12.], dtype=float32)>
    """
    return jvp(grad(f), primals, tangents)[1]
