"""``keras.ops`` math functions: segment reductions, ``top_k``/``in_top_k``, ``rsqrt``,
the error functions, framing (``extract_sequences``) and Fourier transforms (``fft``,
``fft2``, ``ifft2``, ``rfft``, ``irfft``, ``stft``, ``istft``; complex values travel as
``(real, imag)`` pairs, as in Keras).

>>> from retrograd.keras import ops
>>> ops.segment_sum([1.0, 2.0, 3.0], [0, 0, 1]).numpy().tolist()
[3.0, 3.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.keras.src.dtype_rules import standardize_dtype
from retrograd.keras.src.ops import tensors
from retrograd.keras.src.ops.operation import any_symbolic, symbolic_call
from retrograd.ops import (
    array_ops,
    comparison_ops,
    complex_ops,
    fft_ops,
    gather_ops,
    join_ops,
    math_ops,
    pad_ops,
    reduction_ops,
    segment_ops,
    sort_ops,
    special_ops,
)

__all__ = [
    "segment_sum",
    "segment_max",
    "segment_min",
    "segment_prod",
    "top_k",
    "in_top_k",
    "rsqrt",
    "erf",
    "erfc",
    "erfinv",
    "extract_sequences",
    "fft",
    "fft2",
    "ifft2",
    "rfft",
    "irfft",
    "stft",
    "istft",
]


def _segments(segment_ids: Any, num_segments: Any, sorted: bool) -> tuple[Any, int]:  # noqa: A002
    ids = tensors.convert(segment_ids)
    if sorted and num_segments is not None:
        raise ValueError(
            "Argument `num_segments` cannot be set when sorted is True when using the "
            f"tensorflow backend.Received: num_segments={num_segments}, sorted={sorted}."
        )
    if num_segments is None:
        values = ids.numpy().ravel()
        num_segments = (
            (int(values.max()) + 1) if sorted and values.size else len(set(values.tolist()))
        )
    return ids, int(num_segments)


def segment_sum(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False):  # noqa: A002
    """The sum of the rows of ``data`` in each segment.

    >>> segment_sum([1.0, 2.0, 3.0], [1, 1, 0], num_segments=2).numpy().tolist()
    [3.0, 3.0]
    """
    if any_symbolic(data, segment_ids):
        return symbolic_call(segment_sum, data, segment_ids, num_segments, sorted)
    ids, count = _segments(segment_ids, num_segments, sorted)
    return gather_ops.unsorted_segment_sum(tensors.convert(data), ids, count)


def segment_max(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False):  # noqa: A002
    """The largest row of ``data`` in each segment.

    >>> segment_max([1.0, 5.0, 3.0], [0, 0, 1]).numpy().tolist()
    [5.0, 3.0]
    """
    if any_symbolic(data, segment_ids):
        return symbolic_call(segment_max, data, segment_ids, num_segments, sorted)
    ids, count = _segments(segment_ids, num_segments, sorted)
    return segment_ops.unsorted_segment_max(tensors.convert(data), ids, count)


def segment_min(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False):  # noqa: A002
    """The smallest row of ``data`` in each segment.

    >>> segment_min([1.0, 5.0, 3.0], [0, 0, 1]).numpy().tolist()
    [1.0, 3.0]
    """
    if any_symbolic(data, segment_ids):
        return symbolic_call(segment_min, data, segment_ids, num_segments, sorted)
    ids, count = _segments(segment_ids, num_segments, sorted)
    return segment_ops.unsorted_segment_min(tensors.convert(data), ids, count)


def segment_prod(data: Any, segment_ids: Any, num_segments: Any = None, sorted: bool = False):  # noqa: A002
    """The product of the rows of ``data`` in each segment (1 for empty segments).

    >>> segment_prod([2.0, 3.0, 4.0], [0, 0, 1]).numpy().tolist()
    [6.0, 4.0]
    """
    if any_symbolic(data, segment_ids):
        return symbolic_call(segment_prod, data, segment_ids, num_segments, sorted)
    ids, count = _segments(segment_ids, num_segments, sorted)
    values = tensors.convert(data)
    member = comparison_ops.equal(
        array_ops.reshape(tensors.convert(np.arange(count), ids.dtype), [count, 1]),
        array_ops.reshape(ids, [1, -1]),
    )
    extra = values.shape.rank - 1
    member = array_ops.reshape(member, member.shape.as_list() + [1] * extra)
    stacked = array_ops.expand_dims(values, 0) + array_ops.zeros_like(
        math_ops.cast(member, values.dtype)
    )
    chosen = array_ops.where(member, stacked, array_ops.ones_like(stacked))
    return reduction_ops.reduce_prod(chosen, 1)


def top_k(x: Any, k: int, sorted: bool = True) -> Any:  # noqa: A002
    """The ``k`` largest entries of the last axis and their (int32) indices.

    >>> [t.numpy().tolist() for t in top_k([1.0, 4.0, 2.0], 2)]
    [[4.0, 2.0], [1, 2]]
    """
    if any_symbolic(x):
        return symbolic_call(top_k, x, k, sorted)
    return tuple(sort_ops.top_k(tensors.convert(x), k, sorted=sorted))


def in_top_k(targets: Any, predictions: Any, k: int) -> Any:
    """Whether each target's prediction is among the ``k`` largest of its row (ties count
    as in, as TensorFlow does).

    >>> in_top_k([1, 0], [[0.1, 0.9], [0.8, 0.2]], 1).numpy().tolist()
    [True, True]
    """
    if any_symbolic(targets, predictions):
        return symbolic_call(in_top_k, targets, predictions, k)
    labels = tensors.convert(targets)
    scores = tensors.convert(predictions)
    picked = gather_ops.gather(scores, labels, axis=1, batch_dims=1)
    above = comparison_ops.greater(scores, array_ops.expand_dims(picked, -1))
    rank = reduction_ops.reduce_sum(math_ops.cast(above, "int32"), -1)
    finite = comparison_ops.is_finite(picked)
    return comparison_ops.logical_and(comparison_ops.less(rank, k), finite)


def rsqrt(x: Any) -> Any:
    """``1 / sqrt(x)``.

    >>> rsqrt([4.0]).numpy().tolist()
    [0.5]
    """
    if any_symbolic(x):
        return symbolic_call(rsqrt, x)
    return math_ops.rsqrt(tensors.float_input(x))


def erf(x: Any) -> Any:
    """The error function.

    >>> erf([0.0]).numpy().tolist()
    [0.0]
    """
    if any_symbolic(x):
        return symbolic_call(erf, x)
    return special_ops.erf(tensors.float_input(x))


def erfc(x: Any) -> Any:
    """The complementary error function ``1 - erf(x)``.

    >>> erfc([0.0]).numpy().tolist()
    [1.0]
    """
    if any_symbolic(x):
        return symbolic_call(erfc, x)
    return special_ops.erfc(tensors.float_input(x))


def erfinv(x: Any) -> Any:
    """The inverse of the error function.

    >>> erfinv([0.0]).numpy().tolist()
    [0.0]
    """
    if any_symbolic(x):
        return symbolic_call(erfinv, x)
    t = tensors.convert(x)
    name = t.dtype.name
    if name in ("float16", "bfloat16"):
        return math_ops.cast(special_ops.erfinv(math_ops.cast(t, "float32")), name)
    return special_ops.erfinv(tensors.float_input(t))


def extract_sequences(x: Any, sequence_length: int, sequence_stride: int) -> Any:
    """Frames of ``sequence_length`` along the last axis, every ``sequence_stride``: a new
    second-to-last axis counts them.

    >>> extract_sequences([1.0, 2.0, 3.0, 4.0], 2, 2).numpy().tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    if any_symbolic(x):
        return symbolic_call(extract_sequences, x, sequence_length, sequence_stride)
    t = tensors.convert(x)
    length = t.shape.as_list()[-1]
    count = max(0, (length - sequence_length) // sequence_stride + 1)
    frames = [
        t[..., i * sequence_stride : i * sequence_stride + sequence_length] for i in range(count)
    ]
    if not frames:
        return array_ops.zeros(t.shape.as_list()[:-1] + [0, sequence_length], dtype=t.dtype)
    return join_ops.stack(frames, axis=-2)


def _complex_of(x: Any) -> Any:
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(
            f"Input `x` should be a tuple of two tensors - real and imaginary.Received: x={x}"
        )
    real, imag = tensors.convert(x[0]), tensors.convert(x[1])
    if real.shape.as_list() != imag.shape.as_list():
        raise ValueError(
            "Input `x` should be a tuple of two tensors - real and imaginary.Both the real and "
            f"imaginary parts should have the same shape. Received: x[0].shape = "
            f"{tuple(real.shape.as_list())}, x[1].shape = {tuple(imag.shape.as_list())}"
        )
    if not real.dtype.is_floating or not imag.dtype.is_floating:
        raise ValueError(f"At least one tensor in input `x` is not of type float.Received: x={x}.")
    return complex_ops.complex(real, imag)


def _parts(z: Any) -> tuple[Any, Any]:
    return complex_ops.real(z), complex_ops.imag(z)


def _swap_last_two(t: Any) -> Any:
    rank = t.shape.rank
    return array_ops.transpose(t, [*range(rank - 2), rank - 1, rank - 2])


def _fft2(z: Any, inverse: bool = False) -> Any:
    transform = fft_ops.ifft if inverse else fft_ops.fft
    return _swap_last_two(transform(_swap_last_two(transform(z))))


def fft(x: Any) -> Any:
    """The discrete Fourier transform of the last axis of ``(real, imag)``.

    >>> [t.numpy().tolist() for t in fft(([1.0, 1.0], [0.0, 0.0]))]
    [[2.0, 0.0], [0.0, 0.0]]
    """
    if any_symbolic(x):
        return symbolic_call(fft, x)
    return _parts(fft_ops.fft(_complex_of(x)))


def fft2(x: Any) -> Any:
    """The two-dimensional Fourier transform of the last two axes of ``(real, imag)``.

    >>> [t.numpy().tolist() for t in fft2(([[1.0, 1.0]], [[0.0, 0.0]]))]
    [[[2.0, 0.0]], [[0.0, 0.0]]]
    """
    if any_symbolic(x):
        return symbolic_call(fft2, x)
    return _parts(_fft2(_complex_of(x)))


def ifft2(x: Any) -> Any:
    """The inverse two-dimensional Fourier transform of ``(real, imag)``.

    >>> [t.numpy().tolist() for t in ifft2(([[2.0, 0.0]], [[0.0, 0.0]]))]
    [[[1.0, 1.0]], [[0.0, 0.0]]]
    """
    if any_symbolic(x):
        return symbolic_call(ifft2, x)
    return _parts(_fft2(_complex_of(x), inverse=True))


def _fit_last(t: Any, length: int) -> Any:
    """``t`` cropped or zero-padded to ``length`` along its last axis."""
    current = t.shape.as_list()[-1]
    if current >= length:
        return t[..., :length]
    pads = [[0, 0]] * (t.shape.rank - 1) + [[0, length - current]]
    return pad_ops.pad(t, pads)


def _rfft(t: Any, fft_length: int) -> Any:
    complex_dtype = "complex128" if t.dtype.name == "float64" else "complex64"
    z = math_ops.cast(_fit_last(t, fft_length), complex_dtype)
    return fft_ops.fft(z)[..., : fft_length // 2 + 1]


def rfft(x: Any, fft_length: Any = None) -> Any:
    """The Fourier transform of real input: the ``fft_length // 2 + 1`` non-negative
    frequencies, as ``(real, imag)``.

    >>> [t.numpy().tolist() for t in rfft([1.0, 1.0, 1.0, 1.0])]
    [[4.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """
    if any_symbolic(x):
        return symbolic_call(rfft, x, fft_length)
    t = tensors.convert(x)
    length = t.shape.as_list()[-1] if fft_length is None else int(fft_length)
    return _parts(_rfft(t, length))


def _irfft(z: Any, fft_length: int) -> Any:
    half = fft_length // 2 + 1
    z = _fit_last(z, half)
    inner = z[..., 1 : fft_length - half + 1]
    from retrograd.ops import rearrange_ops

    mirrored = math_ops.conj(rearrange_ops.reverse(inner, [-1]))
    full = join_ops.concat([z, mirrored], axis=-1)
    # The real parts of the first and (for even lengths) middle bins alone count.
    return complex_ops.real(fft_ops.ifft(full))


def irfft(x: Any, fft_length: Any = None) -> Any:
    """The real signal whose ``rfft`` is ``(real, imag)`` (of ``2 * (n - 1)`` points by
    default).

    >>> irfft(([4.0, 0.0, 0.0], [0.0, 0.0, 0.0])).numpy().tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(irfft, x, fft_length)
    z = _complex_of(x)
    length = 2 * (z.shape.as_list()[-1] - 1) if fft_length is None else int(fft_length)
    return _irfft(z, length)


def _window(window: Any, sequence_length: int, fft_length: int, dtype: str) -> Any:
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(
                'If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. '
                f"Received: window={window}"
            )
        n = np.arange(sequence_length)
        alpha = 0.5 if window == "hann" else 0.54
        values = alpha - (1 - alpha) * np.cos(2 * np.pi * n / sequence_length)
        win = tensors.convert(values, dtype)
    else:
        win = tensors.convert(window, dtype)
    if win.shape.as_list() != [sequence_length]:
        raise ValueError(
            "The shape of `window` must be equal to [sequence_length].Received: window "
            f"shape={tuple(win.shape.as_list())}"
        )
    left = (fft_length - sequence_length) // 2
    return pad_ops.pad(win, [[left, fft_length - sequence_length - left]])


def stft(
    x: Any,
    sequence_length: int,
    sequence_stride: int,
    fft_length: int,
    window: Any = "hann",
    center: bool = True,
) -> Any:
    """The short-time Fourier transform of the last axis: frames of ``sequence_length``
    every ``sequence_stride``, windowed, transformed over ``fft_length`` points; as
    ``(real, imag)`` of shape ``(..., frames, fft_length // 2 + 1)``.

    >>> [t.shape for t in stft(np.ones(8, "float32"), 4, 2, 4)]
    [TensorShape([5, 3]), TensorShape([5, 3])]
    """
    if any_symbolic(x):
        return symbolic_call(stft, x, sequence_length, sequence_stride, fft_length, window, center)
    t = tensors.convert(x)
    if standardize_dtype(t.dtype) not in ("float32", "float64"):
        raise TypeError(
            f"Invalid input type. Expected `float32` or `float64`. Received: input type={t.dtype}"
        )
    if fft_length < sequence_length:
        raise ValueError(
            "`fft_length` must equal or larger than `sequence_length`. Received: "
            f"sequence_length={sequence_length}, fft_length={fft_length}"
        )
    win = _window(window, sequence_length, fft_length, t.dtype.name)
    if center:
        pads = [[0, 0]] * (t.shape.rank - 1) + [[fft_length // 2, fft_length // 2]]
        t = pad_ops.pad(t, pads, "REFLECT")
    frames = extract_sequences(t, fft_length, sequence_stride)
    if win is not None:
        frames = frames * win
    return _parts(_rfft(frames, fft_length))


def istft(
    x: Any,
    sequence_length: int,
    sequence_stride: int,
    fft_length: int,
    length: Any = None,
    window: Any = "hann",
    center: bool = True,
) -> Any:
    """The signal whose ``stft`` is ``(real, imag)``: inverse transforms of the frames,
    windowed, overlapped and added (the window normalised by its overlapping squares).

    >>> real, imag = stft(np.ones(8, "float32"), 4, 2, 4)
    >>> [round(v, 4) for v in istft((real, imag), 4, 2, 4).numpy().tolist()]
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    """
    if any_symbolic(x):
        return symbolic_call(
            istft, x, sequence_length, sequence_stride, fft_length, length, window, center
        )
    z = _complex_of(x)
    dtype = complex_ops.real(z).dtype.name
    frames = _irfft(z, fft_length)
    count = frames.shape.as_list()[-2]
    win = _window(window, sequence_length, fft_length, dtype)
    if win is not None:
        squares = np.square(win.numpy())
        overlap = np.zeros(fft_length, squares.dtype)
        for shift in range(-fft_length + 1, fft_length):
            if shift % sequence_stride == 0:
                lo, hi = max(0, shift), min(fft_length, fft_length + shift)
                overlap[lo:hi] += squares[lo - shift : hi - shift]
        frames = frames * (win / tensors.convert(np.where(overlap == 0, 1, overlap), dtype))
    total = fft_length + sequence_stride * (count - 1)
    from retrograd.keras.src.ops import convolution

    signal = None
    for i in range(count):
        piece = convolution.place(
            frames[..., i, :], frames.shape.rank - 2, i * sequence_stride, 1, total
        )
        signal = piece if signal is None else signal + piece
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = total - fft_length // 2
    else:
        end = total
    return signal[..., start:end]
