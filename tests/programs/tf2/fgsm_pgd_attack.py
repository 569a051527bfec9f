"""Adversarial examples against a small fixed classifier: one FGSM step and a 5-step PGD
attack projected onto an L-infinity ball, both from input gradients taken with GradientTape."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)
x = rng.normal(size=(6, 4)).astype("float32")
y = np.array([0, 1, 2, 1, 0, 2])

model = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(3)]
)
model.set_weights([rng.normal(scale=0.7, size=w.shape).astype("float32") for w in model.weights])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def input_gradient(images):
    images = tf.convert_to_tensor(images)
    with tf.GradientTape() as tape:
        tape.watch(images)
        loss = loss_fn(y, model(images))
    return loss, tape.gradient(loss, images)


def accuracy(images):
    return float(np.mean(np.argmax(model(images).numpy(), axis=1) == y))


clean_loss, g = input_gradient(x)
x_fgsm = x + 0.3 * tf.sign(g)
print("clean loss", round(float(clean_loss), 5), "acc", accuracy(x))
print("fgsm loss", round(float(loss_fn(y, model(x_fgsm))), 5), "acc", accuracy(x_fgsm))

eps, step = 0.3, 0.1
x_adv = tf.identity(x)
for i in range(5):
    loss, g = input_gradient(x_adv)
    x_adv = x_adv + step * tf.sign(g)
    x_adv = tf.clip_by_value(x_adv, x - eps, x + eps)
    print("pgd", i, round(float(loss), 5))
print("pgd loss", round(float(loss_fn(y, model(x_adv))), 5), "acc", accuracy(x_adv))
print("max perturbation", round(float(tf.reduce_max(tf.abs(x_adv - x))), 5))
