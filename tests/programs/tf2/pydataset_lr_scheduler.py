"""Training from a keras.utils.PyDataset (batches by index, shuffled per epoch by fit) with
a LearningRateScheduler; then predict and evaluate on it."""

import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)


class Lines(keras.utils.PyDataset):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.x = np.linspace(-1, 1, 12, dtype="float32").reshape(12, 1)

    def __len__(self):
        return 3

    def __getitem__(self, index):
        x = self.x[index * 4 : (index + 1) * 4]
        return x, 2 * x + 1


model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
model.compile("sgd", "mse")
schedule = keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (1 + epoch))
history = model.fit(Lines(), epochs=3, verbose=0, callbacks=[schedule])
print([f"{v:.5f}" for v in history.history["loss"]], history.history["learning_rate"])
print(np.round(model.predict(Lines(), verbose=0)[:3], 5).ravel().tolist())
print(f"{model.evaluate(Lines(), verbose=0):.5f}")
padded = keras.utils.pad_sequences([[1, 2, 3], [4, 5], [6]], maxlen=4, padding="post")
print(padded.tolist(), keras.utils.to_categorical([0, 2], 3).tolist())
