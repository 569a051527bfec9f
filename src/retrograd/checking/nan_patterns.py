"""The usual causes of a first NaN or infinity, recognised and named with their remedy.

``enable_check_numerics`` stops at the first non-finite value; these functions look at that
op and its values and say which well-known pattern it is:

- **the unused branch of a where**: ``where(x > 0, sqrt(x), 0.0)`` computes ``sqrt`` at the
  masked-out points too; its derivative there is infinite, and the zero gradient the where
  sends to the unused branch times infinity is NaN. Remedy: the double-where trick, making
  the input safe before the op (``sqrt(where(x > 0, x, 1.0))``).
- **a norm or sqrt at 0**: the derivative of ``sqrt`` at 0 is infinite (the norm of a zero
  vector). Remedy: a safe norm, ``sqrt(sum(x * x) + eps)`` or the double where.
- **a log or division at 0** in the backward pass: ``1 / x`` at ``x = 0``. Remedy: keep the
  input away from 0 (``log(x + eps)``, ``divide_no_nan``, ``xlogy``).
- **softmax/log of large logits**: ``exp`` of large logits overflows, ``log`` of a softmax
  that underflowed to 0 is -inf. Remedy: ``tf.nn.log_softmax``, ``reduce_logsumexp``,
  ``softmax_cross_entropy_with_logits``, which subtract the maximum first.

>>> import numpy as np, retrograd as rg
>>> from retrograd.checking.nan_patterns import backward_cause
>>> x = rg.constant([-1.0, 4.0])
>>> with rg.GradientTape() as tape:
...     tape.watch(x)
...     y = rg.sqrt(x)
>>> op = tape.producer(y)
>>> backward_cause(op, [rg.constant([0.0, 1.0])], 0, rg.constant([np.nan, 0.25]), True)[:40]
"the unused branch of a where: op 'Sqrt' "
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["forward_cause", "backward_cause"]

# Ops whose derivative is infinite (or undefined) at points of their domain's edge.
_POLES = {
    "Sqrt": "sqrt",
    "Rsqrt": "rsqrt",
    "Log": "log",
    "Log1p": "log1p",
    "RealDiv": "a division",
    "Reciprocal": "a reciprocal",
    "Pow": "pow",
    "Acos": "acos",
    "Asin": "asin",
    "Atanh": "atanh",
}

DOUBLE_WHERE = (
    "the double-where trick: make the input safe before the op, so that the unused branch "
    "is finite too, e.g. safe = tf.where(mask, x, 1.0); y = tf.where(mask, tf.sqrt(safe), 0.0)"
)
SAFE_NORM = (
    "a safe norm: tf.sqrt(tf.reduce_sum(x * x) + eps), or the double where "
    "(tf.where(n > 0, tf.sqrt(tf.where(n > 0, n, 1.0)), 0.0))"
)
LOG_SOFTMAX = (
    "compute in log space: tf.nn.log_softmax(logits) instead of tf.math.log(tf.nn.softmax("
    "logits)), tf.reduce_logsumexp, or tf.nn.softmax_cross_entropy_with_logits, which "
    "subtract the maximum logit first"
)


def _array(value: Any) -> np.ndarray | None:
    a = getattr(value, "_value", None)
    return a if isinstance(a, np.ndarray | np.generic) else None


def backward_cause(
    op: Any, upstream: list, i: int, grad: Any, masked_by_where: bool, producer: Any = None
) -> str:
    """The pattern that made gradient ``i`` of ``op`` non-finite, with its remedy ("" when
    none is recognised). ``masked_by_where``: whether the op's output went into a where;
    ``producer(value)``: the type of the op that made a value, when known."""
    kind = _POLES.get(op.type)
    g = _array(grad)
    if kind is None or g is None:
        return ""
    bad = ~np.isfinite(g)
    up = _array(upstream[0]) if upstream else None
    x = _array(op.inputs[i]) if i < len(op.inputs) else None
    shaped = x is not None and np.shape(x) == np.shape(g)
    if masked_by_where and up is not None and np.shape(up) == np.shape(g) and np.all(up[bad] == 0):
        return (
            f"the unused branch of a where: op '{op.name}' ({kind}) is computed also where "
            f"the where selects the other branch; its derivative is infinite or undefined "
            f"there, and the zero gradient the where gives the unused branch times it is "
            f"NaN. Remedy: {DOUBLE_WHERE}"
        )
    if shaped and op.type in ("Sqrt", "Rsqrt") and np.any(x[bad] == 0):
        return (
            f"a norm or sqrt at 0: op '{op.name}' ({kind}) has an input of 0, where its "
            f"derivative is infinite (the norm of a zero vector, or a distance of 0). "
            f"Remedy: {SAFE_NORM}"
        )
    if shaped and np.any(x[bad] == 0):
        remedy = (
            LOG_SOFTMAX
            if op.type == "Log" and _made_by(op.inputs[i], producer)
            else "keep the input away from 0: tf.math.log(x + eps), tf.math.xlogy, "
            "tf.math.divide_no_nan, or the double where"
        )
        return (
            f"{kind} at 0: op '{op.name}' has an input of 0, where its derivative is infinite. "
            f"Remedy: {remedy}"
        )
    return ""


def forward_cause(op: Any, i: int, producer: Any = None) -> str:
    """The pattern that made output ``i`` of ``op`` non-finite in the forward pass, with its
    remedy ("" when none is recognised)."""
    y = _array(op.outputs[i])
    if y is None:
        return ""
    if op.type == "Exp" and np.any(np.isposinf(y)):
        return (
            f"softmax/exp of large logits: op '{op.name}' (exp) overflowed (exp of more than "
            f"about {np.log(np.finfo(y.dtype).max):.0f} in {y.dtype.name}). Remedy: "
            f"{LOG_SOFTMAX}"
        )
    if op.type == "Log" and np.any(np.isneginf(y)) and _made_by(op.inputs[0], producer):
        return (
            f"log of a softmax of large logits: op '{op.name}' (log) got 0 where the "
            f"softmax underflowed. Remedy: {LOG_SOFTMAX}"
        )
    domain = _outside_domain(op, y)
    if domain:
        return (
            f"{domain}. If a tf.where masks these points out (the unused branch of a where), "
            f"the gradient there will be NaN even so. Remedy: {DOUBLE_WHERE}"
        )
    if op.type in ("RealDiv", "Softmax") and np.any(np.isnan(y)):
        inputs = [_array(v) for v in op.inputs]
        if any(a is not None and np.any(np.isinf(a)) for a in inputs):
            return (
                f"softmax of large logits: op '{op.name}' divided infinities (an exp that "
                f"overflowed). Remedy: {LOG_SOFTMAX}"
            )
    return ""


def _outside_domain(op: Any, y: np.ndarray) -> str:
    """``sqrt of a negative value at 1 point(s)`` (log at 0, division by 0 ...), or ""."""
    kind = _POLES.get(op.type)
    x = _array(op.inputs[-1]) if op.inputs else None
    if kind is None or x is None or x.dtype.kind != "f":
        return ""
    if op.type in ("Sqrt", "Rsqrt", "Log", "Log1p") and np.any(~np.isfinite(y)):
        edge = -1.0 if op.type == "Log1p" else 0.0
        below, at = int(np.count_nonzero(x < edge)), int(np.count_nonzero(x == edge))
        if below or at:
            what = "a negative value" if op.type != "Log1p" else "a value below -1"
            parts = [f"{what} at {below} point(s)"] if below else []
            parts += [f"{edge:g} at {at} point(s)"] if at else []
            return f"op '{op.name}' computes {kind} of {' and of '.join(parts)}"
    if op.type in ("RealDiv", "Reciprocal") and np.any(~np.isfinite(y)):
        zeros = int(np.count_nonzero(x == 0))
        if zeros:
            return f"op '{op.name}' divides by 0 at {zeros} point(s)"
    return ""


def _made_by(value: Any, producer: Any) -> bool:
    """Whether ``value`` was produced by a softmax or an exp (when its producer is known)."""
    return producer is not None and producer(value) in ("Softmax", "Exp", "RealDiv")
