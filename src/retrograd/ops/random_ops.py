"""Random numbers with TensorFlow's seeding semantics: normal, uniform, truncated_normal and
categorical (shuffle: ``random_shuffle_ops``). None of the sampling ops has a gradient;
``mean``, ``stddev``, ``minval`` and ``maxval`` are applied with ordinary ops, so gradients
reach them.

Seeds work as in TensorFlow 2: ``random_seeding`` has the rules.

>>> import retrograd as rg
>>> rg.random.set_seed(7)
>>> a = rg.random.uniform([2], seed=1)
>>> rg.random.set_seed(7)
>>> rg.random.uniform([2], seed=1).numpy().tolist() == a.numpy().tolist()
True
>>> rg.random.set_seed(None)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.dtypes import DType, as_dtype
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.ops import math_ops
from retrograd.ops.define import FLOAT, INTEGER, tensor_arg, tensor_pair
from retrograd.ops.random_seeding import generator

# --- kernels ----------------------------------------------------------------------------------


def _run_time(dims: tuple, shape: tuple) -> tuple:
    """The shape to draw: the run-time shape input where there is one, else the attribute."""
    return tuple(int(d) for d in dims[0]) if dims else shape


def _draw_dtype(dtype: DType) -> type:
    return np.float64 if dtype == dtypes.float64 else np.float32


def _normal_kernel(*dims, shape, dtype, seed, seed2, rng):
    shape = _run_time(dims, shape)
    return rng.standard_normal(shape, dtype=_draw_dtype(dtype)).astype(dtype.as_numpy_dtype)


def _uniform_kernel(*dims, shape, dtype, seed, seed2, rng):
    shape = _run_time(dims, shape)
    if dtype == dtypes.float16:  # multiples of 2**-11 are exact in float16 and stay below 1
        return (rng.integers(0, 2**11, shape) * 2.0**-11).astype(np.float16)
    return rng.random(shape, dtype=_draw_dtype(dtype))


def _uniform_int_kernel(minval, maxval, *dims, shape, dtype, seed, seed2, rng):
    shape = _run_time(dims, shape)
    if not minval < maxval:
        raise InvalidArgumentError(
            f"RandomUniformInt: need minval < maxval, got {minval} >= {maxval}"
        )
    return rng.integers(minval, maxval, size=shape, dtype=dtype.as_numpy_dtype)


def _truncated_normal_kernel(*dims, shape, dtype, seed, seed2, rng):
    shape = _run_time(dims, shape)
    draw = _draw_dtype(dtype)
    out = rng.standard_normal(shape, dtype=draw)
    outside = np.abs(out) > 2
    while np.any(outside):  # redraw beyond two standard deviations, as TensorFlow does
        out[outside] = rng.standard_normal(int(np.count_nonzero(outside)), dtype=draw)
        outside = np.abs(out) > 2
    return out.astype(dtype.as_numpy_dtype)


def _multinomial_kernel(logits, num_samples, output_dtype, seed, seed2, rng):
    # Inverse CDF per row; non-finite logits have probability 0 and a row without any
    # probability gives num_classes, as TensorFlow's CPU kernel does.
    x = logits.astype(np.float64)
    finite = np.isfinite(x)
    top = np.max(np.where(finite, x, -np.inf), axis=1, keepdims=True) if x.shape[1] else x[:, :1]
    weights = np.where(finite, np.exp(x - top), 0.0)
    cdf = np.cumsum(weights, axis=1)
    draws = rng.random((x.shape[0], num_samples)) * cdf[:, -1:]
    out = np.empty((x.shape[0], num_samples), dtype=output_dtype.as_numpy_dtype)
    for row in range(x.shape[0]):
        out[row] = np.searchsorted(cdf[row], draws[row], side="right")
    return out


def _sampled_shape(metas, shape, dtype, **_):
    return [(shape, dtype.as_numpy_dtype)]


def _multinomial_shape(metas, num_samples, output_dtype, **_):
    rows = None if metas[0].shape is None else metas[0].shape[0]
    return [((rows, num_samples), output_dtype.as_numpy_dtype)]


def _random_op(type_name, kernel, shape_fn):
    # Shape functions keep graph construction from running the kernel (which would draw).
    # Stateful, as in TensorFlow: a function runs it even when its output goes unused, and
    # returns its output for the gradient instead of drawing again there.
    # Drawn on the host (NumPy's generator), then placed on the current device.
    kernel = host_kernel(kernel, makes_arrays=True)
    return define_op(type_name, kernel, shape_fn=shape_fn, stateful=True, quiet=True)


_RandomStandardNormal = _random_op("RandomStandardNormal", _normal_kernel, _sampled_shape)
_RandomUniform = _random_op("RandomUniform", _uniform_kernel, _sampled_shape)
_RandomUniformInt = _random_op("RandomUniformInt", _uniform_int_kernel, _sampled_shape)
_TruncatedNormal = _random_op("TruncatedNormal", _truncated_normal_kernel, _sampled_shape)
_Multinomial = _random_op("Multinomial", _multinomial_kernel, _multinomial_shape)

for _op_type in (
    "RandomStandardNormal",
    "RandomUniform",
    "RandomUniformInt",
    "TruncatedNormal",
    "Multinomial",
):
    no_gradient(_op_type)


# --- public functions -------------------------------------------------------------------------

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _dtype(op_type: str, dtype: Any, allowed: tuple) -> DType:
    d = as_dtype(dtype)
    if d not in allowed:
        names = ", ".join(a.name for a in allowed)
        raise ValueError(f"{op_type}: dtype must be one of {names}, got {d.name}")
    return d


class _RunTimeShape:
    """A sample shape known only when the graph runs: an int32 vector tensor, and what is
    known of each dimension while building (None where unknown)."""

    def __init__(self, tensor: Tensor, known: tuple) -> None:
        self.tensor = tensor
        self.known = tuple(None if k is None or k < 0 else k for k in known)


def _shape(op_type: str, shape: Any) -> Any:
    from retrograd.ops import dynamic_shape_ops

    if isinstance(shape, (int, np.integer)) or (isinstance(shape, Tensor) and shape.ndim != 1):
        raise InvalidArgumentError(f"{op_type}: shape must be a vector of ints, got {shape!r}")
    dims, dynamic, known = dynamic_shape_ops.shape_input(shape, op_type)
    if dims is None:  # tf.shape(x) of a graph tensor: drawn at the run-time shape
        return _RunTimeShape(dynamic, known)
    if any(d >= 2**63 for d in dims):  # TensorFlow cannot make its int64 shape tensor
        raise ValueError(
            f"{op_type}: Can't convert Python sequence with out-of-range integer to Tensor "
            f"(`shape` = {list(dims)})"
        )
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{op_type}: dimensions must be >= 0, got shape {list(dims)}")
    return dims


def seeded(seed: int | None) -> Any:
    """Where the ops of the module-level functions draw from: the streams of ``seed``.

    A source is called with (op type, dtype-like attributes) and returns the NumPy
    generator to draw from and the (seed, seed2) attributes to record;
    :class:`retrograd.random.Generator` passes its own.
    """
    return lambda op_type, kind: generator(op_type, kind, seed)


def _sample(op, shape, dtype, source, name, inputs=()) -> Tensor:
    rng, (seed1, seed2) = source(op.type, (dtype,))
    if isinstance(shape, _RunTimeShape):
        inputs, shape = (*inputs, shape.tensor), shape.known
    attrs = {"shape": shape, "dtype": dtype, "seed": seed1, "seed2": seed2, "rng": rng}
    return execute(op, inputs, attrs, name)


def _is(value: Any, number: float) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and value == number


def _scale_and_shift(op_type: str, rnd: Tensor, scale: Any, shift: Any, name) -> Tensor:
    """``rnd * scale + shift`` with ops (gradients reach scale and shift), skipped for 1 and 0."""
    if _is(scale, 1) and _is(shift, 0):
        return rnd
    _, scale = tensor_pair(op_type, rnd, scale, FLOAT)
    _, shift = tensor_pair(op_type, rnd, shift, FLOAT)
    return math_ops.add(rnd * scale, shift, name=name)


def normal(
    shape: ShapeLike,
    mean: TensorLike = 0.0,
    stddev: TensorLike = 1.0,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Samples from the normal distribution with ``mean`` and ``stddev``.

    >>> import retrograd as rg
    >>> x = rg.random.normal([2, 3], mean=1.0, stddev=0.5, seed=1)
    >>> x.shape.as_list(), x.dtype.name
    ([2, 3], 'float32')
    """
    return normal_from(seeded(seed), shape, mean, stddev, dtype, name)


def normal_from(source, shape, mean, stddev, dtype, name) -> Tensor:
    """normal, drawing from ``source`` (see :func:`seeded`)."""
    return _scaled_draw(_RandomStandardNormal, source, shape, mean, stddev, dtype, name)


def _scaled_draw(op, source, shape, mean, stddev, dtype, name) -> Tensor:
    """A standard draw of ``op`` (a normal-like distribution), times stddev plus mean."""
    dtype = _dtype(op.type, dtype, _FLOATS)
    rnd = _sample(op, _shape(op.type, shape), dtype, source, None)
    return _scale_and_shift(op.type, rnd, stddev, mean, name)


def truncated_normal(
    shape: ShapeLike,
    mean: TensorLike = 0.0,
    stddev: TensorLike = 1.0,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Samples from the normal distribution cut at two standard deviations (redrawn there).

    >>> import retrograd as rg
    >>> x = rg.random.truncated_normal([1000], stddev=0.5, seed=1)
    >>> bool(rg.reduce_max(rg.abs(x)) <= 1.0)  # within two standard deviations
    True
    """
    return truncated_normal_from(seeded(seed), shape, mean, stddev, dtype, name)


def truncated_normal_from(source, shape, mean, stddev, dtype, name) -> Tensor:
    """truncated_normal, drawing from ``source`` (see :func:`seeded`)."""
    return _scaled_draw(_TruncatedNormal, source, shape, mean, stddev, dtype, name)


def uniform(
    shape: ShapeLike,
    minval: TensorLike = 0,
    maxval: TensorLike | None = None,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Samples uniformly from ``[minval, maxval)``; integer dtypes need ``maxval``.

    >>> import retrograd as rg
    >>> x = rg.random.uniform([1000], minval=-2, maxval=3, dtype=rg.int64, seed=1)
    >>> int(rg.reduce_min(x)), int(rg.reduce_max(x))
    (-2, 2)
    """
    return uniform_from(seeded(seed), shape, minval, maxval, dtype, name)


def uniform_from(source, shape, minval, maxval, dtype, name) -> Tensor:
    """uniform, drawing from ``source`` (see :func:`seeded`)."""
    dtype = _dtype("RandomUniform", dtype, (*_FLOATS, dtypes.int32, dtypes.int64))
    dims = _shape("RandomUniform", shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(
                f"RandomUniformInt: maxval must be given for the integer dtype {dtype.name}"
            )
        lo = tensor_arg("RandomUniformInt", _as(minval, dtype), INTEGER, "minval")
        hi = tensor_arg("RandomUniformInt", _as(maxval, dtype), INTEGER, "maxval")
        for arg, t in (("minval", lo), ("maxval", hi)):
            if t.dtype != dtype or t.ndim != 0:
                raise InvalidArgumentError(
                    f"RandomUniformInt: {arg} must be a {dtype.name} scalar, got "
                    f"{t.dtype.name}{list(plain_dims(t.shape))}"
                )
        return _sample(_RandomUniformInt, dims, dtype, source, name, inputs=(lo, hi))
    maxval = 1 if maxval is None else maxval
    rnd = _sample(_RandomUniform, dims, dtype, source, None)
    if _is(minval, 0):
        if _is(maxval, 1):
            return rnd
        return math_ops.multiply(
            rnd, tensor_pair("RandomUniform", rnd, maxval, FLOAT)[1], name=name
        )
    _, lo = tensor_pair("RandomUniform", rnd, minval, FLOAT)
    _, hi = tensor_pair("RandomUniform", rnd, maxval, FLOAT)
    return math_ops.add(rnd * (hi - lo), lo, name=name)


def _as(value: Any, dtype: DType) -> Any:
    """A Python number as a tensor of ``dtype``; tensors are left as they are (checked later)."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        return Tensor(np.dtype(dtype.as_numpy_dtype).type(value))  # (a scalar: any device's)
    return value


def categorical(
    logits: TensorLike,
    num_samples: int,
    dtype: DTypeLike | None = None,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """``num_samples`` class indices per row of the ``[batch, num_classes]`` ``logits``
    (unnormalised log-probabilities); int64 unless ``dtype`` is int32.

    >>> import retrograd as rg
    >>> draws = rg.random.categorical(rg.math.log([[0.0, 1.0]]), 5, seed=1)
    >>> draws.numpy().tolist()
    [[1, 1, 1, 1, 1]]
    """
    x = tensor_arg("Multinomial", logits, FLOAT, "logits")
    out_dtype = _dtype(
        "Multinomial", dtypes.int64 if dtype is None else dtype, (dtypes.int32, dtypes.int64)
    )
    if x.ndim != 2:
        raise InvalidArgumentError(
            f"Multinomial: logits must be a matrix, got shape {plain_dims(x.shape)}"
        )
    if x._value.shape[1] == 0:
        raise InvalidArgumentError("Multinomial: num_classes must be positive, got 0")
    if isinstance(num_samples, Tensor):
        num_samples = num_samples.numpy()
    if isinstance(num_samples, (bool, np.bool_)) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"Multinomial: num_samples must be an int, got {num_samples!r}")
    count = int(num_samples)
    if count < 0:
        raise InvalidArgumentError(f"Multinomial: num_samples must be >= 0, got {count}")
    rng, (seed1, seed2) = generator("Multinomial", (x.dtype, out_dtype), seed)
    attrs = {
        "num_samples": count,
        "output_dtype": out_dtype,
        "seed": seed1,
        "seed2": seed2,
        "rng": rng,
    }
    return execute(_Multinomial, (x,), attrs, name)
