"""Mixup with fixed NumPy mixing coefficients and label-smoothed categorical cross-entropy
in a custom training loop with a GradientTape."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(21)
x = rng.normal(size=(24, 4)).astype("float32")
labels = (x[:, 0] > 0).astype("int32") + (x[:, 1] > 0.5).astype("int32")
y = tf.one_hot(labels, 3)
lam = rng.beta(0.4, 0.4, size=(6, 1)).astype("float32")
perm = rng.permutation(24)

model = tf.keras.Sequential(
    [tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
loss_fn = tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)
optimizer = tf.keras.optimizers.Adam(0.02)

for epoch in range(3):
    losses = []
    for b in range(4):
        idx = slice(6 * b, 6 * b + 6)
        other = perm[6 * b : 6 * b + 6]
        xb = lam * x[idx] + (1.0 - lam) * x[other]
        yb = lam * tf.gather(y, np.arange(24)[idx]) + (1.0 - lam) * tf.gather(y, other)
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    print("epoch", epoch, " ".join(f"{v:.6f}" for v in losses))
acc = np.mean(np.argmax(model(x).numpy(), axis=1) == labels)
print("train accuracy", f"{acc:.4f}")
