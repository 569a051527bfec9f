"""Saliency maps and integrated gradients of a Sequential classifier."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)
model = tf.keras.Sequential(
    [
        tf.keras.Input((5,)),
        tf.keras.layers.Dense(8, activation="tanh"),
        tf.keras.layers.Dense(3),
        tf.keras.layers.Activation("softmax"),
    ]
)
model.set_weights(
    [rng.normal(scale=0.6, size=w.shape).astype("float32") for w in model.get_weights()]
)

x = tf.constant(rng.normal(size=(2, 5)).astype("float32"))
target = 1

with tf.GradientTape() as tape:
    tape.watch(x)
    probabilities = model(x)
    score = probabilities[:, target]
saliency = tf.abs(tape.gradient(score, x))
print("probabilities", np.round(probabilities.numpy(), 6).tolist())
print("saliency", np.round(saliency.numpy(), 6).tolist())


def integrated_gradients(sample, baseline, steps=32):
    alphas = tf.reshape(tf.linspace(0.0, 1.0, steps + 1), [-1, 1])
    path = baseline + alphas * (sample - baseline)
    with tf.GradientTape() as tape:
        tape.watch(path)
        scores = model(path)[:, target]
    grads = tape.gradient(scores, path)
    average = tf.reduce_mean((grads[:-1] + grads[1:]) / 2.0, axis=0)
    return (sample - baseline) * average


baseline = tf.zeros(5)
for i in range(2):
    attribution = integrated_gradients(x[i], baseline)
    completeness = float(tf.reduce_sum(attribution))
    change = float(model(x[i : i + 1])[0, target] - model(baseline[None])[0, target])
    print(
        "ig", i, np.round(attribution.numpy(), 5).tolist(), f"{completeness:.5f}", f"{change:.5f}"
    )
