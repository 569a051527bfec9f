"""The benchmark workloads, each written once per implementation.

Every workload computes a value and the gradients the issue names. An implementation is a
builder: called with the workload's NumPy inputs, it converts them to its own tensors (not
timed: converting inputs is not forward or backward work) and returns ``run()``, which is
timed and returns the value and gradients as NumPy arrays so the runner can check that the
implementations agree. ``numpy`` is the hand-written reference doing the same forward and
backward work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import retrograd as rg


@dataclass
class Workload:
    name: str
    description: str
    make_inputs: Callable[[bool], dict]  # quick -> inputs
    numpy: Callable[..., tuple]  # the reference, called with the inputs
    eager: Callable[..., Callable[[], tuple]]  # builders: inputs -> run()
    traced: Callable[..., Callable[[], tuple]] | None = None
    rtol: float = 1e-4


def _np(*values: Any) -> tuple:
    return tuple(np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in values)


def _tensors(inputs: dict) -> dict:
    """The inputs as retrograd constants (arrays and NumPy scalars; counts stay ints)."""
    return {
        k: rg.constant(v) if isinstance(v, (np.ndarray, np.generic)) else v
        for k, v in inputs.items()
    }


def _differentiated(value_fn: Callable, inputs: dict, wrt: tuple) -> Callable[[], tuple]:
    """``run()``: ``value_fn`` of the inputs (positionally, in order) under a tape watching the
    inputs named in ``wrt``; returns the value and its gradients with respect to them."""
    tensors = _tensors(inputs)
    args = list(tensors.values())
    sources = [tensors[k] for k in wrt]
    watched = sources[0] if len(sources) == 1 else sources  # one source: the common call

    def run():
        with rg.GradientTape() as tape:
            tape.watch(watched)
            value = value_fn(*args)
        grads = tape.gradient(value, watched)
        return _np(value, *(grads if isinstance(grads, list) else [grads]))

    return run


def _eager_and_traced(value_fn: Callable, wrt: tuple) -> tuple[Callable, Callable]:
    """The eager and the ``function`` builders of a workload differentiating ``value_fn``."""
    return (
        lambda **inputs: _differentiated(value_fn, inputs, wrt),
        lambda **inputs: _differentiated(rg.function(value_fn), inputs, wrt),
    )


# --- chain: y = sin(y) * 1.01, 200 times, dy/dx ---------------------------------------------


def _chain_inputs(quick: bool) -> dict:
    return {"x0": np.float32(0.5), "steps": 20 if quick else 200}


def chain_numpy(x0, steps):
    c = np.float32(1.01)
    ys = []
    y = x0
    for _ in range(steps):
        ys.append(y)
        y = np.sin(y) * c
    g = np.float32(1.0)
    for saved in reversed(ys):
        g = g * c * np.cos(saved)
    return y, g


def _sin_step(y):
    return rg.sin(y) * 1.01


def _repeat(step: Callable, x, steps: int):
    y = x
    for _ in range(steps):
        y = step(y)
    return y


def _chain_builders(step: Callable) -> tuple[Callable, Callable]:
    """Eager and ``function`` builders of the chain of ``steps`` calls of ``step``."""

    def eager(**inputs):
        return _differentiated(lambda x, steps: _repeat(step, x, steps), inputs, ("x0",))

    def traced(**inputs):
        f = rg.function(lambda x: _repeat(step, x, inputs["steps"]))
        return _differentiated(lambda x, steps: f(x), inputs, ("x0",))

    return eager, traced


chain_eager, chain_traced = _chain_builders(_sin_step)


# --- custom: the same chain, each step a custom_gradient op ---------------------------------


@rg.custom_gradient
def _sin_scaled(y):
    def grad(upstream):
        return upstream * rg.cos(y) * 1.01

    return rg.sin(y) * 1.01, grad


custom_eager, custom_traced = _chain_builders(_sin_scaled)


# --- mlp: 128x784 -> relu 512 -> 10 logits, softmax cross-entropy ----------------------------


def _mlp_inputs(quick: bool) -> dict:
    rng = np.random.default_rng(0)
    n, d, h, k = (8, 20, 16, 10) if quick else (128, 784, 512, 10)
    labels = np.zeros((n, k), np.float32)
    labels[np.arange(n), rng.integers(0, k, n)] = 1
    return {
        "x": rng.standard_normal((n, d)).astype(np.float32),
        "w1": (rng.standard_normal((d, h)) * 0.05).astype(np.float32),
        "w2": (rng.standard_normal((h, k)) * 0.05).astype(np.float32),
        "labels": labels,
    }


def mlp_numpy(x, w1, w2, labels):
    a = x @ w1
    h = np.maximum(a, 0)
    logits = h @ w2
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -(labels * log_softmax).sum() / len(x)
    g_logits = (np.exp(log_softmax) - labels) / len(x)
    g_w2 = h.T @ g_logits
    g_a = (g_logits @ w2.T) * (a > 0)
    g_w1 = x.T @ g_a
    return loss, g_w1, g_w2


def _mlp_loss(x, w1, w2, labels):
    h = rg.nn.relu(rg.matmul(x, w1))
    logits = rg.matmul(h, w2)
    return -rg.reduce_sum(labels * rg.nn.log_softmax(logits)) / float(x.shape[0])


mlp_eager, mlp_traced = _eager_and_traced(_mlp_loss, ("w1", "w2"))


# --- matmul: sum(A @ B), 1024 x 1024 ----------------------------------------------------------


def _matmul_inputs(quick: bool) -> dict:
    rng = np.random.default_rng(1)
    n = 32 if quick else 1024
    return {
        "a": rng.standard_normal((n, n)).astype(np.float32),
        "b": rng.standard_normal((n, n)).astype(np.float32),
    }


def matmul_numpy(a, b):
    total = (a @ b).sum()
    ones = np.ones((a.shape[0], b.shape[1]), np.float32)
    return total, ones @ b.T, a.T @ ones


def _sum_of_product(a, b):
    return rg.reduce_sum(rg.matmul(a, b))


matmul_eager, matmul_traced = _eager_and_traced(_sum_of_product, ("a", "b"))


# --- hvp: Hessian-vector product of sum(tanh(x)^2), nested tapes ------------------------------


def _hvp_inputs(quick: bool) -> dict:
    rng = np.random.default_rng(2)
    n = 50 if quick else 1000
    return {
        "x": rng.standard_normal(n).astype(np.float32),
        "v": rng.standard_normal(n).astype(np.float32),
    }


def hvp_numpy(x, v):
    t = np.tanh(x)
    s = 1 - t * t  # tanh'
    # f = sum(t^2); grad = 2 t s; Hessian (diagonal) = 2 s^2 - 4 t^2 s
    return (2 * s * s - 4 * t * t * s) * v, 2 * t * s


def _hvp(x, v):
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            f = rg.reduce_sum(rg.square(rg.tanh(x)))
        g = inner.gradient(f, x)
        dot = rg.reduce_sum(g * v)
    return outer.gradient(dot, x), g


def hvp_eager(**inputs):
    tensors = _tensors(inputs)
    return lambda: _np(*_hvp(**tensors))


def hvp_traced(**inputs):
    f, tensors = rg.function(_hvp), _tensors(inputs)
    return lambda: _np(*f(**tensors))


# --- elementwise: sum(exp(sin(e)) * e), 4 million elements ------------------------------------


def _elementwise_inputs(quick: bool) -> dict:
    n = 1000 if quick else 4_000_000
    return {"e": np.random.default_rng(3).uniform(-1, 1, n).astype(np.float32)}


def elementwise_numpy(e):
    s = np.sin(e)
    x = np.exp(s)
    total = (x * e).sum()
    # d/de [exp(sin e) e] = exp(sin e) + e exp(sin e) cos e
    return total, x + e * x * np.cos(e)


def _elementwise_total(e):
    return rg.reduce_sum(rg.exp(rg.sin(e)) * e)


elementwise_eager, elementwise_traced = _eager_and_traced(_elementwise_total, ("e",))


WORKLOADS = [
    Workload("chain", "y = sin(y) * 1.01, 200 scalar steps, dy/dx", _chain_inputs, chain_numpy, chain_eager, chain_traced),
    Workload("custom", "the chain, each step a custom_gradient op", _chain_inputs, chain_numpy, custom_eager, custom_traced),
    Workload("mlp", "128x784 -> relu 512 -> 10, softmax cross-entropy, d/dW1, d/dW2", _mlp_inputs, mlp_numpy, mlp_eager, mlp_traced),
    Workload("matmul", "sum(A @ B), 1024x1024, d/dA, d/dB", _matmul_inputs, matmul_numpy, matmul_eager, matmul_traced, rtol=1e-3),
    Workload("hvp", "Hessian-vector product of sum(tanh(x)^2), n=1000, nested tapes", _hvp_inputs, hvp_numpy, hvp_eager, hvp_traced),
    Workload("elementwise", "sum(exp(sin(e)) * e), 4M float32, d/de", _elementwise_inputs, elementwise_numpy, elementwise_eager, elementwise_traced, rtol=1e-3),
]  # fmt: skip
