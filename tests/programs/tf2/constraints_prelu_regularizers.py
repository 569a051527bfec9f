"""Weight constraints applied after each optimizer step (NonNeg, MaxNorm, UnitNorm), PReLU
with shared axes, activity and kernel regularizers, GaussianNoise and SpatialDropout1D
(inactive at inference), trained with Model.fit."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(13)
x = rng.normal(size=(20, 6, 2)).astype("float32")
y = x.sum(axis=(1, 2), keepdims=False).reshape(-1, 1).astype("float32")

model = keras.Sequential(
    [
        keras.Input((6, 2)),
        keras.layers.GaussianNoise(0.1, seed=1),
        keras.layers.Conv1D(
            3,
            2,
            kernel_constraint=keras.constraints.NonNeg(),
            activity_regularizer=keras.regularizers.L1(0.01),
        ),
        keras.layers.PReLU(shared_axes=[1]),
        keras.layers.SpatialDropout1D(0.2, seed=2),
        keras.layers.Flatten(),
        keras.layers.Dense(
            4,
            kernel_constraint=keras.constraints.MaxNorm(0.5),
            kernel_regularizer=keras.regularizers.L2(0.01),
        ),
        keras.layers.Dense(1, kernel_constraint=keras.constraints.UnitNorm(axis=0)),
    ]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(keras.optimizers.SGD(0.05), "mse")
history = model.fit(x, y, batch_size=5, epochs=2, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.4f}" for v in history.history["loss"]))
conv, prelu, dense, last = model.layers[1], model.layers[2], model.layers[5], model.layers[6]
print(bool(np.all(conv.kernel.numpy() >= 0)), prelu.alpha.shape)
print(np.round(np.sqrt((dense.kernel.numpy() ** 2).sum(axis=0)), 4).tolist())
print(np.round(np.sqrt((last.kernel.numpy() ** 2).sum(axis=0)), 4).tolist())
print(np.round(model.predict(x[:2], verbose=0).ravel(), 4).tolist())
