"""A neural ODE dz/dt = tanh(z A + b) integrated with fixed-step RK4; its gradient comes from
the adjoint method (integrating the state, adjoint and parameter sensitivities backwards,
vector-Jacobian products taken with an inner GradientTape) inside tf.custom_gradient, and is
compared with backpropagating through the solver."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(2)
A = tf.Variable(rng.normal(scale=0.5, size=(3, 3)), dtype=tf.float64)
b = tf.Variable(rng.normal(scale=0.1, size=(3,)), dtype=tf.float64)
z0 = tf.constant(rng.normal(size=(2, 3)), tf.float64)
T, STEPS = 1.0, 20


def f(z):
    return tf.tanh(tf.matmul(z, A) + b)


def rk4(fun, y, h, steps):
    for _ in range(steps):
        k1 = fun(y)
        k2 = fun([a + 0.5 * h * k for a, k in zip(y, k1)])
        k3 = fun([a + 0.5 * h * k for a, k in zip(y, k2)])
        k4 = fun([a + h * k for a, k in zip(y, k3)])
        y = [a + h / 6 * (p + 2 * q + 2 * r + s) for a, p, q, r, s in zip(y, k1, k2, k3, k4)]
    return y


@tf.custom_gradient
def odeint(z0):
    zT = rk4(lambda y: [f(y[0])], [z0], T / STEPS, STEPS)[0]

    def grad(dz, variables):
        def augmented(state):
            z, a = state[0], state[1]
            with tf.GradientTape() as tape:
                tape.watch(z)
                fz = f(z)
            vjp = tape.gradient(fz, [z, A, b], output_gradients=a)
            return [-fz, -vjp[0], -vjp[1], -vjp[2]]

        state = [zT, dz, tf.zeros_like(A), tf.zeros_like(b)]
        _, a0, gA, gb = rk4(augmented, state, T / STEPS, STEPS)
        return a0, [-gA, -gb]

    return zT, grad


target = tf.constant([[0.2, -0.1, 0.4], [0.0, 0.3, -0.2]], tf.float64)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(z0)
    loss = tf.reduce_sum(tf.square(odeint(z0) - target))
    direct = tf.reduce_sum(tf.square(rk4(lambda y: [f(y[0])], [z0], T / STEPS, STEPS)[0] - target))
adj = tape.gradient(loss, [z0, A, b])
bp = tape.gradient(direct, [z0, A, b])
print("loss", round(float(loss), 6))
for name, g1, g2 in zip(["z0", "A", "b"], adj, bp):
    print(
        name,
        "adjoint",
        np.round(g1.numpy().ravel()[:3], 5),
        "close",
        np.allclose(g1, g2, atol=1e-5),
    )
