"""A physics-informed network for the 1-D heat equation u_t = 0.1 u_xx: u_t and u_x come
from tape.batch_jacobian of the network w.r.t. its (x, t) input, u_xx from a second
batch_jacobian in an outer persistent tape, and the residual plus an initial-condition loss
are minimised with Adam."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(12)
points = rng.uniform([-1.0, 0.0], [1.0, 1.0], size=(24, 2)).astype("float32")
x0 = np.linspace(-1, 1, 9, dtype="float32")
init_points = np.stack([x0, np.zeros_like(x0)], axis=1)
init_values = np.sin(np.pi * x0)[:, None].astype("float32")

model = tf.keras.Sequential(
    [
        tf.keras.Input((2,)),
        tf.keras.layers.Dense(10, activation="tanh"),
        tf.keras.layers.Dense(10, activation="tanh"),
        tf.keras.layers.Dense(1),
    ]
)
model.set_weights([rng.normal(scale=0.6, size=w.shape).astype("float32") for w in model.weights])
opt = tf.keras.optimizers.Adam(0.01)


def residual(pts):
    pts = tf.convert_to_tensor(pts)
    with tf.GradientTape() as outer:
        outer.watch(pts)
        with tf.GradientTape() as inner:
            inner.watch(pts)
            u = model(pts)
        du = inner.batch_jacobian(u, pts)[:, 0, :]  # (n, 2): u_x, u_t
    d2u = outer.batch_jacobian(du, pts)  # (n, 2, 2)
    return du[:, 1] - 0.1 * d2u[:, 0, 0]


for step in range(6):
    with tf.GradientTape() as tape:
        pde = tf.reduce_mean(tf.square(residual(points)))
        ic = tf.reduce_mean(tf.square(model(init_points) - init_values))
        loss = pde + ic
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    print(f"step {step} pde {float(pde):.5f} ic {float(ic):.5f}")
print("u(0.5, 0.5)", round(float(model(np.array([[0.5, 0.5]], "float32"))[0, 0]), 5))
