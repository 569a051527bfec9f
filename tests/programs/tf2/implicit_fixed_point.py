"""Deep-equilibrium style layer: the forward pass iterates z = tanh(W z + x) to a fixed point
under tf.stop_gradient, and tf.custom_gradient supplies the implicit-function-theorem
gradient by solving the adjoint linear system; checked against unrolled differentiation."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(5)
W = tf.Variable((0.3 * rng.normal(size=(4, 4)) / 2).astype("float64"))
x = tf.constant(rng.normal(size=(4, 1)), tf.float64)


def fixed_point(x, iters=60):
    z = tf.zeros_like(x)
    for _ in range(iters):
        z = tf.tanh(tf.matmul(W, z) + x)
    return z


@tf.custom_gradient
def deq(x):
    z = tf.stop_gradient(fixed_point(x))

    def grad(dz, variables):
        d = 1.0 - tf.square(tf.tanh(tf.matmul(W, z) + x))  # diag of f'
        J = d * W  # d f / d z
        eye = tf.eye(4, dtype=tf.float64)
        u = tf.linalg.solve(tf.transpose(eye - J), dz)  # (I - J)^T u = dz
        du = d * u
        return du, [tf.matmul(du, z, transpose_b=True)]

    return z, grad


target = tf.constant([[0.5], [-0.2], [0.1], [0.3]], tf.float64)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    z = deq(x)
    loss = tf.reduce_sum(tf.square(z - target))
    loss_unrolled = tf.reduce_sum(tf.square(fixed_point(x) - target))
gw, gx = tape.gradient(loss, [W, x])
uw, ux = tape.gradient(loss_unrolled, [W, x])
print("z", np.round(z.numpy().ravel(), 5))
print("loss", round(float(loss), 6))
print("dW implicit", np.round(gw.numpy()[0], 5))
print("dW unrolled", np.round(uw.numpy()[0], 5))
print("dx implicit", np.round(gx.numpy().ravel(), 5))
print("max diff", float(np.max(np.abs(gw.numpy() - uw.numpy()))) < 1e-8)
opt = tf.keras.optimizers.SGD(0.5)
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(deq(x) - target))
    opt.apply_gradients([(tape.gradient(loss, W), W)])
    print("step", step, round(float(loss), 6))
