"""The optimizers' eager updates on arrays (``optimizers`` calls them): Keras' formulas,
operation for operation in Keras' order (the same roundings as the traced updates), each
new state array written once into a fresh buffer with ``out=``.

A fresh buffer, not the old one: a tensor read from a variable or slot before the step
holds the old array, and must keep its values (TensorFlow's kernels write in place only
after checking that nothing else holds the buffer, which retrograd does not decide from
reference counts). Measured, one fresh buffer per state costs what writing in place does;
the temporaries of plain ``value - g * lr`` cost twice as much on wide layers.

Slots are flushed to zero below the dtype's smallest normal number (TensorFlow's kernels
run with the CPU's flush-to-zero mode): a moving average decaying into subnormal floats
would otherwise take the CPU's slow path in every later step.

>>> import numpy as np
>>> slots = {"momentum": np.zeros(2, np.float32)}
>>> value = np.ones(2, np.float32)
>>> sgd(value, np.full(2, 0.5, np.float32), np.float32(0.1), slots, 0.9, False).tolist()
[0.949999988079071, 0.949999988079071]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["flush_subnormals", "sgd", "adam", "rmsprop", "adagrad"]

# Slots that hold sums of squares (never negative unless NaN): flushing them needs no abs.
_SQUARES = frozenset({"v", "v_hat", "velocity", "accumulator"})


def flush_subnormals(slot: np.ndarray, name: str) -> np.ndarray:
    """``slot`` (a fresh array an update made) with every value below the dtype's smallest
    normal number in magnitude set to zero, in place; ``name`` is the slot's.

    >>> import numpy as np
    >>> flush_subnormals(np.array([1e-40, -2e-39, 1e-30], np.float32), "m").tolist()
    [0.0, 0.0, 1.0000000031710769e-30]
    """
    tiny = np.finfo(slot.dtype).tiny
    small = np.less(slot if name in _SQUARES else np.abs(slot), tiny)
    np.copyto(slot, 0, where=small)
    return slot


def _fresh(value: np.ndarray) -> np.ndarray:
    """A new buffer shaped like ``value`` (a 0-d one too: ufuncs return scalars for those
    unless given ``out=``)."""
    return np.empty_like(value)


def _square(g: np.ndarray, squared: np.ndarray | None, out: np.ndarray) -> np.ndarray:
    """``square(g)`` into ``out``; a sparse gradient's is the sum of its squared slices."""
    if squared is None:
        return np.square(g, out=out)
    np.copyto(out, squared)
    return out


def sgd(value, g, lr, slots: dict, momentum: float, nesterov: bool) -> Any:
    """SGD's new value (``slots["momentum"]`` replaced when there is momentum).

    >>> import numpy as np
    >>> sgd(np.float32(1.0) * np.ones(1, np.float32), np.ones(1, np.float32),
    ...     np.float32(0.5), {}, 0.0, False).tolist()
    [0.5]
    """
    new = np.multiply(g, lr, out=_fresh(value))
    if not momentum:
        return np.subtract(value, new, out=new)
    decay = value.dtype.type(np.float32(momentum))  # (Keras casts it through float32)
    m = slots["momentum"] = np.multiply(slots["momentum"], decay, out=_fresh(value))
    np.subtract(m, new, out=m)  # m * momentum - g * lr
    if not nesterov:
        return np.add(value, m, out=new)
    np.subtract(np.multiply(m, decay), new, out=new)
    return np.add(value, new, out=new)


def adam(value, g, squared, lr, step, slots: dict, betas: tuple, epsilon: float) -> Any:
    """Adam's (AMSGrad's when ``slots`` has ``v_hat``) new value; slots ``m``, ``v``
    replaced.

    >>> import numpy as np
    >>> slots = {"m": np.zeros(1, np.float32), "v": np.zeros(1, np.float32)}
    >>> one = np.float32(1)
    >>> adam(np.ones(1, np.float32), np.ones(1, np.float32), None, np.float32(0.1), one,
    ...      slots, (0.9, 0.999), 1e-7).round(4).astype(float).round(4).tolist()
    [0.9]
    """
    dt = value.dtype.type
    beta_1, beta_2 = betas
    one = dt(1)
    # Keras raises ops.cast(beta, dtype) to the step: a Python float cast through float32
    power_1, power_2 = dt(np.float32(beta_1)) ** step, dt(np.float32(beta_2)) ** step
    alpha = lr * np.sqrt(one - power_2) / (one - power_1)
    m = np.subtract(g, slots["m"], out=_fresh(value))
    m *= dt(1 - beta_1)
    slots["m"] = m = np.add(slots["m"], m, out=m)
    v = _square(g, squared, _fresh(value))
    v -= slots["v"]
    v *= dt(1 - beta_2)
    slots["v"] = v = np.add(slots["v"], v, out=v)
    if "v_hat" in slots:
        v = slots["v_hat"] = np.maximum(slots["v_hat"], v, out=_fresh(value))
    new = np.sqrt(v, out=_fresh(value))
    new += dt(epsilon)
    np.divide(np.multiply(m, alpha), new, out=new)
    return np.subtract(value, new, out=new)


def rmsprop(value, g, squared, lr, slots: dict, rho: float, momentum: float, epsilon: float):
    """RMSprop's new value (centred when ``slots`` has ``average_gradient``, with momentum
    when ``momentum > 0``).

    >>> import numpy as np
    >>> slots = {"velocity": np.zeros(1, np.float32)}
    >>> rmsprop(np.ones(1, np.float32), np.full(1, 0.5, np.float32), None, np.float32(0.1),
    ...         slots, 0.9, 0.0, 1e-7).round(4).astype(float).round(4).tolist()
    [0.6838]
    """
    dt = value.dtype.type
    decay, rest = dt(rho), dt(1 - rho)
    velocity = np.multiply(slots["velocity"], decay, out=_fresh(value))
    scratch = _square(g, squared, _fresh(value))
    scratch *= rest
    slots["velocity"] = velocity = np.add(velocity, scratch, out=velocity)
    if "average_gradient" in slots:
        average = np.multiply(slots["average_gradient"], decay, out=_fresh(value))
        average += np.multiply(g, rest, out=scratch)
        slots["average_gradient"] = average
        np.subtract(velocity, np.square(average, out=scratch), out=scratch)
    else:
        np.copyto(scratch, velocity)
    scratch += dt(epsilon)
    increment = np.multiply(g, lr, out=_fresh(value))
    np.divide(increment, np.sqrt(scratch, out=scratch), out=increment)
    if momentum > 0:
        moving = np.multiply(slots["momentum"], dt(momentum), out=_fresh(value))
        slots["momentum"] = np.add(moving, increment, out=moving)
        return np.subtract(value, moving, out=increment)
    return np.subtract(value, increment, out=increment)


def adagrad(value, g, squared, lr, slots: dict, epsilon: float) -> Any:
    """Adagrad's new value; slot ``accumulator`` replaced.

    >>> import numpy as np
    >>> slots = {"accumulator": np.full(1, 0.1, np.float32)}
    >>> adagrad(np.ones(1, np.float32), np.full(1, 0.5, np.float32), None, np.float32(0.1),
    ...         slots, 1e-7).round(4).astype(float).round(4).tolist()
    [0.9155]
    """
    accumulator = _square(g, squared, _fresh(value))
    slots["accumulator"] = accumulator = np.add(slots["accumulator"], accumulator, out=accumulator)
    scratch = np.add(accumulator, value.dtype.type(epsilon), out=_fresh(value))
    new = np.multiply(g, lr, out=_fresh(value))
    np.divide(new, np.sqrt(scratch, out=scratch), out=new)
    return np.subtract(value, new, out=new)
