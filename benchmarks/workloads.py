"""The benchmark workloads, each written once per implementation.

Every workload computes a value and the gradients the issue names; every implementation
returns them as NumPy arrays so the runner can check that they agree before timing them.
``numpy`` is the hand-written reference doing the same forward and backward work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import retrograd as rg


@dataclass
class Workload:
    name: str
    description: str
    make_inputs: Callable[[bool], dict]  # quick -> inputs
    numpy: Callable[..., tuple]
    eager: Callable[..., tuple]
    traced: Callable[..., tuple] | None = None  # built once per input set, then called
    others: dict[str, Callable[..., tuple]] = field(default_factory=dict)
    rtol: float = 1e-4


def _np(*values: Any) -> tuple:
    return tuple(np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in values)


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


def chain_eager(x0, steps):
    x = rg.constant(x0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(steps):
            y = rg.sin(y) * 1.01
    return _np(y, tape.gradient(y, x))


def _chain_body(x, steps):
    y = x
    for _ in range(steps):
        y = rg.sin(y) * 1.01
    return y


def chain_traced(x0, steps):
    f = rg.function(lambda x: _chain_body(x, steps))

    def run(x0, steps):
        x = rg.constant(x0)
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return _np(y, tape.gradient(y, x))

    return run


# --- custom: the same chain, each step a custom_gradient op ---------------------------------


@rg.custom_gradient
def _sin_scaled(y):
    def grad(upstream):
        return upstream * rg.cos(y) * 1.01

    return rg.sin(y) * 1.01, grad


def custom_eager(x0, steps):
    x = rg.constant(x0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(steps):
            y = _sin_scaled(y)
    return _np(y, tape.gradient(y, x))


def custom_traced(x0, steps):
    def body(x):
        y = x
        for _ in range(steps):
            y = _sin_scaled(y)
        return y

    f = rg.function(body)

    def run(x0, steps):
        x = rg.constant(x0)
        with rg.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return _np(y, tape.gradient(y, x))

    return run


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


def mlp_eager(x, w1, w2, labels):
    x, labels = rg.constant(x), rg.constant(labels)
    w1, w2 = rg.constant(w1), rg.constant(w2)
    with rg.GradientTape() as tape:
        tape.watch([w1, w2])
        loss = _mlp_loss(x, w1, w2, labels)
    return _np(loss, *tape.gradient(loss, [w1, w2]))


def mlp_traced(x, w1, w2, labels):
    f = rg.function(_mlp_loss)

    def run(x, w1, w2, labels):
        x, labels = rg.constant(x), rg.constant(labels)
        w1, w2 = rg.constant(w1), rg.constant(w2)
        with rg.GradientTape() as tape:
            tape.watch([w1, w2])
            loss = f(x, w1, w2, labels)
        return _np(loss, *tape.gradient(loss, [w1, w2]))

    return run


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


def matmul_eager(a, b):
    a, b = rg.constant(a), rg.constant(b)
    with rg.GradientTape() as tape:
        tape.watch([a, b])
        total = rg.reduce_sum(rg.matmul(a, b))
    return _np(total, *tape.gradient(total, [a, b]))


def matmul_traced(a, b):
    f = rg.function(lambda a, b: rg.reduce_sum(rg.matmul(a, b)))

    def run(a, b):
        a, b = rg.constant(a), rg.constant(b)
        with rg.GradientTape() as tape:
            tape.watch([a, b])
            total = f(a, b)
        return _np(total, *tape.gradient(total, [a, b]))

    return run


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


def hvp_eager(x, v):
    x, v = rg.constant(x), rg.constant(v)
    with rg.GradientTape() as outer:
        outer.watch(x)
        with rg.GradientTape() as inner:
            inner.watch(x)
            f = rg.reduce_sum(rg.square(rg.tanh(x)))
        g = inner.gradient(f, x)
        dot = rg.reduce_sum(g * v)
    return _np(outer.gradient(dot, x), g)


def hvp_traced(x, v):
    def body(x, v):
        with rg.GradientTape() as outer:
            outer.watch(x)
            with rg.GradientTape() as inner:
                inner.watch(x)
                f = rg.reduce_sum(rg.square(rg.tanh(x)))
            g = inner.gradient(f, x)
            dot = rg.reduce_sum(g * v)
        return outer.gradient(dot, x), g

    f = rg.function(body)
    return lambda x, v: _np(*f(rg.constant(x), rg.constant(v)))


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


def elementwise_eager(e):
    e = rg.constant(e)
    with rg.GradientTape() as tape:
        tape.watch(e)
        total = rg.reduce_sum(rg.exp(rg.sin(e)) * e)
    return _np(total, tape.gradient(total, e))


def elementwise_traced(e):
    f = rg.function(lambda e: rg.reduce_sum(rg.exp(rg.sin(e)) * e))

    def run(e):
        e = rg.constant(e)
        with rg.GradientTape() as tape:
            tape.watch(e)
            total = f(e)
        return _np(total, tape.gradient(total, e))

    return run


WORKLOADS = [
    Workload("chain", "y = sin(y) * 1.01, 200 scalar steps, dy/dx", _chain_inputs, chain_numpy, chain_eager, chain_traced),
    Workload("custom", "the chain, each step a custom_gradient op", _chain_inputs, chain_numpy, custom_eager, custom_traced),
    Workload("mlp", "128x784 -> relu 512 -> 10, softmax cross-entropy, d/dW1, d/dW2", _mlp_inputs, mlp_numpy, mlp_eager, mlp_traced),
    Workload("matmul", "sum(A @ B), 1024x1024, d/dA, d/dB", _matmul_inputs, matmul_numpy, matmul_eager, matmul_traced, rtol=1e-3),
    Workload("hvp", "Hessian-vector product of sum(tanh(x)^2), n=1000, nested tapes", _hvp_inputs, hvp_numpy, hvp_eager, hvp_traced),
    Workload("elementwise", "sum(exp(sin(e)) * e), 4M float32, d/de", _elementwise_inputs, elementwise_numpy, elementwise_eager, elementwise_traced, rtol=1e-3),
]  # fmt: skip
