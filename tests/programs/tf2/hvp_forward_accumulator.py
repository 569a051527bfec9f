"""Hessian-vector products of a small network's loss computed three ways: forward-over-back
with tf.autodiff.ForwardAccumulator around a GradientTape, back-over-back with nested tapes,
and a finite difference of gradients; then a few steps of a damped Newton-CG-like update
along the HVP direction."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(21)
x = tf.constant(rng.normal(size=(10, 3)))
y = tf.constant(rng.normal(size=(10, 1)))
w1 = tf.Variable(rng.normal(scale=0.5, size=(3, 4)))
w2 = tf.Variable(rng.normal(scale=0.5, size=(4, 1)))
params = [w1, w2]


def loss_fn():
    return tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2) - y))


def grads():
    with tf.GradientTape() as tape:
        loss = loss_fn()
    return tape.gradient(loss, params)


vector = [tf.constant(rng.normal(size=p.shape)) for p in params]
with tf.autodiff.ForwardAccumulator(params, vector) as acc:
    g = grads()
fwd = acc.jvp(g)

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        loss = loss_fn()
    g = inner.gradient(loss, params)
    dot = tf.add_n([tf.reduce_sum(a * v) for a, v in zip(g, vector)])
rev = outer.gradient(dot, params)

h = 1e-6
for p, v in zip(params, vector):
    p.assign_add(h * v)
plus = grads()
for p, v in zip(params, vector):
    p.assign_sub(2 * h * v)
minus = grads()
for p, v in zip(params, vector):
    p.assign_add(h * v)
fd = [(a - b) / (2 * h) for a, b in zip(plus, minus)]

print("hvp w2", np.round(fwd[1].numpy().ravel(), 5))
print("fwd==rev", all(np.allclose(a, b, atol=1e-10) for a, b in zip(fwd, rev)))
print("fwd~fd", all(np.allclose(a, b, atol=1e-5) for a, b in zip(fwd, fd)))

for step in range(4):
    g = grads()
    with tf.autodiff.ForwardAccumulator(params, g) as acc:
        g_inner = grads()
    hg = acc.jvp(g_inner)
    gg = sum(float(tf.reduce_sum(a * a)) for a in g)
    ghg = sum(float(tf.reduce_sum(a * b)) for a, b in zip(g, hg))
    lr = gg / (abs(ghg) + 1e-3)
    for p, a in zip(params, g):
        p.assign_sub(lr * a)
    print(f"step {step} loss {float(loss_fn()):.6f} curvature {ghg / gg:.5f}")
