"""A learning-rate schedule with SGD momentum, and callbacks: LambdaCallback recording the
learning rate, EarlyStopping on the validation loss, and History."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(10)
x = rng.normal(size=(24, 2)).astype("float32")
y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:]).astype("float32")

model = tf.keras.Sequential(
    [tf.keras.Input((2,)), tf.keras.layers.Dense(6, activation="tanh"), tf.keras.layers.Dense(1)]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.2, decay_steps=3, decay_rate=0.5)
optimizer = tf.keras.optimizers.SGD(learning_rate=schedule, momentum=0.5)
model.compile(optimizer=optimizer, loss=tf.keras.losses.Huber(delta=0.5))

seen = []
record = tf.keras.callbacks.LambdaCallback(
    on_epoch_end=lambda epoch, logs: seen.append((epoch, logs["loss"]))
)
stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, min_delta=0.05)
history = model.fit(
    x,
    y,
    batch_size=6,
    epochs=12,
    validation_split=0.25,
    shuffle=False,
    verbose=0,
    callbacks=[record, stop],
)
print("epochs run", len(history.history["loss"]), history.epoch)
for epoch, loss in seen:
    print(epoch, f"{loss:.6f}")
print("val", " ".join(f"{v:.6f}" for v in history.history["val_loss"]))
print(
    "iterations",
    int(optimizer.iterations.numpy()),
    f"{float(schedule(int(optimizer.iterations.numpy()))):.6f}",
)
