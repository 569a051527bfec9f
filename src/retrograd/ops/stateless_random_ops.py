"""TensorFlow's stateless random ops (``tf.random.stateless_uniform``, ``stateless_normal``,
``stateless_truncated_normal``), bit for bit as TensorFlow computes them on a CPU.

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

Box-Muller's logarithm, sine and cosine come from the C math library, which TensorFlow's
kernel calls too (float32 ``logf``/``sinf``/``cosf`` through ``ctypes``, float64 through
Python's ``math``): on the same platform the normals are TensorFlow's bit for bit. Where no C
library can be loaded, float32 uses float64 NumPy functions rounded (a few last-bit
differences in about 1% of the values).

>>> import retrograd as rg
>>> rg.random.stateless_uniform([3], seed=[1, 2]).numpy().tolist()
[0.8440604209899902, 0.19204533100128174, 0.9962232112884521]
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.dtypes import DType, as_dtype
from retrograd.core.errors import InvalidArgumentError, UnimplementedError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import math_ops
from retrograd.ops.define import FLOAT, INTEGER, tensor_arg, tensor_pair

__all__ = [
    "philox_4x32_10",
    "seed_key_counter",
    "draw",
    "stateless_uniform",
    "stateless_normal",
    "stateless_truncated_normal",
]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)  # Philox-4x32 multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # Weyl increments of the key
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
_SEED_KEY = (0x3EC8F720, 0x02461E29)  # the key that scrambles a seed into key and counter
_TRUNCATED_SKIP = {np.dtype(np.float32): 256, np.dtype(np.float16): 256}  # blocks per group
_DOUBLE_TRUNCATED_SKIP = 128


def philox_4x32_10(counters: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Philox-4x32-10 (Salmon et al., 2011) of each 128-bit counter, four uint32 words of
    an ``(n, 4)`` array (least significant word first), under a two-word key.

    >>> import numpy as np
    >>> from retrograd.ops.stateless_random_ops import philox_4x32_10
    >>> philox_4x32_10(np.zeros((1, 4), np.uint32), (0, 0)).tolist()  # the paper's vector
    [[1713891541, 3781805453, 3159862348, 2600524760]]
    """
    words = [counters[:, i].astype(np.uint64) for i in range(4)]
    k0, k1 = int(key[0]) & 0xFFFFFFFF, int(key[1]) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = _M0 * words[0], _M1 * words[2]  # 32 x 32 -> 64 bits: exact in uint64
        words = [
            (p1 >> _SHIFT32) ^ words[1] ^ np.uint64(k0),
            p1 & _LOW32,
            (p0 >> _SHIFT32) ^ words[3] ^ np.uint64(k1),
            p0 & _LOW32,
        ]
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack(words, axis=1).astype(np.uint32)


def seed_key_counter(seed: np.ndarray) -> tuple[tuple[int, int], int]:
    """TensorFlow's key (two words) and the counter's high 64 bits for a seed pair
    (``StatelessRandomGetKeyCounter``; the counter's low 64 bits start at 0).

    >>> from retrograd.ops.stateless_random_ops import seed_key_counter
    >>> key, high = seed_key_counter([1, 2])
    >>> key[0] | key[1] << 32, high
    (10413732777507651514, 17830669156045600267)
    """
    s0, s1 = (int(v) % 2**64 for v in seed)
    block = np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], np.uint32)
    mix = philox_4x32_10(block, _SEED_KEY)[0]
    return (int(mix[0]), int(mix[1])), int(mix[2]) | int(mix[3]) << 32


def _blocks(key: tuple[int, int], high: int, starts: np.ndarray) -> np.ndarray:
    """The Philox blocks at counters ``(high << 64) + starts`` (``starts``: uint64), as an
    ``(n, 4)`` uint32 array."""
    low = starts.astype(np.uint64)
    high_words = np.full(low.shape, high, dtype=np.uint64)
    counters = np.stack(
        [low & _LOW32, low >> _SHIFT32, high_words & _LOW32, high_words >> _SHIFT32], axis=1
    ).astype(np.uint32)
    return philox_4x32_10(counters, key)


def _float32_unit(bits: np.ndarray) -> np.ndarray:
    """[0, 1) from 23 random mantissa bits: the float in [1, 2) they make, minus 1."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def _float64_unit(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """[0, 1) from 52 mantissa bits: 20 of ``first`` above the 32 of ``second``."""
    mantissa = (first.astype(np.uint64) & np.uint64(0xFFFFF)) << _SHIFT32 | second.astype(np.uint64)
    return (mantissa | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _float16_unit(bits: np.ndarray) -> np.ndarray:
    """[0, 1) from 10 mantissa bits of the low half of each word."""
    half = ((bits & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16)
    return half.view(np.float16) - np.float16(1)


def _load_c_float_math() -> tuple | None:
    """The C library's float32 ``logf``, ``sinf`` and ``cosf``, which TensorFlow's Box-Muller
    calls; None where no C math library can be found."""
    name = ctypes.util.find_library("m") or ctypes.util.find_library("c")
    try:
        library = ctypes.CDLL(name)
        functions = tuple(getattr(library, f) for f in ("logf", "sinf", "cosf"))
    except (OSError, AttributeError, TypeError):
        return None
    for function in functions:
        function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return tuple(np.frompyfunc(f, 1, 1) for f in functions)


# The C library's functions, found at the first float32 normal draw (finding the library
# may run ldconfig: not at import); [] until then, then [functions] or [None].
_C_FLOAT_MATH: list = []
_MATH64 = tuple(np.frompyfunc(f, 1, 1) for f in (math.log, math.sin, math.cos))


def _float32_math(index: int, x: np.ndarray) -> np.ndarray:
    """logf, sinf or cosf (index 0, 1, 2) of float32 values: the C library's, else the
    float64 function rounded (within an ulp of it)."""
    if not _C_FLOAT_MATH:
        _C_FLOAT_MATH.append(_load_c_float_math())  # (threads: loading twice is harmless)
    functions = _C_FLOAT_MATH[0]
    if functions is not None and x.size:
        return functions[index](x.astype(np.float64)).astype(np.float32)
    return (np.log, np.sin, np.cos)[index](x.astype(np.float64)).astype(np.float32)


def _float64_math(index: int, x: np.ndarray) -> np.ndarray:
    """log, sin or cos of float64 values by the C library (Python's math module calls it)."""
    if not x.size:
        return x.copy()
    return _MATH64[index](x).astype(np.float64)


def _box_muller_32(x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 normals per pair of words: sqrt(-2 log u1) times sin and cos of 2 pi u2
    (the angle's product is taken in double precision, as in TensorFlow's kernel)."""
    u1 = np.maximum(_float32_unit(x0), np.float32(1e-7))
    angle = (2.0 * np.pi * _float32_unit(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * _float32_math(0, u1))
    return _float32_math(1, angle) * radius, _float32_math(2, angle) * radius


def _box_muller_64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two float64 normals per block of four words (two 52-bit uniforms)."""
    u1 = np.maximum(_float64_unit(x[..., 0], x[..., 1]), 1e-7)
    angle = 2.0 * np.pi * _float64_unit(x[..., 2], x[..., 3])
    radius = np.sqrt(-2.0 * _float64_math(0, u1))
    return _float64_math(1, angle) * radius, _float64_math(2, angle) * radius


def _interleave(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Columns of two ``(n, k)`` arrays alternated: ``(n, 2k)``."""
    rows, columns = first.shape
    return np.stack([first, second], axis=-1).reshape(rows, 2 * columns)


def _standard(kind: str, seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """``size`` uniform or normal numbers of ``dtype``, flat."""
    per_block = 2 if dtype == np.float64 else 4
    groups = -(-size // per_block)
    key, high = seed_key_counter(seed)
    x = _blocks(key, high, np.arange(groups, dtype=np.uint64))
    if kind == "uniform":
        if dtype == np.float64:
            out = _float64_unit(x[:, 0::2], x[:, 1::2])
        elif dtype == np.float16:
            out = _float16_unit(x)
        else:
            out = _float32_unit(x)
    elif dtype == np.float64:
        out = _interleave(*(v[:, None] for v in _box_muller_64(x)))
    else:
        out = _interleave(*_box_muller_32(x[:, 0::2], x[:, 1::2])).astype(dtype)
    return out.reshape(-1)[:size]


def _truncated(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """``size`` normals inside (-2, 2) of ``dtype``, flat: each group keeps drawing from its
    own reserved counter range until it holds its values."""
    double = dtype == np.float64
    group = 2 if double else 4
    skip = _DOUBLE_TRUNCATED_SKIP if double else _TRUNCATED_SKIP[np.dtype(dtype)]
    groups = -(-size // group)
    key, high = seed_key_counter(seed)
    out = np.zeros((groups, group), dtype=np.float64 if double else np.float32)
    count = np.zeros(groups, dtype=np.int64)
    todo = np.arange(groups, dtype=np.uint64)
    step = 0
    while todo.size:
        x = _blocks(key, high, todo * np.uint64(skip) + np.uint64(step))
        if double:
            candidates = _interleave(*(v[:, None] for v in _box_muller_64(x)))
        else:
            candidates = _interleave(*_box_muller_32(x[:, 0::2], x[:, 1::2]))
        rows = todo.astype(np.int64)
        for column in range(candidates.shape[1]):
            value = candidates[:, column]
            take = (np.abs(value) < 2) & (count[rows] < group)
            out[rows[take], count[rows[take]]] = value[take]
            count[rows[take]] += 1
        todo = todo[count[rows] < group]
        step += 1
    return out.reshape(-1)[:size].astype(dtype)


def _full_int(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """Integers over the dtype's whole range: the random words themselves (two per 64-bit
    value, the first the low half), reinterpreted as ``dtype``."""
    wide = np.dtype(dtype).itemsize == 8
    key, high = seed_key_counter(seed)
    x = _blocks(key, high, np.arange(-(-size // (2 if wide else 4)), dtype=np.uint64))
    if wide:
        x = x[:, 0::2].astype(np.uint64) | x[:, 1::2].astype(np.uint64) << _SHIFT32
    return x.reshape(-1)[:size].view(dtype)


def _uniform_int(seed: np.ndarray, size: int, low: Any, high: Any, dtype: np.dtype) -> np.ndarray:
    """Integers in [low, high): random bits modulo the range (32 bits for int32, 64 for int64
    from two words, the first the low half), as TensorFlow's kernel."""
    wide = dtype == np.int64
    per_block = 2 if wide else 4
    key, high_word = seed_key_counter(seed)
    x = _blocks(key, high_word, np.arange(-(-size // per_block), dtype=np.uint64))
    span = int(high) - int(low)
    if wide:
        bits = x[:, 0::2].astype(np.uint64) | x[:, 1::2].astype(np.uint64) << _SHIFT32
        draws = bits.reshape(-1)[:size] % np.uint64(span)
        return (draws.astype(np.int64) + np.int64(low)).astype(dtype)
    draws = x.reshape(-1)[:size] % np.uint32(span)
    return (draws.astype(np.int64) + int(low)).astype(dtype)


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
    seed = np.asarray(seed)
    if seed.shape != (2,) or seed.dtype.kind not in "iu":
        raise InvalidArgumentError(f"stateless {kind}: seed must be two ints, got {seed.tolist()}")
    shape = tuple(int(d) for d in shape)
    size = math.prod(shape)
    if kind == "truncated_normal":
        return _truncated(seed, size, dtype).reshape(shape)
    if kind not in ("uniform", "normal"):
        raise ValueError(f"draw: kind must be uniform, normal or truncated_normal, got {kind!r}")
    return _standard(kind, seed, size, dtype).reshape(shape)


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
    return _uniform_int(seed, size, minval, maxval, dtype.as_numpy_dtype).reshape(shape)


def _full_int_kernel(seed, *dims, shape, dtype):
    shape = _run_time(dims, shape)
    seed = _seed_array(seed, "StatelessRandomUniformFullInt")
    return _full_int(seed, math.prod(shape), dtype.as_numpy_dtype).reshape(shape)


def _sampled_shape(metas, shape, dtype, **_):
    return [(shape, dtype.as_numpy_dtype)]


_StatelessRandomUniform = define_op(
    "StatelessRandomUniform", _uniform_kernel, shape_fn=_sampled_shape
)
_StatelessRandomNormal = define_op("StatelessRandomNormal", _normal_kernel, shape_fn=_sampled_shape)
_StatelessTruncatedNormal = define_op(
    "StatelessTruncatedNormal", _truncated_kernel, shape_fn=_sampled_shape
)
_StatelessRandomUniformInt = define_op(
    "StatelessRandomUniformInt", _uniform_int_kernel, shape_fn=_sampled_shape
)
_StatelessRandomUniformFullInt = define_op(
    "StatelessRandomUniformFullInt", _full_int_kernel, shape_fn=_sampled_shape
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
        return Tensor(np.asarray(value, dtype=dtype.as_numpy_dtype))
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
