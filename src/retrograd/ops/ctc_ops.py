"""Connectionist temporal classification: ``ctc_loss`` (dense labels: the negative log
probability of each label sequence under per-step class distributions, summed over every
alignment by the forward recursion in log space), ``collapse_repeated`` and
``ctc_unique_labels``.

The loss is built from differentiable ops (log_softmax, gathers, logsumexp), so its gradient
is the true one to any order (TensorFlow's is a first-order custom gradient).

>>> import retrograd as tf
>>> logits = tf.zeros([2, 1, 3])  # two steps, one sequence, classes {blank, 1, 2}
>>> round(float(tf.nn.ctc_loss([[1]], logits, [1], [2])[0]), 4)  # -log(3/9)
1.0986
"""

from __future__ import annotations

from typing import Any

import numpy as np

from retrograd.core.annotations import TensorLike
from retrograd.core.backends import to_host
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import array_ops
from retrograd.ops.pad_ops import pad
from retrograd.ops.scopes import op_scope

__all__ = ["collapse_repeated", "ctc_loss", "ctc_unique_labels"]

_NEG = -1e30  # log(0), finite so that gradients through empty sums stay finite


def _logsumexp(values: list[Tensor]) -> Tensor:
    from retrograd.ops.statistics_ops import reduce_logsumexp

    return reduce_logsumexp(array_ops.stack(values, 0), 0)


def ctc_loss(
    labels: TensorLike,
    logits: TensorLike,
    label_length: TensorLike,
    logit_length: TensorLike,
    logits_time_major: bool = True,
    unique: bool | None = None,
    blank_index: int | None = None,
    name: str | None = None,
) -> Tensor:
    """The CTC loss of each sequence: ``labels`` [batch, max label length] (dense, padded,
    ``label_length`` valid), ``logits`` [time, batch, classes] (or batch-major), the first
    ``logit_length`` steps valid; class ``blank_index`` (default 0) is the blank. The labels
    and lengths must be known while a graph is built (the recursion is unrolled).

    >>> import retrograd as tf
    >>> loss = tf.nn.ctc_loss([[1, 1]], tf.zeros([3, 1, 2]), [2], [3])
    >>> round(float(loss[0]), 4)  # the one alignment 1, blank, 1 of 2**3
    2.0794
    """
    with op_scope(name or "ctc_loss_dense"):
        x = convert_to_tensor(logits)
        if not x.dtype.is_floating:
            raise TypeError(f"logits must be a float tensor, got {x.dtype.name}")
        if not logits_time_major:
            x = array_ops.transpose(x, [1, 0, 2])
        values = _known("labels", labels)
        label_length = _known("label_length", label_length)
        logit_length = _known("logit_length", logit_length)
        steps, batch, classes = (int(d) for d in x.shape)
        blank = 0 if blank_index is None else int(blank_index) % classes
        log_probs = x - _logsumexp_classes(x)
        width = values.shape[1]
        # The extended labels: blank, l1, blank, l2, ..., blank (S = 2 * width + 1).
        ext = np.full((batch, 2 * width + 1), blank, np.int64)
        ext[:, 1::2] = values
        allowed_skip = np.zeros_like(ext, dtype=bool)
        allowed_skip[:, 3::2] = values[:, 1:] != values[:, :-1]
        allowed_skip[:, 3::2] &= ext[:, 3::2] != blank
        positions = 2 * width + 1
        rows = np.arange(batch)[:, None]
        emit = [_gather_classes(log_probs[t], ext, rows) for t in range(steps)]  # [B, S] each
        start = np.full((batch, positions), _NEG, x.dtype.as_numpy_dtype)
        start[:, :2] = 0.0
        alpha = emit[0] + start
        pad_one, pad_two = [[0, 0], [1, 0]], [[0, 0], [2, 0]]
        skip = convert_to_tensor(allowed_skip)
        for t in range(1, steps):
            stay = alpha
            step = pad(alpha[:, :-1], pad_one, constant_values=_NEG)
            skipped = pad(alpha[:, :-2], pad_two, constant_values=_NEG)
            jump = array_ops.where(skip, skipped, array_ops.ones_like(alpha) * _NEG)
            moved = _logsumexp([stay, step, jump]) + emit[t]
            active = convert_to_tensor((logit_length > t)[:, None])
            alpha = array_ops.where(active, moved, alpha)
        last = 2 * label_length  # the final blank and the last label
        end = convert_to_tensor(np.stack([last, np.maximum(last - 1, 0)], 1))
        finals = _take_rows(alpha, end)
        has_label = convert_to_tensor(np.stack([np.ones(batch, bool), label_length > 0], 1))
        finals = array_ops.where(has_label, finals, array_ops.ones_like(finals) * _NEG)
        return -_logsumexp([finals[:, 0], finals[:, 1]])


def _known(arg: str, value: Any) -> np.ndarray:
    """An integer argument's value, which must be known while a graph is built."""
    from retrograd.ops.index_args import build_time_value

    value = to_host(build_time_value("CTCLoss", convert_to_tensor(value), arg))
    return np.asarray(value).astype(np.int64)


def _logsumexp_classes(x: Tensor) -> Tensor:
    from retrograd.ops.statistics_ops import reduce_logsumexp

    return reduce_logsumexp(x, -1, keepdims=True)


def _gather_classes(step: Tensor, ext: np.ndarray, rows: np.ndarray) -> Tensor:
    from retrograd.ops.gather_ops import gather_nd

    index = np.stack(np.broadcast_arrays(rows, ext), -1)
    return gather_nd(step, convert_to_tensor(index))


def _take_rows(alpha: Tensor, cols: Tensor) -> Tensor:
    from retrograd.ops.gather_ops import gather

    return gather(alpha, cols, axis=1, batch_dims=1)


def collapse_repeated(labels: TensorLike, seq_length: TensorLike, name: str | None = None) -> tuple:
    """Each row's labels with runs of repeats merged, left-aligned and zero-padded to the
    longest result, and the new lengths.

    >>> import retrograd as tf
    >>> out, n = tf.nn.collapse_repeated([[1, 1, 2, 2, 2], [3, 3, 3, 0, 0]], [5, 3])
    >>> out.numpy().tolist(), n.numpy().tolist()
    ([[1, 2], [3, 0]], [2, 1])
    """
    values = np.asarray(convert_to_tensor(labels).numpy())
    lengths_in = convert_to_tensor(seq_length)
    lengths = np.asarray(lengths_in.numpy())
    keep = np.concatenate([np.ones_like(values[:, :1], bool), values[:, 1:] != values[:, :-1]], 1)
    keep &= np.arange(values.shape[1])[None, :] < lengths[:, None]
    counts = keep.sum(1)
    out = np.zeros((values.shape[0], int(counts.max()) if counts.size else 0), values.dtype)
    for i, row in enumerate(values):
        out[i, : counts[i]] = row[keep[i]]
    return Tensor(out), Tensor(counts.astype(lengths.dtype))


def ctc_unique_labels(labels: TensorLike, name: str | None = None) -> tuple:
    """Each row's distinct labels in order of appearance (zero-padded, int64) and, for every
    label, the position of its value among them (int32).

    >>> import retrograd as tf
    >>> y, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    >>> y.numpy().tolist(), idx.numpy().tolist()
    ([[3, 4, 0, 0]], [[0, 1, 1, 0]])
    """
    values = np.asarray(convert_to_tensor(labels).numpy())
    unique = np.zeros(values.shape, np.int64)
    index = np.zeros(values.shape, np.int32)
    for i, row in enumerate(values):
        seen: dict = {}
        for j, v in enumerate(row.tolist()):
            index[i, j] = seen.setdefault(v, len(seen))
        unique[i, : len(seen)] = list(seen)
    return Tensor(unique), Tensor(index)
