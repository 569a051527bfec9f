"""BatchNormalization in a model trained with fit: batch statistics while training, moving
averages (updated by fit) at inference."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(9)
x = (rng.normal(size=(32, 3)) * [1.0, 5.0, 0.2] + [0.0, 3.0, -1.0]).astype("float32")
y = (x[:, :1] + 0.1 * x[:, 1:2] > 0.3).astype("float32")

model = tf.keras.Sequential(
    [
        tf.keras.Input((3,)),
        tf.keras.layers.BatchNormalization(momentum=0.8),
        tf.keras.layers.Dense(4, activation="relu"),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ]
)
weights = model.get_weights()
new = []
for w in weights:
    new.append(rng.normal(scale=0.5, size=w.shape).astype("float32") if w.ndim == 2 else w)
model.set_weights(new)
print(
    [len(layer.trainable_weights) for layer in model.layers],
    [len(layer.non_trainable_weights) for layer in model.layers],
)
model.compile(
    optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy", metrics=["accuracy"]
)
history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
print(" ".join(f"{v:.6f}" for v in history.history["loss"]))
bn = model.layers[0]
print("moving_mean", np.round(bn.moving_mean.numpy(), 5).tolist())
print("moving_variance", np.round(bn.moving_variance.numpy(), 4).tolist())
print("inference", np.round(model(x[:4], training=False).numpy().ravel(), 5).tolist())
print("training", np.round(model(x[:4], training=True).numpy().ravel(), 5).tolist())
