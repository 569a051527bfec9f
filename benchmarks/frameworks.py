"""The workloads in PyTorch, JAX, TensorFlow and HIPS autograd, for comparison columns.

Each framework is used only if it can be imported; none is a dependency. Every function
takes the workload's NumPy inputs and returns NumPy arrays (value, gradients).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import numpy as np


def available() -> dict[str, dict[str, Callable]]:
    """{framework: {workload: function}} for the frameworks importable here."""
    found = {}
    for name, build in (
        ("pytorch", _torch),
        ("jax", _jax),
        ("tensorflow", _tensorflow),
        ("autograd", _autograd),
    ):
        module = {
            "pytorch": "torch",
            "jax": "jax",
            "tensorflow": "tensorflow",
            "autograd": "autograd",
        }[name]
        if importlib.util.find_spec(module) is not None:
            try:
                found[name] = build()
            except Exception as e:  # a broken install should not stop the benchmark
                print(f"# {name} is installed but could not be used: {e}")
    return found


def _torch() -> dict[str, Callable]:
    import torch

    torch.set_num_threads(2)

    def chain(x0, steps, custom=False):
        class SinScaled(torch.autograd.Function):
            @staticmethod
            def forward(ctx, y):
                ctx.save_for_backward(y)
                return torch.sin(y) * 1.01

            @staticmethod
            def backward(ctx, g):
                (y,) = ctx.saved_tensors
                return g * torch.cos(y) * 1.01

        x = torch.tensor(x0, requires_grad=True)
        y = x
        for _ in range(steps):
            y = SinScaled.apply(y) if custom else torch.sin(y) * 1.01
        (g,) = torch.autograd.grad(y, x)
        return y.detach().numpy(), g.numpy()

    def mlp(x, w1, w2, labels):
        x, labels = torch.from_numpy(x), torch.from_numpy(labels)
        w1, w2 = torch.tensor(w1, requires_grad=True), torch.tensor(w2, requires_grad=True)
        logits = torch.relu(x @ w1) @ w2
        loss = -(labels * torch.log_softmax(logits, 1)).sum() / len(x)
        g1, g2 = torch.autograd.grad(loss, [w1, w2])
        return loss.detach().numpy(), g1.numpy(), g2.numpy()

    def matmul(a, b):
        a, b = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
        total = (a @ b).sum()
        ga, gb = torch.autograd.grad(total, [a, b])
        return total.detach().numpy(), ga.numpy(), gb.numpy()

    def hvp(x, v):
        x, v = torch.tensor(x, requires_grad=True), torch.from_numpy(v)
        f = torch.tanh(x).square().sum()
        (g,) = torch.autograd.grad(f, x, create_graph=True)
        (h,) = torch.autograd.grad((g * v).sum(), x)
        return h.numpy(), g.detach().numpy()

    def elementwise(e):
        e = torch.tensor(e, requires_grad=True)
        total = (torch.exp(torch.sin(e)) * e).sum()
        (g,) = torch.autograd.grad(total, e)
        return total.detach().numpy(), g.numpy()

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _jax() -> dict[str, Callable]:
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

        y, g = jax.value_and_grad(f)(jnp.float32(x0))
        return np.asarray(y), np.asarray(g)

    def mlp(x, w1, w2, labels):
        def loss(w1, w2):
            logits = jax.nn.relu(x @ w1) @ w2
            return -(labels * jax.nn.log_softmax(logits, 1)).sum() / len(x)

        value, (g1, g2) = jax.value_and_grad(loss, (0, 1))(w1, w2)
        return np.asarray(value), np.asarray(g1), np.asarray(g2)

    def matmul(a, b):
        value, (ga, gb) = jax.value_and_grad(lambda a, b: (a @ b).sum(), (0, 1))(a, b)
        return np.asarray(value), np.asarray(ga), np.asarray(gb)

    def hvp(x, v):
        grad = jax.grad(lambda x: jnp.square(jnp.tanh(x)).sum())
        g, h = jax.jvp(grad, (x,), (v,))
        return np.asarray(h), np.asarray(g)

    def elementwise(e):
        value, g = jax.value_and_grad(lambda e: (jnp.exp(jnp.sin(e)) * e).sum())(e)
        return np.asarray(value), np.asarray(g)

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _tensorflow() -> dict[str, Callable]:
    import tensorflow as tf

    @tf.custom_gradient
    def sin_scaled(y):
        return tf.sin(y) * 1.01, lambda g: g * tf.cos(y) * 1.01

    def chain(x0, steps, custom=False):
        x = tf.constant(x0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(steps):
                y = sin_scaled(y) if custom else tf.sin(y) * 1.01
        return y.numpy(), tape.gradient(y, x).numpy()

    def mlp(x, w1, w2, labels):
        w1, w2 = tf.constant(w1), tf.constant(w2)
        with tf.GradientTape() as tape:
            tape.watch([w1, w2])
            logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
            loss = -tf.reduce_sum(labels * tf.nn.log_softmax(logits)) / len(x)
        g1, g2 = tape.gradient(loss, [w1, w2])
        return loss.numpy(), g1.numpy(), g2.numpy()

    def matmul(a, b):
        a, b = tf.constant(a), tf.constant(b)
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            total = tf.reduce_sum(tf.matmul(a, b))
        ga, gb = tape.gradient(total, [a, b])
        return total.numpy(), ga.numpy(), gb.numpy()

    def hvp(x, v):
        x = tf.constant(x)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                f = tf.reduce_sum(tf.square(tf.tanh(x)))
            g = inner.gradient(f, x)
            dot = tf.reduce_sum(g * v)
        return outer.gradient(dot, x).numpy(), g.numpy()

    def elementwise(e):
        e = tf.constant(e)
        with tf.GradientTape() as tape:
            tape.watch(e)
            total = tf.reduce_sum(tf.exp(tf.sin(e)) * e)
        return total.numpy(), tape.gradient(total, e).numpy()

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }


def _autograd() -> dict[str, Callable]:
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

        y, g = autograd.value_and_grad(f)(x0)
        return np.asarray(y), np.asarray(g)

    def mlp(x, w1, w2, labels):
        def loss(ws):
            logits = anp.maximum(x @ ws[0], 0) @ ws[1]
            shifted = logits - anp.max(logits, axis=1, keepdims=True)
            log_softmax = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
            return -anp.sum(labels * log_softmax) / len(x)

        value, (g1, g2) = autograd.value_and_grad(loss)([w1, w2])
        return np.asarray(value), g1, g2

    def matmul(a, b):
        value, (ga, gb) = autograd.value_and_grad(lambda ab: anp.sum(ab[0] @ ab[1]))([a, b])
        return np.asarray(value), ga, gb

    def hvp(x, v):
        grad = autograd.grad(lambda x: anp.sum(anp.square(anp.tanh(x))))
        h = autograd.grad(lambda x: anp.sum(grad(x) * v))(x)
        return h, grad(x)

    def elementwise(e):
        value, g = autograd.value_and_grad(lambda e: anp.sum(anp.exp(anp.sin(e)) * e))(e)
        return np.asarray(value), g

    return {
        "chain": chain,
        "custom": lambda x0, steps: chain(x0, steps, custom=True),
        "mlp": mlp,
        "matmul": matmul,
        "hvp": hvp,
        "elementwise": elementwise,
    }
