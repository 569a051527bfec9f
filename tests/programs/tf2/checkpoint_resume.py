"""A training run checkpointed with tf.train.CheckpointManager and resumed mid-way in fresh
objects: the resumed run ends where the uninterrupted one does."""

import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(4)
x = tf.constant(rng.normal(size=(12, 3)).astype("float32"))
y = tf.constant(rng.normal(size=(12, 1)).astype("float32"))
initial = [rng.normal(scale=0.5, size=s).astype("float32") for s in [(3, 5), (5,), (5, 1), (1,)]]


def make():
    model = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(5, activation="relu"),
            tf.keras.layers.Dense(1),
        ]
    )
    model.set_weights(initial)
    return model, tf.keras.optimizers.Adam(0.02)


def train(model, optimizer, steps):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss)


model, optimizer = make()
print("uninterrupted", f"{train(model, optimizer, 8):.6f}")
reference = [w.copy() for w in model.get_weights()]

folder = tempfile.mkdtemp()
model, optimizer = make()
checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, folder, max_to_keep=2)
print("first half", f"{train(model, optimizer, 4):.6f}")
manager.save()
train(model, optimizer, 2)  # work after the checkpoint is lost

model, optimizer = make()
model.set_weights([np.zeros_like(w) for w in initial])
status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(
    tf.train.latest_checkpoint(folder)
)
print("resumed", f"{train(model, optimizer, 4):.6f}")
status.assert_existing_objects_matched()
print("iterations", int(optimizer.iterations.numpy()))
print(
    "same",
    all(np.allclose(a, b, rtol=0, atol=1e-6) for a, b in zip(reference, model.get_weights())),
)
print(np.round(model.get_weights()[2].ravel(), 6).tolist())
