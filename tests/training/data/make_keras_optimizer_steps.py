"""Regenerates keras_optimizer_steps.json with TensorFlow (not a dependency; run by hand)."""

import json

import tensorflow as tf

configs = {
    "SGD()": lambda: tf.keras.optimizers.SGD(),
    "SGD(learning_rate=0.1, momentum=0.9)": lambda: tf.keras.optimizers.SGD(
        learning_rate=0.1, momentum=0.9
    ),
    "SGD(learning_rate=0.1, momentum=0.9, nesterov=True)": lambda: tf.keras.optimizers.SGD(
        learning_rate=0.1, momentum=0.9, nesterov=True
    ),
    "Adam()": lambda: tf.keras.optimizers.Adam(),
    "Adam(learning_rate=0.1, amsgrad=True)": lambda: tf.keras.optimizers.Adam(
        learning_rate=0.1, amsgrad=True
    ),
    "RMSprop()": lambda: tf.keras.optimizers.RMSprop(),
    "RMSprop(learning_rate=0.01, momentum=0.5, centered=True)": lambda: tf.keras.optimizers.RMSprop(
        learning_rate=0.01, momentum=0.5, centered=True
    ),
    "Adagrad()": lambda: tf.keras.optimizers.Adagrad(),
    "Adagrad(learning_rate=0.1, initial_accumulator_value=0.5)": lambda: (
        tf.keras.optimizers.Adagrad(learning_rate=0.1, initial_accumulator_value=0.5)
    ),
}
out = {}  # variable [1, -2, 0.5]; gradient at step t: [0.1t - 0.3, 0.2, -0.5 + 0.05t^2]
for name, make in configs.items():
    opt = make()
    v = tf.Variable([1.0, -2.0, 0.5])
    vals = []
    for t in range(1, 7):
        g = tf.constant([0.1 * t - 0.3, 0.2, -0.5 + 0.05 * t * t])
        opt.apply_gradients([(g, v)])
        vals.append(v.numpy().tolist())
    out[name] = vals
print(json.dumps({"_source": f"TensorFlow {tf.__version__}", "steps": out}, indent=1))
