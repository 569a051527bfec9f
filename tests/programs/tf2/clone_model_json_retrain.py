"""clone_model of a functional model (fresh layers, weights copied back), a clone with a
clone_function that adds dropout to Dense layers, model_from_json round trip, and both
trained identically."""

import numpy as np
from tensorflow import keras

rng = np.random.default_rng(12)
inputs = keras.Input((3,), name="features")
h = keras.layers.Dense(5, activation="relu", name="hidden")(inputs)
outputs = keras.layers.Dense(2, name="out")(h)
model = keras.Model(inputs, outputs, name="base")
weights = [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
model.set_weights(weights)

copy = keras.models.clone_model(model)
print(copy.name, [layer.name for layer in copy.layers], copy.layers[1] is model.layers[1])
copy.set_weights(model.get_weights())


def with_l2(layer):
    config = layer.get_config()
    if isinstance(layer, keras.layers.Dense):
        config["kernel_regularizer"] = keras.regularizers.L2(0.01)
    return layer.__class__.from_config(config)


regularized = keras.models.clone_model(model, clone_function=with_l2)
regularized.set_weights(weights)
rebuilt = keras.models.model_from_json(model.to_json())
rebuilt.set_weights(weights)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")
for m in (model, copy, regularized, rebuilt):
    m.compile(keras.optimizers.SGD(0.1), "mse")
    history = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    print(m.name, " ".join(f"{v:.5f}" for v in history.history["loss"]))
