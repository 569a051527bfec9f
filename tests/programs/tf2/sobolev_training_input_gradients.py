"""Sobolev training (Czarnecki et al. 2017): a network is fitted to a function's values and
to its derivatives at the same points; the derivative of the network w.r.t. its input comes
from an inner GradientTape and enters the loss, so the outer tape differentiates a gradient
(double backprop). Compared with value-only training on held-out derivative error."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(23)
x_train = np.linspace(-2.0, 2.0, 12, dtype="float32")[:, None]
x_test = np.linspace(-1.9, 1.9, 9, dtype="float32")[:, None]


def target(x):
    return np.sin(2.0 * x) + 0.3 * x**2


def target_slope(x):
    return 2.0 * np.cos(2.0 * x) + 0.6 * x


initial = [
    rs.normal(scale=s, size=shape).astype("float32")
    for s, shape in [(1.0, (1, 24)), (0.1, (24,)), (0.3, (24, 1)), (0.1, (1,))]
]


def make_model():
    model = tf.keras.Sequential(
        [
            tf.keras.Input((1,)),
            tf.keras.layers.Dense(24, activation="tanh"),
            tf.keras.layers.Dense(1),
        ]
    )
    model.set_weights(initial)
    return model


def value_and_slope(model, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    return y, tape.gradient(y, x)


def train(model, use_slopes, steps=150):
    opt = tf.keras.optimizers.Adam(0.02)
    for step in range(steps):
        with tf.GradientTape() as tape:
            y, dy = value_and_slope(model, x_train)
            loss = tf.reduce_mean(tf.square(y - target(x_train)))
            if use_slopes:
                loss += tf.reduce_mean(tf.square(dy - target_slope(x_train)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        if step % 50 == 0:
            print(f"  step {step} loss {float(loss):.5f}")
    return model


for use_slopes in (False, True):
    print("sobolev" if use_slopes else "values only")
    model = train(make_model(), use_slopes)
    y, dy = value_and_slope(model, x_test)
    value_err = float(tf.reduce_mean(tf.square(y - target(x_test))))
    slope_err = float(tf.reduce_mean(tf.square(dy - target_slope(x_test))))
    print(f"  test value error {value_err:.5f} slope error {slope_err:.5f}")
