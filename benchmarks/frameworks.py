"""The workloads in PyTorch, JAX, TensorFlow and HIPS autograd, for comparison columns.

Each framework is used only if it can be imported; none is a dependency. The runner
measures each one in a process of its own (frameworks start thread pools that would slow
whatever runs beside them). As in
``workloads``, every entry is a builder: given the workload's NumPy inputs it makes the
framework's tensors (untimed) and returns ``run()``, which does the forward and backward
work and returns NumPy arrays (value, gradients).
"""

from __future__ import annotations

import importlib.util
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


def installed() -> list[str]:
    """The frameworks importable here (found without importing them)."""
    return [name for name, module in _FRAMEWORKS.items() if importlib.util.find_spec(module)]


def builders(name: str) -> dict[str, Builder]:
    """{workload: builder} for framework ``name`` (imports it)."""
    return {"pytorch": _torch, "jax": _jax, "tensorflow": _tensorflow, "autograd": _autograd}[
        name
    ]()


def _torch() -> dict[str, Builder]:
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
            total = (a @ b).sum()
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

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _jax() -> dict[str, Builder]:
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def sin_scaled(y):
        return jnp.sin(y) * 1.01

    sin_scaled.defvjp(lambda y: (jnp.sin(y) * 1.01, y), lambda y, g: (g * jnp.cos(y) * 1.01,))

    def chain(x0, steps, custom=False):
        def f(x):
            y = x
            for _ in range(steps):
                y = sin_scaled(y) if custom else jnp.sin(y) * 1.01
            return y

        x = jnp.asarray(x0)

        def run():
            y, g = jax.value_and_grad(f)(x)
            return np.asarray(y), np.asarray(g)

        return run

    def mlp(x, w1, w2, labels):
        x, w1, w2, labels = (jnp.asarray(v) for v in (x, w1, w2, labels))

        def loss(w1, w2):
            logits = jax.nn.relu(x @ w1) @ w2
            return -(labels * jax.nn.log_softmax(logits, 1)).sum() / len(x)

        def run():
            value, (g1, g2) = jax.value_and_grad(loss, (0, 1))(w1, w2)
            return np.asarray(value), np.asarray(g1), np.asarray(g2)

        return run

    def matmul(a, b):
        a, b = jnp.asarray(a), jnp.asarray(b)

        def run():
            value, (ga, gb) = jax.value_and_grad(lambda a, b: (a @ b).sum(), (0, 1))(a, b)
            return np.asarray(value), np.asarray(ga), np.asarray(gb)

        return run

    def hvp(x, v):
        x, v = jnp.asarray(x), jnp.asarray(v)
        grad = jax.grad(lambda x: jnp.square(jnp.tanh(x)).sum())

        def run():
            g, h = jax.jvp(grad, (x,), (v,))
            return np.asarray(h), np.asarray(g)

        return run

    def elementwise(e):
        e = jnp.asarray(e)

        def run():
            value, g = jax.value_and_grad(lambda e: (jnp.exp(jnp.sin(e)) * e).sum())(e)
            return np.asarray(value), np.asarray(g)

        return run

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _tensorflow() -> dict[str, Builder]:
    import tensorflow as tf

    @tf.custom_gradient
    def sin_scaled(y):
        return tf.sin(y) * 1.01, lambda g: g * tf.cos(y) * 1.01

    def chain(x0, steps, custom=False):
        x = tf.constant(x0)

        def run():
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x
                for _ in range(steps):
                    y = sin_scaled(y) if custom else tf.sin(y) * 1.01
            return y.numpy(), tape.gradient(y, x).numpy()

        return run

    def mlp(x, w1, w2, labels):
        x, w1, w2, labels = (tf.constant(v) for v in (x, w1, w2, labels))

        def run():
            with tf.GradientTape() as tape:
                tape.watch([w1, w2])
                logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
                loss = -tf.reduce_sum(labels * tf.nn.log_softmax(logits)) / x.shape[0]
            g1, g2 = tape.gradient(loss, [w1, w2])
            return loss.numpy(), g1.numpy(), g2.numpy()

        return run

    def matmul(a, b):
        a, b = tf.constant(a), tf.constant(b)

        def run():
            with tf.GradientTape() as tape:
                tape.watch([a, b])
                total = tf.reduce_sum(tf.matmul(a, b))
            ga, gb = tape.gradient(total, [a, b])
            return total.numpy(), ga.numpy(), gb.numpy()

        return run

    def hvp(x, v):
        x, v = tf.constant(x), tf.constant(v)

        def run():
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    f = tf.reduce_sum(tf.square(tf.tanh(x)))
                g = inner.gradient(f, x)
                dot = tf.reduce_sum(g * v)
            return outer.gradient(dot, x).numpy(), g.numpy()

        return run

    def elementwise(e):
        e = tf.constant(e)

        def run():
            with tf.GradientTape() as tape:
                tape.watch(e)
                total = tf.reduce_sum(tf.exp(tf.sin(e)) * e)
            return total.numpy(), tape.gradient(total, e).numpy()

        return run

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _autograd() -> dict[str, Builder]:
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
            value, (ga, gb) = autograd.value_and_grad(lambda ab: anp.sum(ab[0] @ ab[1]))([a, b])
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

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }
