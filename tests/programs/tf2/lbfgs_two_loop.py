"""L-BFGS on the Rosenbrock function: the two-loop recursion over a short history of
(s, y) pairs, gradients from GradientTape under tf.function, and a backtracking line
search (Armijo) in plain Python around it."""

import numpy as np
import tensorflow as tf


@tf.function
def value_and_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        f = tf.reduce_sum(100.0 * tf.square(x[1:] - tf.square(x[:-1])) + tf.square(1.0 - x[:-1]))
    return f, tape.gradient(f, x)


def direction(g, history):
    q = g
    alphas = []
    for s, y in reversed(history):
        rho = 1.0 / tf.tensordot(y, s, 1)
        a = rho * tf.tensordot(s, q, 1)
        q = q - a * y
        alphas.append((rho, a))
    if history:
        s, y = history[-1]
        q = q * tf.tensordot(s, y, 1) / tf.tensordot(y, y, 1)
    for (s, y), (rho, a) in zip(history, reversed(alphas)):
        b = rho * tf.tensordot(y, q, 1)
        q = q + (a - b) * s
    return -q


x = tf.constant(np.array([-1.2, 1.0, -0.5, 0.8], np.float64))
f, g = value_and_grad(x)
history = []
for it in range(25):
    d = direction(g, history)
    t = 1.0
    while True:
        x_new = x + t * d
        f_new, g_new = value_and_grad(x_new)
        if float(f_new) <= float(f) + 1e-4 * t * float(tf.tensordot(g, d, 1)) or t < 1e-8:
            break
        t *= 0.5
    history = (history + [(x_new - x, g_new - g)])[-5:]
    x, f, g = x_new, f_new, g_new
    if it % 5 == 4:
        print(it, f"{float(f):.8f}", f"{float(tf.norm(g)):.6f}")
print("x", np.round(x.numpy(), 5))
