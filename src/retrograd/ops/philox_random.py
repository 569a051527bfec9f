"""TensorFlow's counter-based Philox-4x32-10 generator and its distributions, in NumPy.

A seed pair is scrambled into a key and a counter (``seed_key_counter``); each counter
value gives four 32-bit words (``philox_4x32_10``), turned into floats as TensorFlow's
kernels turn them (uniform in [0, 1) from the mantissa bits, normals by Box-Muller,
truncated normals by rejection in groups), so that the stateless random ops
(``ops/stateless_random_ops.py``) draw TensorFlow's numbers bit for bit.

>>> import numpy as np
>>> from retrograd.ops import philox_random
>>> philox_random.standard("uniform", np.array([1, 2]), 3, np.dtype(np.float32)).tolist()
[0.8440604209899902, 0.19204533100128174, 0.9962232112884521]
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any

import numpy as np

__all__ = [
    "philox_4x32_10",
    "seed_key_counter",
    "standard",
    "truncated",
    "full_int",
    "uniform_int",
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
    >>> from retrograd.ops.philox_random import philox_4x32_10
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

    >>> from retrograd.ops.philox_random import seed_key_counter
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


def standard(kind: str, seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
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


def truncated(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
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


def full_int(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """Integers over the dtype's whole range: the random words themselves (two per 64-bit
    value, the first the low half), reinterpreted as ``dtype``."""
    wide = np.dtype(dtype).itemsize == 8
    key, high = seed_key_counter(seed)
    x = _blocks(key, high, np.arange(-(-size // (2 if wide else 4)), dtype=np.uint64))
    if wide:
        x = x[:, 0::2].astype(np.uint64) | x[:, 1::2].astype(np.uint64) << _SHIFT32
    return x.reshape(-1)[:size].view(dtype)


def uniform_int(seed: np.ndarray, size: int, low: Any, high: Any, dtype: np.dtype) -> np.ndarray:
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
