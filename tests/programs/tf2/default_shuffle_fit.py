"""fit with its defaults (shuffle=True) after keras.utils.set_random_seed: a regression MLP
with validation_split and a callback that logs each epoch, then a classifier with
class_weight and shuffle="batch". Keras shuffles the samples of every epoch with
tf.random.shuffle, so the losses depend on TensorFlow's permutation."""

import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(42)

rng = np.random.default_rng(3)
x = rng.normal(size=(200, 4)).astype("float32")
true_w = np.array([[0.5], [-1.0], [2.0], [0.0]], dtype="float32")
y = np.tanh(x @ true_w) + 0.05 * rng.normal(size=(200, 1)).astype("float32")


class EpochLog(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print(f"epoch {epoch}: loss={logs['loss']:.6f} val_loss={logs['val_loss']:.6f}")


model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(8, activation="tanh"),
        keras.layers.Dense(1),
    ]
)
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
history = model.fit(x, y, epochs=5, validation_split=0.2, verbose=0, callbacks=[EpochLog()])
for key, values in sorted(history.history.items()):
    print(key, " ".join(f"{v:.6f}" for v in values))
print("evaluate", " ".join(f"{v:.6f}" for v in model.evaluate(x, y, verbose=0)))
print("prediction", np.round(model.predict(x[:3], verbose=0).ravel(), 5).tolist())

labels = (x[:, 0] * x[:, 1] > 0).astype("int32")
classifier = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(12, activation="relu"), keras.layers.Dense(2)]
)
classifier.compile(
    optimizer=keras.optimizers.SGD(0.1, momentum=0.9),
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
for shuffle in (True, "batch"):
    history = classifier.fit(
        x, labels, batch_size=16, epochs=3, verbose=0, shuffle=shuffle,
        class_weight={0: 1.0, 1: 1.5},
    )  # fmt: skip
    for key, values in sorted(history.history.items()):
        print(shuffle, key, " ".join(f"{v:.6f}" for v in values))
