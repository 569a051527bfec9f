"""The benchmark workloads, each written once per implementation.

Every workload computes a value and the gradients the issue names. An implementation is a
builder: called with the workload's NumPy inputs, it converts them to its own tensors (not
timed: converting inputs is not forward or backward work) and returns ``run()``, which is
timed and returns the value and gradients as NumPy arrays so the runner can check that the
implementations agree.

``numpy`` is the reference: the fastest honest hand-written NumPy doing the same forward
and backward work (the same ops, their gradients by the chain rule), with what a person
would hoist out of a training loop made once by the builder (constants, the seed of ones),
results computed in place where a person would and no pass that is not needed. It does not
change the algorithm (``matmul``'s gradients stay the two matrix products of the chain
rule, the ``chain``'s backward pass stays a loop of scalar steps).

Traced workloads take their inputs as arguments of the traced function, never as captured
constants, so a function cannot fold the workload away: ``traced`` makes a fresh builder
whose ``function`` attribute is the one ``rg.function`` it calls with every input it is
given (tests feed two different inputs through one trace).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import retrograd as rg

Builder = Callable[..., Callable[[], tuple]]  # inputs -> run()


@dataclass
class Workload:
    name: str
    description: str
    make_inputs: Callable[..., dict]  # (quick, seed=0) -> inputs
    numpy: Builder  # the hand-written reference
    eager: Builder
    traced: Callable[[], Builder] | None = None  # a fresh builder over one rg.function
    rtol: float = 1e-4
    # The targets, as ratios to NumPy's time (None: no target set).
    target: float | None = None
    target_function: float | None = None


# Peak memory of ``elementwise`` (eager and function), as a multiple of its input's size.
MEMORY_TARGET = 3.0
# Per-step cost of a long eager tape (100k steps) as a multiple of its cost at 1k steps.
LONG_TAPE_TARGET = 1.1


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


def _traced(make_run: Callable[[Callable, dict], Callable[[], tuple]], fn: Callable):
    """A ``traced`` factory: each call makes one ``rg.function(fn)`` and a builder that runs
    it on the inputs it is given (``make_run(function, inputs)``), as arguments."""

    def factory() -> Builder:
        function = rg.function(fn)

        def builder(**inputs):
            return make_run(function, inputs)

        builder.function = function  # type: ignore[attr-defined]
        return builder

    return factory


def _eager_and_traced(value_fn: Callable, wrt: tuple) -> tuple[Builder, Callable[[], Builder]]:
    """The eager builder and the ``function`` factory of a workload differentiating
    ``value_fn`` (the tape outside, as a training step that calls a function would)."""
    return (
        lambda **inputs: _differentiated(value_fn, inputs, wrt),
        _traced(lambda f, inputs: _differentiated(f, inputs, wrt), value_fn),
    )


def _rng(seed: int, salt: int) -> np.random.Generator:
    """The generator of a workload's inputs (``salt``: the workload); seed 0 is the default."""
    return np.random.default_rng(salt if seed == 0 else [salt, seed])


# --- chain: y = sin(y) * 1.01, 200 times, dy/dx ---------------------------------------------


def _chain_inputs(quick: bool, seed: int = 0) -> dict:
    x0 = 0.5 if seed == 0 else _rng(seed, 4).uniform(0.1, 1.0)
    return {"x0": np.float32(x0), "steps": 20 if quick else 200}


def chain_numpy(x0, steps):
    c, one = np.float32(1.01), np.float32(1.0)

    def run():
        ys = []
        y = x0
        for _ in range(steps):
            ys.append(y)
            y = np.sin(y) * c
        g = one
        for saved in reversed(ys):
            g = g * c * np.cos(saved)
        return y, g

    return run


def _sin_step(y):
    return rg.sin(y) * 1.01


def _repeat(step: Callable) -> Callable:
    """``f(x, steps)``: ``step`` applied ``steps`` times, from ``x``."""

    def repeated(x, steps):
        y = x
        for _ in range(steps):
            y = step(y)
        return y

    return repeated


# ``steps`` is a Python int: a trace per length, the chain unrolled in it (as TensorFlow).
chain_eager, chain_traced = _eager_and_traced(_repeat(_sin_step), ("x0",))


# --- custom: the same chain, each step a custom_gradient op ---------------------------------


@rg.custom_gradient
def _sin_scaled(y):
    def grad(upstream):
        return upstream * rg.cos(y) * 1.01

    return rg.sin(y) * 1.01, grad


custom_eager, custom_traced = _eager_and_traced(_repeat(_sin_scaled), ("x0",))


# --- mlp: 128x784 -> relu 512 -> 10 logits, softmax cross-entropy ----------------------------


def _mlp_inputs(quick: bool, seed: int = 0) -> dict:
    rng = _rng(seed, 0)
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
    n = len(x)

    def run():
        h = x @ w1
        np.maximum(h, 0, out=h)  # relu, in place
        logits = h @ w2
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        total = e.sum(axis=1, keepdims=True)
        logits -= np.log(total)  # log-softmax
        loss = -np.vdot(labels, logits) / n
        e /= total  # softmax, whose difference from the labels is the logits' gradient
        e -= labels
        e /= n
        g_w2 = h.T @ e
        g_h = e @ w2.T
        np.multiply(g_h, h > 0, out=g_h)  # relu'
        return loss, x.T @ g_h, g_w2

    return run


def _mlp_loss(x, w1, w2, labels):
    h = rg.nn.relu(rg.matmul(x, w1))
    logits = rg.matmul(h, w2)
    return -rg.reduce_sum(labels * rg.nn.log_softmax(logits)) / float(x.shape[0])


mlp_eager, mlp_traced = _eager_and_traced(_mlp_loss, ("w1", "w2"))


# --- matmul: sum(relu(A @ B)), 1024 x 1024 ------------------------------------------------------


def _matmul_inputs(quick: bool, seed: int = 0) -> dict:
    rng = _rng(seed, 1)
    n = 32 if quick else 1024
    return {
        "a": rng.standard_normal((n, n)).astype(np.float32),
        "b": rng.standard_normal((n, n)).astype(np.float32),
    }


def matmul_numpy(a, b):
    # The relu makes the upstream of the product a mask, not a broadcast of one: the
    # gradients are the chain rule's two products, as in a dense layer (three n^3 products).
    def run():
        c = a @ b
        mask = (c > 0).astype(np.float32)
        return np.maximum(c, 0).sum(), mask @ b.T, a.T @ mask

    return run


def _sum_of_product(a, b):
    return rg.reduce_sum(rg.nn.relu(rg.matmul(a, b)))


matmul_eager, matmul_traced = _eager_and_traced(_sum_of_product, ("a", "b"))


# --- hvp: Hessian-vector product of sum(tanh(x)^2), nested tapes ------------------------------


def _hvp_inputs(quick: bool, seed: int = 0) -> dict:
    rng = _rng(seed, 2)
    n = 50 if quick else 1000
    return {
        "x": rng.standard_normal(n).astype(np.float32),
        "v": rng.standard_normal(n).astype(np.float32),
    }


def hvp_numpy(x, v):
    # f = sum(t^2), t = tanh(x), s = 1 - t^2 = tanh'(x): the gradient is 2 t s and the Hessian
    # is diagonal, 2 s^2 - 4 t^2 s = 2 s (1 - 3 t^2).
    def run():
        t = np.tanh(x)
        tt = t * t
        s2 = 1 - tt
        s2 += s2  # 2 s
        tt *= -3
        tt += 1  # 1 - 3 t^2, in place
        tt *= s2
        tt *= v  # the Hessian times v
        return tt, t * s2

    return run


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


def _hvp_run(f: Callable, inputs: dict) -> Callable[[], tuple]:
    tensors = _tensors(inputs)
    return lambda: _np(*f(**tensors))


hvp_traced = _traced(_hvp_run, _hvp)


# --- elementwise: sum(exp(sin(e)) * e), 4 million elements ------------------------------------


def _elementwise_inputs(quick: bool, seed: int = 0, size: int | None = None) -> dict:
    n = size or (1000 if quick else 4_000_000)
    return {"e": _rng(seed, 3).uniform(-1, 1, n).astype(np.float32)}


def elementwise_numpy(e):
    def run():
        x = np.sin(e)
        np.exp(x, out=x)  # exp(sin e), in place
        total = x @ e  # sum(x * e) without a temporary
        # d/de [exp(sin e) e] = exp(sin e) (1 + e cos e)
        g = np.cos(e)
        g *= e
        g += 1
        g *= x
        return total, g

    return run


def _elementwise_total(e):
    return rg.reduce_sum(rg.exp(rg.sin(e)) * e)


elementwise_eager, elementwise_traced = _eager_and_traced(_elementwise_total, ("e",))


WORKLOADS = [
    Workload("chain", "y = sin(y) * 1.01, 200 scalar steps, dy/dx", _chain_inputs, chain_numpy, chain_eager, chain_traced, target=14, target_function=1.0),
    Workload("custom", "the chain, each step a custom_gradient op", _chain_inputs, chain_numpy, custom_eager, custom_traced, target=18, target_function=1.0),
    Workload("mlp", "128x784 -> relu 512 -> 10, softmax cross-entropy, d/dW1, d/dW2", _mlp_inputs, mlp_numpy, mlp_eager, mlp_traced, target=1.08, target_function=1.03),
    Workload("matmul", "sum(relu(A @ B)), 1024x1024, d/dA, d/dB", _matmul_inputs, matmul_numpy, matmul_eager, matmul_traced, rtol=1e-3, target=1.03, target_function=0.8),
    Workload("hvp", "Hessian-vector product of sum(tanh(x)^2), n=1000, nested tapes", _hvp_inputs, hvp_numpy, hvp_eager, hvp_traced, target=12, target_function=3),
    Workload("elementwise", "sum(exp(sin(e)) * e), 4M float32, d/de", _elementwise_inputs, elementwise_numpy, elementwise_eager, elementwise_traced, rtol=1e-3, target=1.05, target_function=1.0),
]  # fmt: skip
