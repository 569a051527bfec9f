"""TensorFlow's counter-based Philox-4x32-10 generator and its distributions, in NumPy.

A seed pair is scrambled into a key and a counter (``seed_key_counter``); each counter
value gives four 32-bit words (``philox_4x32_10``), turned into floats as TensorFlow's
kernels turn them (uniform in [0, 1) from the mantissa bits, normals by Box-Muller,
truncated normals by rejection in groups), so that the stateless random ops
(``ops/stateless_random_ops.py``) draw TensorFlow's numbers: uniforms and integers bit for
bit, float32 normals within 3 ulps (each Box-Muller step within 1; the module docstring of
``stateless_random_ops`` gives the measurements).

Everything is whole-array NumPy: the ten Philox rounds are 64-bit products, shifts and
xors on rows of words, made ``_CHUNK`` blocks at a time so that they stay in the CPU's
caches; a million float32 normals take about 4x NumPy's own ``standard_normal``
(``benchmarks/random_speed.py``).

>>> import numpy as np
>>> from retrograd.ops import philox_random
>>> philox_random.standard("uniform", np.array([1, 2]), 3, np.dtype(np.float32)).tolist()
[0.8440604209899902, 0.19204533100128174, 0.9962232112884521]
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = [
    "PhiloxStream",
    "philox_4x32_10",
    "seed_key_counter",
    "shuffled_order",
    "single_words",
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
_MANTISSA_32, _ONE_32 = np.uint64(0x7FFFFF), np.uint64(0x3F800000)  # float32 1.0's bits
_HIGH_MANTISSA_64, _ONE_64 = np.uint64(0xFFFFF), np.uint64(1023 << 52)  # float64 1.0's bits
_CHUNK = 1 << 15  # blocks rounded at a time: the working words stay in the CPU's caches


def _rounds(words: np.ndarray, key: tuple[int, int], scratch: np.ndarray) -> None:
    """Ten Philox rounds over ``words`` (four uint64 rows holding 32-bit values), in place;
    ``scratch`` holds two rows of the same length."""
    w0, w1, w2, w3 = words
    p0, p1 = scratch
    k0, k1 = int(key[0]) & 0xFFFFFFFF, int(key[1]) & 0xFFFFFFFF
    for _ in range(10):
        np.multiply(w0, _M0, out=p0)  # 32 x 32 -> 64 bits: exact in uint64
        np.multiply(w2, _M1, out=p1)
        np.right_shift(p1, _SHIFT32, out=w0)  # w0 <- hi(p1) ^ w1 ^ k0
        w0 ^= w1
        w0 ^= np.uint64(k0)
        np.right_shift(p0, _SHIFT32, out=w2)  # w2 <- hi(p0) ^ w3 ^ k1
        w2 ^= w3
        w2 ^= np.uint64(k1)
        np.bitwise_and(p1, _LOW32, out=w1)  # w1 <- lo(p1)
        np.bitwise_and(p0, _LOW32, out=w3)  # w3 <- lo(p0)
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF


def philox_4x32_10(counters: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Philox-4x32-10 (Salmon et al., 2011) of each 128-bit counter, four uint32 words of
    an ``(n, 4)`` array (least significant word first), under a two-word key.

    >>> import numpy as np
    >>> from retrograd.ops.philox_random import philox_4x32_10
    >>> philox_4x32_10(np.zeros((1, 4), np.uint32), (0, 0)).tolist()  # the paper's vector
    [[1713891541, 3781805453, 3159862348, 2600524760]]
    """
    words = counters.T.astype(np.uint64)
    _rounds(words, key, np.empty((2, words.shape[1]), np.uint64))
    return words.T.astype(np.uint32)


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


def _generate(
    key: tuple[int, int], high: int, starts: np.ndarray, fill: Any, width: int, dtype: Any
) -> np.ndarray:
    """Values of the Philox blocks at counters ``(high << 64) + starts`` (``starts``:
    uint64): an ``(n, width)`` array of ``dtype``, row ``b`` made from block ``b``. The blocks
    are made ``_CHUNK`` at a time; ``fill(words, out)`` turns a chunk's words (a ``(4, m)``
    uint64 array of 32-bit values, row ``i`` word ``i`` of each block) into the ``(m, width)``
    rows ``out``."""
    n = starts.size
    out = np.empty((n, width), dtype)
    words = np.empty((4, min(n, _CHUNK)), np.uint64)
    scratch = np.empty((2, words.shape[1]), np.uint64)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        w, low = words[:, : stop - start], starts[start:stop]
        np.bitwise_and(low, _LOW32, out=w[0])
        np.right_shift(low, _SHIFT32, out=w[1])
        w[2], w[3] = high & 0xFFFFFFFF, high >> 32
        _rounds(w, key, scratch[:, : stop - start])
        fill(w, out[start:stop])
    return out


def _first(count: int) -> np.ndarray:
    """The counters' low halves 0 .. count - 1."""
    return np.arange(count, dtype=np.uint64)


def _float32_unit(bits: np.ndarray) -> np.ndarray:
    """[0, 1) from 23 random mantissa bits: the float in [1, 2) they make, minus 1."""
    one_to_two = ((bits & _MANTISSA_32) | _ONE_32).astype(np.uint32).view(np.float32)
    return one_to_two - np.float32(1)


def _float64_unit(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """[0, 1) from 52 mantissa bits: 20 of ``first`` above the 32 of ``second``."""
    bits = first & _HIGH_MANTISSA_64
    bits <<= _SHIFT32
    bits |= second
    bits |= _ONE_64
    unit = bits.view(np.float64)
    unit -= 1.0
    return unit


def _float16_unit(bits: np.ndarray) -> np.ndarray:
    """[0, 1) from 10 mantissa bits of the low half of each word."""
    half = ((bits & np.uint64(0x3FF)) | np.uint64(0x3C00)).astype(np.uint16)
    return half.view(np.float16) - np.float16(1)


def _rounded(function: Any, x: np.ndarray) -> np.ndarray:
    """A float32 function (``logf``, ``sinf``, ``cosf``) of ``x`` (float32 values held in
    float64) correctly rounded, nearly always: the float64 function, rounded to float32."""
    return function(x).astype(np.float32)


def _box_muller_32(x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 normals per pair of words, each step in float32 as TensorFlow's kernel
    takes it: ``u1`` clamped to at least 1e-7, the angle ``2 pi u2`` multiplied in float64
    and rounded, the radius ``sqrt(-2 log u1)``, then ``sin(angle) * radius`` and
    ``cos(angle) * radius``."""
    u1 = np.maximum(_float32_unit(x0), np.float32(1e-7))
    radius = _rounded(np.log, u1.astype(np.float64))
    radius *= np.float32(-2.0)
    np.sqrt(radius, out=radius)
    angle = 2.0 * np.pi * _float32_unit(x1).astype(np.float64)
    angle = angle.astype(np.float32).astype(np.float64)  # the float32 angle
    sine, cosine = _rounded(np.sin, angle), _rounded(np.cos, angle)
    sine *= radius
    cosine *= radius
    return sine, cosine


def _box_muller_64(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two float64 normals per block of four words (two 52-bit uniforms): words 0-1 make
    ``u1``, words 2-3 the angle's uniform."""
    radius = _float64_unit(x[0], x[1])
    np.maximum(radius, 1e-7, out=radius)
    np.log(radius, out=radius)
    radius *= -2.0
    np.sqrt(radius, out=radius)
    angle = _float64_unit(x[2], x[3])
    angle *= 2.0 * np.pi  # (2 pi) u, as TensorFlow's kernel multiplies
    sine = np.sin(angle)
    cosine = np.cos(angle, out=angle)
    sine *= radius
    cosine *= radius
    return sine, cosine


def _fill_normals_32(x: np.ndarray, out: np.ndarray) -> None:
    """Four float32 normals per block: words 0-1 make the first pair, 2-3 the second."""
    sine, cosine = _box_muller_32(x[0::2], x[1::2])  # (2, m) each: one row per pair
    out[:, 0::2] = sine.T
    out[:, 1::2] = cosine.T


def _fill_normals_64(x: np.ndarray, out: np.ndarray) -> None:
    """Two float64 normals per block."""
    out[:, 0], out[:, 1] = _box_muller_64(x)


def _fill_uniform_64(x: np.ndarray, out: np.ndarray) -> None:
    """Two float64 uniforms per block, from words 0-1 and 2-3."""
    out[...] = _float64_unit(x[0::2], x[1::2]).T


def _fill_words_32(x: np.ndarray, out: np.ndarray) -> None:
    out[...] = x.T


def _fill_words_64(x: np.ndarray, out: np.ndarray) -> None:
    """Two 64-bit words per block: words 0 and 2 the low halves, 1 and 3 the high ones."""
    out[...] = (x[0::2] | x[1::2] << _SHIFT32).T


def _unit_filler(unit: Any) -> Any:
    def fill(x: np.ndarray, out: np.ndarray) -> None:
        out[...] = unit(x).T

    return fill


def standard(kind: str, seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """``size`` uniform or normal numbers of ``dtype``, flat."""
    double = dtype == np.float64
    width = 2 if double else 4
    if kind != "uniform":
        fill = _fill_normals_64 if double else _fill_normals_32
    elif double:
        fill = _fill_uniform_64
    else:
        fill = _unit_filler(_float16_unit if dtype == np.float16 else _float32_unit)
    key, high = seed_key_counter(seed)
    return _generate(key, high, _first(-(-size // width)), fill, width, dtype).reshape(-1)[:size]


def truncated(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """``size`` normals inside (-2, 2) of ``dtype``, flat: each group keeps drawing from its
    own reserved counter range until it holds its values."""
    double = dtype == np.float64
    group = 2 if double else 4
    skip = _DOUBLE_TRUNCATED_SKIP if double else _TRUNCATED_SKIP[np.dtype(dtype)]
    groups = -(-size // group)
    key, high = seed_key_counter(seed)
    draw_dtype = np.float64 if double else np.float32
    out = np.zeros((groups, group), dtype=draw_dtype)
    count = np.zeros(groups, dtype=np.int64)
    todo = np.arange(groups, dtype=np.uint64)
    step = 0
    while todo.size:
        starts = todo * np.uint64(skip) + np.uint64(step)
        fill = _fill_normals_64 if double else _fill_normals_32
        candidates = _generate(key, high, starts, fill, group, draw_dtype)
        rows = todo.astype(np.int64)
        for column in range(group):
            value = candidates[:, column]
            take = (np.abs(value) < 2) & (count[rows] < group)
            out[rows[take], count[rows[take]]] = value[take]
            count[rows[take]] += 1
        todo = todo[count[rows] < group]
        step += 1
    return out.reshape(-1)[:size].astype(dtype)


def _bits(seed: np.ndarray, size: int, wide: bool) -> np.ndarray:
    """``size`` random words, flat: uint32, or uint64 from two words (the first the low
    half) where ``wide``."""
    key, high = seed_key_counter(seed)
    if wide:
        out = _generate(key, high, _first(-(-size // 2)), _fill_words_64, 2, np.uint64)
    else:
        out = _generate(key, high, _first(-(-size // 4)), _fill_words_32, 4, np.uint32)
    return out.reshape(-1)[:size]


def full_int(seed: np.ndarray, size: int, dtype: np.dtype) -> np.ndarray:
    """Integers over the dtype's whole range: the random words themselves (two per 64-bit
    value, the first the low half), reinterpreted as ``dtype``."""
    return _bits(seed, size, np.dtype(dtype).itemsize == 8).view(dtype)


def uniform_int(seed: np.ndarray, size: int, low: Any, high: Any, dtype: np.dtype) -> np.ndarray:
    """Integers in [low, high): random bits modulo the range (32 bits for int32, 64 for int64
    from two words, the first the low half), as TensorFlow's kernel."""
    wide = dtype == np.int64
    span = int(high) - int(low)
    draws = _bits(seed, size, wide) % (np.uint64(span) if wide else np.uint32(span))
    if wide:
        return (draws.astype(np.int64) + np.int64(low)).astype(dtype)
    return (draws.astype(np.int64) + int(low)).astype(dtype)


class PhiloxStream:
    """The Philox stream of one stateful TensorFlow kernel (``GuardedPhiloxRandom``): the
    key is the op's ``seed`` attribute (low word first), the counter's high 64 bits its
    ``seed2``, the low 64 bits start at 0; each draw reserves whole blocks of four words and
    moves the counter past them. Seeds (0, 0) mean two random 64-bit seeds, as TensorFlow's.

    >>> from retrograd.ops.philox_random import PhiloxStream
    >>> stream = PhiloxStream(1, 0)
    >>> stream.words(2).tolist(), stream.words(1).tolist()  # the second call: the next block
    ([3823634032, 3842641596], [2886210587])
    """

    def __init__(self, seed: int, seed2: int) -> None:
        if seed == 0 and seed2 == 0:
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        seed, seed2 = int(seed) % 2**64, int(seed2) % 2**64
        self._key = (seed & 0xFFFFFFFF, seed >> 32)
        self._high = seed2
        self._next = 0  # the counter's low 64 bits: the next block not yet reserved
        self._lock = threading.Lock()

    def words(self, count: int) -> np.ndarray:
        """The first ``count`` 32-bit words of the next ``ceil(count / 4)`` blocks, which
        this reserves (TensorFlow's ``ReserveSamples32``)."""
        blocks = (count + 3) // 4
        with self._lock:
            start, self._next = self._next, self._next + blocks
        starts = np.arange(start, start + blocks, dtype=np.uint64)
        out = _generate(self._key, self._high, starts, _fill_words_32, 4, np.uint32)
        return out.reshape(-1)[:count]


def shuffled_order(size: int, stream: PhiloxStream) -> np.ndarray:
    """TensorFlow's ``RandomShuffle`` permutation of ``range(size)`` (``size >= 2``): a
    Fisher-Yates pass from the front that swaps position ``i`` with
    ``i + word_i % (size - i)``, the ``size - 1`` words drawn at once from ``stream``.

    >>> from retrograd.ops.philox_random import PhiloxStream, shuffled_order
    >>> shuffled_order(10, PhiloxStream(1, 0)).tolist()  # TensorFlow's, seeds (1, 0)
    [2, 4, 0, 8, 9, 1, 5, 6, 3, 7]
    """
    wide = np.uint64 if size > 0xFFFFFFFF else np.uint32
    offsets = stream.words(size - 1).astype(wide) % np.arange(size, 1, -1, dtype=wide)
    targets = (offsets.astype(np.int64) + np.arange(size - 1)).tolist()
    order = list(range(size))
    for i, j in enumerate(targets):  # (sequential: each swap moves what the next ones see)
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)


def single_words(seed: int, seed2: int, chunk: int = 1024) -> Iterator[int]:
    """The words of a Philox generator one at a time, in order (TensorFlow's
    ``SingleSampleAdapter`` over a ``PhiloxRandom(seed, seed2)``), made ``chunk`` blocks at
    a time.

    >>> from retrograd.ops.philox_random import PhiloxStream, single_words
    >>> words = single_words(1, 0)
    >>> [next(words) for _ in range(5)] == PhiloxStream(1, 0).words(5).tolist()
    True
    """
    stream = PhiloxStream(seed, seed2)
    while True:
        yield from stream.words(4 * chunk).tolist()
