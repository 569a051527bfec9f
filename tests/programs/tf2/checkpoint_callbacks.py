"""ModelCheckpoint saving weights every 3 batches (counted across epochs, the path formatted
with epoch and batch) and the whole model every epoch, as Keras names and times them."""

import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential(
    [tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")]
)
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
folder = tempfile.mkdtemp()
every3 = tf.keras.callbacks.ModelCheckpoint(
    os.path.join(folder, "w-{epoch}-{batch}.weights.h5"), save_weights_only=True, save_freq=3
)
whole = tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "m-{epoch}.keras"))
model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0, callbacks=[every3, whole])
print(sorted(os.listdir(folder)))
copy = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
copy.load_weights(os.path.join(folder, "w-2-2.weights.h5"))
print(np.round(copy.get_weights()[0].ravel(), 6).tolist())
