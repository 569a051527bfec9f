"""TensorFlow's stateless random ops (``tf.random.stateless_uniform``, ``stateless_normal``,
``stateless_truncated_normal``), as TensorFlow computes them on a CPU: uniforms and
integers bit for bit, normals within a few ulps (below).

A stateless op is a pure function of its ``seed`` (two int32 or int64 numbers) and shape:
the same seed gives the same numbers, in eager mode, in a graph and in TensorFlow. They
follow TensorFlow's kernels:

- the seed becomes a Philox key and counter by one Philox-4x32-10 block over the seed
  (key ``0x02461E293EC8F720``): the block's first two words are the new key, its last two
  the high half of the 128-bit counter (``StatelessRandomGetKeyCounter``);
- the output is filled in groups; group ``g`` draws from counter ``+ g`` (128-bit
  addition), one Philox block (four 32-bit words) per group: four float32 uniforms (23
  random mantissa bits of a number in [1, 2), minus 1), two float64 uniforms (52 bits from
  two words), four float32 normals or two float64 normals (Box-Muller on pairs of
  uniforms, the first clamped to at least 1e-7);
- a truncated normal group (four float32 or two float64 values) starts at counter
  ``+ 256 g`` (float32) or ``+ 128 g`` (float64) and keeps drawing Box-Muller pairs,
  keeping the values inside (-2, 2) in order, until the group is full;
- ``mean``/``stddev`` and ``minval``/``maxval`` are applied afterwards with ordinary ops
  (``rnd * stddev + mean``, ``rnd * (maxval - minval) + minval``), so gradients reach them.

Box-Muller takes TensorFlow's float32 steps (the angle ``2 pi u`` multiplied in float64
and rounded, ``sqrt(-2 log u1)`` and the products in float32), but where TensorFlow calls
the C library's ``logf``/``sinf``/``cosf`` -- glibc's misround about 1% of their results --
retrograd rounds NumPy's float64 ``log``/``sin``/``cos`` to float32 (correctly rounded, the
same on every platform): each step is within 1 ulp of TensorFlow's, and a float32 normal
within 3 ulps (98.5% identical, 1.3% one ulp apart, 0.2% two or three, measured on 4M
draws by ``benchmarks/random_speed.py --accuracy``); float16 normals (rounded from float32)
within 1 ulp. Float64 normals use NumPy's float64 functions as TensorFlow uses libm's:
identical in all 4M draws measured (within 1 ulp where NumPy's own SIMD functions differ
from libm). A truncated normal within an ulp of ±2 can be kept by one and redrawn by the
other.

>>> import retrograd as rg
>>> rg.random.stateless_uniform([3], seed=[1, 2]).numpy().tolist()
[0.8440604209899902, 0.19204533100128174, 0.9962232112884521]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.backends import host_kernel, to_host
from retrograd.core.dtypes import DType, as_dtype
from retrograd.core.errors import InvalidArgumentError, UnimplementedError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import math_ops, philox_random
from retrograd.ops.define import FLOAT, INTEGER, tensor_arg, tensor_pair

__all__ = [
    "draw",
    "stateless_uniform",
    "stateless_normal",
    "stateless_truncated_normal",
]

# --- ops --------------------------------------------------------------------------------------


def _run_time(dims: tuple, shape: tuple) -> tuple:
    return tuple(int(d) for d in dims[0]) if dims else shape


def _seed_array(seed: np.ndarray, op_type: str) -> np.ndarray:
    if seed.shape != (2,):
        raise InvalidArgumentError(f"{op_type}: seed must have shape [2], not {list(seed.shape)}")
    return seed


def draw(kind: str, shape: tuple, seed: Any, dtype: Any) -> np.ndarray:
    """TensorFlow's standard stateless draw as a NumPy array: ``kind`` is ``"uniform"``
    ([0, 1)), ``"normal"`` or ``"truncated_normal"``; ``seed`` a pair of ints; ``dtype`` a
    float dtype (float16, float32 or float64).

    >>> from retrograd.ops.stateless_random_ops import draw
    >>> draw("normal", (2,), (1, 2), "float32").tolist()
    [0.544110119342804, 0.20738030970096588]
    """
    dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    if dtype not in (np.float16, np.float32, np.float64):
        raise ValueError(
            f"stateless {kind}: dtype must be float16, float32 or float64, got {dtype}"
        )
    seed = np.asarray(to_host(seed))
    if seed.shape != (2,) or seed.dtype.kind not in "iu":
        raise InvalidArgumentError(f"stateless {kind}: seed must be two ints, got {seed.tolist()}")
    shape = tuple(int(d) for d in shape)
    size = math.prod(shape)
    if kind == "truncated_normal":
        return philox_random.truncated(seed, size, dtype).reshape(shape)
    if kind not in ("uniform", "normal"):
        raise ValueError(f"draw: kind must be uniform, normal or truncated_normal, got {kind!r}")
    return philox_random.standard(kind, seed, size, dtype).reshape(shape)


def _uniform_kernel(seed, *dims, shape, dtype):
    seed = _seed_array(seed, "StatelessRandomUniform")
    return draw("uniform", _run_time(dims, shape), seed, dtype)


def _normal_kernel(seed, *dims, shape, dtype):
    seed = _seed_array(seed, "StatelessRandomNormal")
    return draw("normal", _run_time(dims, shape), seed, dtype)


def _truncated_kernel(seed, *dims, shape, dtype):
    seed = _seed_array(seed, "StatelessTruncatedNormal")
    return draw("truncated_normal", _run_time(dims, shape), seed, dtype)


def _uniform_int_kernel(seed, minval, maxval, *dims, shape, dtype):
    shape = _run_time(dims, shape)
    size = int(np.prod(shape, dtype=np.int64))
    seed = _seed_array(seed, "StatelessRandomUniformInt")
    if not minval < maxval:
        raise InvalidArgumentError(
            f"StatelessRandomUniformInt: need minval < maxval, got {minval} >= {maxval}"
        )
    return philox_random.uniform_int(seed, size, minval, maxval, dtype.as_numpy_dtype).reshape(
        shape
    )


def _full_int_kernel(seed, *dims, shape, dtype):
    shape = _run_time(dims, shape)
    seed = _seed_array(seed, "StatelessRandomUniformFullInt")
    return philox_random.full_int(seed, math.prod(shape), dtype.as_numpy_dtype).reshape(shape)


def _host(kernel):
    """Philox draws on the host, placed on the device of the seed (or the current one)."""
    return host_kernel(kernel, makes_arrays=True)


def _sampled_shape(metas, shape, dtype, **_):
    return [(shape, dtype.as_numpy_dtype)]


_StatelessRandomUniform = define_op(
    "StatelessRandomUniform", _host(_uniform_kernel), shape_fn=_sampled_shape
)
_StatelessRandomNormal = define_op(
    "StatelessRandomNormal", _host(_normal_kernel), shape_fn=_sampled_shape
)
_StatelessTruncatedNormal = define_op(
    "StatelessTruncatedNormal", _host(_truncated_kernel), shape_fn=_sampled_shape
)
_StatelessRandomUniformInt = define_op(
    "StatelessRandomUniformInt", _host(_uniform_int_kernel), shape_fn=_sampled_shape
)
_StatelessRandomUniformFullInt = define_op(
    "StatelessRandomUniformFullInt", _host(_full_int_kernel), shape_fn=_sampled_shape
)
for _op_type in (
    "StatelessRandomUniformFullInt",
    "StatelessRandomUniform",
    "StatelessRandomNormal",
    "StatelessTruncatedNormal",
    "StatelessRandomUniformInt",
):
    no_gradient(_op_type)

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _dtype(op_type: str, dtype: Any, allowed: tuple) -> DType:
    d = as_dtype(dtype)
    if d not in allowed:
        names = ", ".join(a.name for a in allowed)
        raise ValueError(f"{op_type}: dtype must be one of {names}, got {d.name}")
    return d


def _seed(op_type: str, seed: Any) -> Tensor:
    """The seed as an int32 or int64 tensor of shape [2] (TensorFlow refuses anything else)."""
    if seed is None:
        raise ValueError(f"{op_type}: a stateless op needs a seed (a pair of ints), got None")
    t = seed if isinstance(seed, Tensor) else convert_to_tensor(seed)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_type}: seed must be an int32 or int64 tensor, got {t.dtype.name}")
    if t.shape.rank is not None and t.shape.as_list() != [2]:
        raise InvalidArgumentError(f"{op_type}: seed must have shape [2], not {t.shape.as_list()}")
    return t


def _draw(op, op_type: str, shape: Any, seed: Any, dtype: DType, extra=()) -> Tensor:
    from retrograd.ops import random_ops

    dims = random_ops._shape(op_type, shape)
    inputs = (_seed(op_type, seed), *extra)
    if isinstance(dims, random_ops._RunTimeShape):
        inputs, dims = (*inputs, dims.tensor), dims.known
    return execute(op, inputs, {"shape": dims, "dtype": dtype}, None)


def stateless_uniform(
    shape: ShapeLike | TensorLike,
    seed: TensorLike,
    minval: TensorLike = 0,
    maxval: TensorLike | None = None,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
    alg: str | int = "auto_select",
) -> Tensor:
    """Uniform samples in ``[minval, maxval)``, a function of ``seed`` (TensorFlow's numbers).

    Integer dtypes take both ``minval`` and ``maxval``, or neither (the dtype's whole range).

    >>> import retrograd as rg
    >>> rg.random.stateless_uniform([4], seed=[7, 0], minval=0, maxval=10,
    ...                             dtype=rg.int32).numpy().tolist()
    [3, 2, 8, 2]
    """
    _check_alg("StatelessRandomUniform", alg)
    dtype = _dtype("StatelessRandomUniform", dtype, (*_FLOATS, dtypes.int32, dtypes.int64))
    if dtype.is_integer and minval is None and maxval is None:  # the dtype's whole range
        op_type = "StatelessRandomUniformFullInt"
        out = _draw(_StatelessRandomUniformFullInt, op_type, shape, seed, dtype)
        return math_ops.identity(out, name=name) if name else out
    if dtype.is_integer:
        if minval is None or maxval is None:
            raise ValueError(
                "StatelessRandomUniformInt: minval and maxval must both be given (or both be "
                f"None, for the whole range) for the integer dtype {dtype.name}"
            )
        lo = tensor_arg("StatelessRandomUniformInt", _as(minval, dtype), INTEGER, "minval")
        hi = tensor_arg("StatelessRandomUniformInt", _as(maxval, dtype), INTEGER, "maxval")
        for arg, t in (("minval", lo), ("maxval", hi)):
            if t.dtype != dtype or t.ndim != 0:
                raise InvalidArgumentError(
                    f"StatelessRandomUniformInt: {arg} must be a {dtype.name} scalar, got "
                    f"{t.dtype.name}{list(t.shape)}"
                )
        op_type = "StatelessRandomUniformInt"
        out = _draw(_StatelessRandomUniformInt, op_type, shape, seed, dtype, (lo, hi))
        return math_ops.identity(out, name=name) if name else out
    rnd = _draw(_StatelessRandomUniform, "StatelessRandomUniform", shape, seed, dtype)
    maxval = 1 if maxval is None else maxval
    _, lo = tensor_pair("StatelessRandomUniform", rnd, _as(minval, dtype), FLOAT)
    _, hi = tensor_pair("StatelessRandomUniform", rnd, _as(maxval, dtype), FLOAT)
    return math_ops.add(rnd * (hi - lo), lo, name=name)


def stateless_normal(
    shape: ShapeLike | TensorLike,
    seed: TensorLike,
    mean: TensorLike = 0.0,
    stddev: TensorLike = 1.0,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
    alg: str | int = "auto_select",
) -> Tensor:
    """Normal samples with ``mean`` and ``stddev``, a function of ``seed``.

    >>> import retrograd as rg
    >>> x = rg.random.stateless_normal([2], seed=[1, 2])
    >>> x.numpy().tolist()
    [0.544110119342804, 0.20738030970096588]
    """
    _check_alg("StatelessRandomNormal", alg)
    dtype = _dtype("StatelessRandomNormal", dtype, _FLOATS)
    rnd = _draw(_StatelessRandomNormal, "StatelessRandomNormal", shape, seed, dtype)
    return _scale_shift("StatelessRandomNormal", rnd, stddev, mean, dtype, name)


def stateless_truncated_normal(
    shape: ShapeLike | TensorLike,
    seed: TensorLike,
    mean: TensorLike = 0.0,
    stddev: TensorLike = 1.0,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
    alg: str | int = "auto_select",
) -> Tensor:
    """Normal samples cut at two standard deviations (redrawn there), a function of ``seed``.

    >>> import retrograd as rg
    >>> x = rg.random.stateless_truncated_normal([1000], seed=[3, 4], stddev=0.5)
    >>> bool(rg.reduce_max(rg.abs(x)) < 1.0)
    True
    """
    _check_alg("StatelessTruncatedNormal", alg)
    dtype = _dtype("StatelessTruncatedNormal", dtype, _FLOATS)
    rnd = _draw(_StatelessTruncatedNormal, "StatelessTruncatedNormal", shape, seed, dtype)
    return _scale_shift("StatelessTruncatedNormal", rnd, stddev, mean, dtype, name)


def _scale_shift(op_type: str, rnd: Tensor, stddev: Any, mean: Any, dtype: DType, name):
    _, scale = tensor_pair(op_type, rnd, _as(stddev, dtype), FLOAT)
    _, shift = tensor_pair(op_type, rnd, _as(mean, dtype), FLOAT)
    return math_ops.add(rnd * scale, shift, name=name)


def _as(value: Any, dtype: DType) -> Any:
    """A Python or NumPy number as a tensor of ``dtype`` (TensorFlow converts the bounds to
    the sample dtype); tensors are left as they are (their dtype is checked later)."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        return Tensor(np.dtype(dtype.as_numpy_dtype).type(value))  # (a scalar: any device's)
    return value


def _check_alg(op_type: str, alg: Any) -> None:
    """TensorFlow picks Philox on a CPU for 'auto_select'; ThreeFry is not implemented."""
    name = getattr(alg, "name", alg)
    if isinstance(name, str):
        name = name.strip().lower().replace("-", "").replace("_", "")
    if name in (None, "autoselect", "philox", 1, 3):
        return
    if name in ("threefry", 2):
        raise UnimplementedError(
            f"{op_type}: alg='threefry' is not implemented in retrograd (use 'philox' or "
            "'auto_select', which TensorFlow runs as Philox on a CPU)"
        )
    raise ValueError(f"{op_type}: alg must be 'philox', 'threefry' or 'auto_select', got {alg!r}")
