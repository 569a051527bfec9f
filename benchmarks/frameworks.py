"""The workloads in PyTorch, JAX, TensorFlow and HIPS autograd, for comparison columns.

Each framework is used only if it can be imported; none is a dependency. The runner
measures each one in a process of its own (frameworks start thread pools that would slow
whatever runs beside them), by default with this interpreter, or with another one
(``--framework-python``, e.g. a virtual environment holding TensorFlow). As in
``workloads``, every entry is a builder: given the workload's NumPy inputs it makes the
framework's tensors (untimed) and returns ``run()``, which does the forward and backward
work and returns NumPy arrays (value, gradients).

A framework gives its eager column (named after it) and, where it traces, a traced column
(``tensorflow function``, ``jax jit``) shaped as retrograd's ``function`` is: the inputs are
arguments of the traced function (never constants it could fold), the gradient is taken
outside it where retrograd's is (a tape around a ``tf.function`` call).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from collections.abc import Callable

import numpy as np

Builder = Callable[..., Callable[[], tuple]]


# The module each framework is imported as, and how its workloads are built.
_FRAMEWORKS = {
    "pytorch": "torch",
    "jax": "jax",
    "tensorflow": "tensorflow",
    "autograd": "autograd",
}

# Frameworks whose arrays are NumPy's: tracemalloc sees their memory, so it is reported.
NUMPY_BACKED = {"autograd"}


def installed(python: str | None = None) -> list[str]:
    """The frameworks importable here, or by the interpreter ``python`` (found without
    importing them)."""
    if python is None:
        return [name for name, module in _FRAMEWORKS.items() if importlib.util.find_spec(module)]
    probe = (
        "import importlib.util, json, sys; "
        "print(json.dumps([m for m in sys.argv[1:] if importlib.util.find_spec(m)]))"
    )
    try:
        done = subprocess.run(
            [python, "-c", probe, *_FRAMEWORKS.values()], capture_output=True, text=True
        )
    except OSError:
        return []
    if done.returncode != 0:
        return []
    found = set(json.loads(done.stdout))
    return [name for name, module in _FRAMEWORKS.items() if module in found]


def builders(name: str) -> dict[str, dict[str, Builder]]:
    """{column: {workload: builder}} of framework ``name`` (imports it): its eager column,
    named ``name``, and its traced one where it has one."""
    return {"pytorch": _torch, "jax": _jax, "tensorflow": _tensorflow, "autograd": _autograd}[
        name
    ]()


def _torch() -> dict[str, dict[str, Builder]]:
    import torch

    torch.set_num_threads(2)

    class SinScaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, y):
            ctx.save_for_backward(y)
            return torch.sin(y) * 1.01

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * torch.cos(y) * 1.01

    def leaf(value):  # a tensor gradients are taken with respect to
        return torch.tensor(value, requires_grad=True)

    def chain(x0, steps, custom=False):
        x = leaf(x0)

        def run():
            y = x
            for _ in range(steps):
                y = SinScaled.apply(y) if custom else torch.sin(y) * 1.01
            (g,) = torch.autograd.grad(y, x)
            return y.detach().numpy(), g.numpy()

        return run

    def mlp(x, w1, w2, labels):
        x, labels, w1, w2 = torch.tensor(x), torch.tensor(labels), leaf(w1), leaf(w2)

        def run():
            logits = torch.relu(x @ w1) @ w2
            loss = -(labels * torch.log_softmax(logits, 1)).sum() / len(x)
            g1, g2 = torch.autograd.grad(loss, [w1, w2])
            return loss.detach().numpy(), g1.numpy(), g2.numpy()

        return run

    def matmul(a, b):
        a, b = leaf(a), leaf(b)

        def run():
            total = torch.relu(a @ b).sum()
            ga, gb = torch.autograd.grad(total, [a, b])
            return total.detach().numpy(), ga.numpy(), gb.numpy()

        return run

    def hvp(x, v):
        x, v = leaf(x), torch.tensor(v)

        def run():
            f = torch.tanh(x).square().sum()
            (g,) = torch.autograd.grad(f, x, create_graph=True)
            (h,) = torch.autograd.grad((g * v).sum(), x)
            return h.numpy(), g.detach().numpy()

        return run

    def elementwise(e):
        e = leaf(e)

        def run():
            total = (torch.exp(torch.sin(e)) * e).sum()
            (g,) = torch.autograd.grad(total, e)
            return total.detach().numpy(), g.numpy()

        return run

    return {"pytorch": _six(chain, mlp, matmul, hvp, elementwise)}


def _six(chain, mlp, matmul, hvp, elementwise) -> dict[str, Builder]:
    """{workload: builder}; ``custom`` is ``chain`` built with ``custom=True``."""
    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _jax() -> dict[str, dict[str, Builder]]:
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def sin_scaled(y):
        return jnp.sin(y) * 1.01

    sin_scaled.defvjp(lambda y: (jnp.sin(y) * 1.01, y), lambda y, g: (g * jnp.cos(y) * 1.01,))

    def chain_fn(steps, custom):
        def f(x):
            y = x
            for _ in range(steps):
                y = sin_scaled(y) if custom else jnp.sin(y) * 1.01
            return y

        return f

    def mlp_loss(x, w1, w2, labels):
        logits = jax.nn.relu(x @ w1) @ w2
        return -(labels * jax.nn.log_softmax(logits, 1)).sum() / x.shape[0]

    def hvp_fn(x, v):
        grad = jax.grad(lambda x: jnp.square(jnp.tanh(x)).sum())
        g, h = jax.jvp(grad, (x,), (v,))
        return h, g

    def elementwise_total(e):
        return (jnp.exp(jnp.sin(e)) * e).sum()

    def column(jit):
        """The workloads, eagerly or each under one ``jax.jit`` over all its inputs."""
        wrap = jax.jit if jit else (lambda f: f)

        def differentiated(f, argnums, inputs):
            step = wrap(jax.value_and_grad(f, argnums))
            arrays = [jnp.asarray(v) for v in inputs]

            def run():
                value, grads = step(*arrays)
                grads = grads if isinstance(grads, tuple) else (grads,)
                return (np.asarray(value), *(np.asarray(g) for g in grads))

            return run

        def chain(x0, steps, custom=False):  # steps shapes the program: a trace per length
            return differentiated(chain_fn(steps, custom), 0, [x0])

        def hvp(x, v):
            step, arrays = wrap(hvp_fn), (jnp.asarray(x), jnp.asarray(v))
            return lambda: tuple(np.asarray(r) for r in step(*arrays))

        return _six(
            chain,
            lambda x, w1, w2, labels: differentiated(mlp_loss, (1, 2), [x, w1, w2, labels]),
            lambda a, b: differentiated(lambda a, b: jax.nn.relu(a @ b).sum(), (0, 1), [a, b]),
            hvp,
            lambda e: differentiated(elementwise_total, 0, [e]),
        )

    return {"jax": column(jit=False), "jax jit": column(jit=True)}


def _tensorflow() -> dict[str, dict[str, Builder]]:
    import tensorflow as tf

    @tf.custom_gradient
    def sin_scaled(y):
        return tf.sin(y) * 1.01, lambda g: g * tf.cos(y) * 1.01

    def chain_fn(x, steps, custom=False):
        y = x
        for _ in range(steps):
            y = sin_scaled(y) if custom else tf.sin(y) * 1.01
        return y

    def mlp_loss(x, w1, w2, labels):
        logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
        return -tf.reduce_sum(labels * tf.nn.log_softmax(logits)) / x.shape[0]

    def hvp_fn(x, v):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                f = tf.reduce_sum(tf.square(tf.tanh(x)))
            g = inner.gradient(f, x)
            dot = tf.reduce_sum(g * v)
        return outer.gradient(dot, x), g

    def column(traced):
        """The workloads eagerly, or each a ``tf.function`` of all its inputs called under a
        tape (as retrograd's ``function`` column)."""
        wrap = tf.function if traced else (lambda f: f)

        def differentiated(f, wrt, inputs, extra=()):
            f = wrap(f)
            tensors = [tf.constant(v) for v in inputs]
            watched = [tensors[i] for i in wrt]

            def run():
                with tf.GradientTape() as tape:
                    tape.watch(watched)
                    value = f(*tensors, *extra)
                grads = tape.gradient(value, watched)
                return (value.numpy(), *(g.numpy() for g in grads))

            return run

        def chain(x0, steps, custom=False):  # steps shapes the program: a trace per length
            return differentiated(chain_fn, (0,), [x0], (steps, custom))

        def hvp(x, v):
            step, tensors = wrap(hvp_fn), (tf.constant(x), tf.constant(v))
            return lambda: tuple(r.numpy() for r in step(*tensors))

        return _six(
            chain,
            lambda x, w1, w2, labels: differentiated(mlp_loss, (1, 2), [x, w1, w2, labels]),
            lambda a, b: differentiated(
                lambda a, b: tf.reduce_sum(tf.nn.relu(tf.matmul(a, b))), (0, 1), [a, b]
            ),
            hvp,
            lambda e: differentiated(lambda e: tf.reduce_sum(tf.exp(tf.sin(e)) * e), (0,), [e]),
        )

    return {"tensorflow": column(traced=False), "tensorflow function": column(traced=True)}


def _autograd() -> dict[str, dict[str, Builder]]:
    import autograd
    import autograd.numpy as anp
    from autograd.extend import defvjp, primitive

    @primitive
    def sin_scaled(y):
        return anp.sin(y) * 1.01

    defvjp(sin_scaled, lambda ans, y: lambda g: g * anp.cos(y) * 1.01)

    def chain(x0, steps, custom=False):
        def f(x):
            y = x
            for _ in range(steps):
                y = sin_scaled(y) if custom else anp.sin(y) * 1.01
            return y

        def run():
            y, g = autograd.value_and_grad(f)(x0)
            return np.asarray(y), np.asarray(g)

        return run

    def mlp(x, w1, w2, labels):
        def loss(ws):
            logits = anp.maximum(x @ ws[0], 0) @ ws[1]
            shifted = logits - anp.max(logits, axis=1, keepdims=True)
            log_softmax = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
            return -anp.sum(labels * log_softmax) / len(x)

        def run():
            value, (g1, g2) = autograd.value_and_grad(loss)([w1, w2])
            return np.asarray(value), g1, g2

        return run

    def matmul(a, b):
        def run():
            value, (ga, gb) = autograd.value_and_grad(
                lambda ab: anp.sum(anp.maximum(ab[0] @ ab[1], 0))
            )([a, b])
            return np.asarray(value), ga, gb

        return run

    def hvp(x, v):
        grad = autograd.grad(lambda x: anp.sum(anp.square(anp.tanh(x))))

        def run():
            h = autograd.grad(lambda x: anp.sum(grad(x) * v))(x)
            return h, grad(x)

        return run

    def elementwise(e):
        def run():
            value, g = autograd.value_and_grad(lambda e: anp.sum(anp.exp(anp.sin(e)) * e))(e)
            return np.asarray(value), g

        return run

    return {"autograd": _six(chain, mlp, matmul, hvp, elementwise)}
