"""Training with the fault-tolerance and model-selection callbacks: BackupAndRestore resumes
a run interrupted by an exception in a callback (the second fit starts from the backed-up
epoch), ModelCheckpoint keeps only the best weights by validation loss, and EarlyStopping
with patience and restore_best_weights stops a run whose validation loss rises."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(21)
x = rs.normal(size=(40, 3)).astype("float32")
y = (x @ np.array([[1.5], [-2.0], [0.5]], "float32") + 0.1 * rs.normal(size=(40, 1))).astype(
    "float32"
)
x_val, y_val = x[:10] + 0.5, y[:10] - 1.0
initial = [rs.normal(scale=0.4, size=s).astype("float32") for s in [(3, 6), (6,), (6, 1), (1,)]]


def make_model(lr):
    model = tf.keras.Sequential(
        [
            tf.keras.Input((3,)),
            tf.keras.layers.Dense(6, activation="tanh"),
            tf.keras.layers.Dense(1),
        ]
    )
    model.set_weights(initial)
    model.compile(tf.keras.optimizers.SGD(lr), loss="mse")
    return model


class Interrupt(tf.keras.callbacks.Callback):
    def __init__(self, at_epoch):
        super().__init__()
        self.at_epoch = at_epoch

    def on_epoch_end(self, epoch, logs=None):
        print(f"  epoch {epoch} loss {logs['loss']:.5f}")
        if epoch == self.at_epoch:
            raise RuntimeError(f"interrupted after epoch {epoch}")


folder = tempfile.mkdtemp()
backup = tf.keras.callbacks.BackupAndRestore(os.path.join(folder, "backup"))
model = make_model(0.05)
try:
    model.fit(
        x, y, epochs=6, batch_size=10, shuffle=False, verbose=0, callbacks=[backup, Interrupt(2)]
    )
except RuntimeError as error:
    print("first run:", error)
model = make_model(0.05)
history = model.fit(
    x, y, epochs=6, batch_size=10, shuffle=False, verbose=0, callbacks=[backup, Interrupt(99)]
)
print(
    "resumed epochs", len(history.history["loss"]), "final", round(history.history["loss"][-1], 5)
)

best_path = os.path.join(folder, "best.weights.h5")
checkpoint = tf.keras.callbacks.ModelCheckpoint(
    best_path, monitor="val_loss", save_best_only=True, save_weights_only=True
)
stopper = tf.keras.callbacks.EarlyStopping(
    monitor="val_loss", patience=2, restore_best_weights=True, min_delta=1e-4
)
model = make_model(0.3)
history = model.fit(
    x,
    y,
    epochs=30,
    batch_size=10,
    shuffle=False,
    verbose=0,
    validation_data=(x_val, y_val),
    callbacks=[checkpoint, stopper],
)
val = history.history["val_loss"]
print("val_loss", " ".join(f"{v:.5f}" for v in val))
print("stopped at epoch", stopper.stopped_epoch, "best epoch", int(np.argmin(val)))
print("restored val loss", round(model.evaluate(x_val, y_val, verbose=0), 5))
reloaded = make_model(0.3)
reloaded.load_weights(best_path)
print("checkpoint val loss", round(reloaded.evaluate(x_val, y_val, verbose=0), 5))
