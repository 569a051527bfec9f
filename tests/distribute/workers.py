"""The programs the distribute tests run as workers (``python -m retrograd.distribute -n 2
workers.py MODE OUT``) and, for the reference, in one process: each trains a small model on
global batches of 16 and returns its weights.

Run plainly (one replica) or as workers, the same file: worker ``r`` saves ``OUT.r.npz``.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import retrograd as tf

GLOBAL_BATCH = 16


def data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32") + 0.1).astype("float32")
    return x, y


def make_model():
    init = tf.keras.initializers.GlorotUniform(seed=3)
    return tf.keras.Sequential(
        [
            tf.keras.Input((4,)),
            tf.keras.layers.Dense(8, activation="tanh", kernel_initializer=init),
            tf.keras.layers.Dense(1, kernel_initializer=init),
        ]
    )


@tf.custom_gradient
def reverse_gradient(x):
    return tf.identity(x), lambda upstream: -0.5 * upstream


@tf.custom_gradient
def straight_through_sign(x):
    return tf.sign(x), lambda upstream: upstream * tf.cast(tf.abs(x) <= 1.0, upstream.dtype)


def custom_loop(strategy, epochs=2, custom=False, crash_at=None, checkpoint_dir=None):
    """TensorFlow's custom training loop: strategy.run on distributed batches."""
    x, y = data()
    with strategy.scope():
        model = make_model()
        optimizer = tf.keras.optimizers.Adam(0.05)
        loss_fn = tf.keras.losses.MeanSquaredError(reduction="none")
        step = tf.Variable(0, dtype="int64", trainable=False)
    manager = None
    if checkpoint_dir is not None:  # (each worker its own folder: TensorFlow's pattern)
        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)
        folder = os.path.join(checkpoint_dir, f"worker_{strategy.extended.worker_index}")
        manager = tf.train.CheckpointManager(checkpoint, folder, max_to_keep=2)
        if manager.latest_checkpoint:
            checkpoint.restore(manager.latest_checkpoint)

    def replica_step(inputs):
        features, target = inputs
        with tf.GradientTape() as tape:
            hidden = model(features, training=True)
            if custom:
                hidden = straight_through_sign(reverse_gradient(hidden)) + hidden
            per_example = loss_fn(target, hidden)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def train_step(inputs):
        losses = strategy.run(replica_step, args=(inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    batches = list(strategy.experimental_distribute_dataset(dataset))
    total = epochs * len(batches)
    while int(step.numpy()) < total:
        at_crash = crash_at is not None and int(step.numpy()) == crash_at
        if at_crash and strategy.extended.worker_index == 1:
            os._exit(3)  # a worker that dies
        train_step(batches[int(step.numpy()) % len(batches)])
        step.assign_add(1)
        if manager is not None and int(step.numpy()) % len(batches) == 0:
            manager.save()
    return [w.numpy() for w in model.weights]


def keras_fit(strategy, epochs=2):
    x, y = data()
    with strategy.scope():
        model = make_model()
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.5), loss="mse")
    history = model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=epochs, shuffle=False, verbose=0)
    return [w.numpy() for w in model.weights] + [np.array(history.history["loss"])]


def main(mode: str, out: str) -> None:
    strategy = tf.distribute.MirroredStrategy()
    if mode == "loop":
        weights = custom_loop(strategy)
    elif mode == "custom":
        weights = custom_loop(strategy, custom=True)
    elif mode == "fit":
        weights = keras_fit(strategy)
    elif mode == "die":
        weights = custom_loop(strategy, epochs=50, crash_at=3)
    elif mode in ("crash", "resume"):
        crash_at = 6 if mode == "crash" else None
        weights = custom_loop(strategy, epochs=3, crash_at=crash_at, checkpoint_dir=out + ".ckpt")
    else:
        raise SystemExit(f"unknown mode {mode}")
    np.savez(f"{out}.{strategy.extended.worker_index}.npz", *weights)


if __name__ == "__main__":
    main(*sys.argv[1:3])
