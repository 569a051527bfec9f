"""A Keras 3 optimizer written the new way (build with add_variable_from_reference,
update_step(gradient, variable, learning_rate)), with weight decay and clipnorm, used by
Model.fit and then by apply_gradients directly."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class SignMomentum(keras.optimizers.Optimizer):
    def __init__(self, learning_rate=0.01, beta=0.9, **kwargs):
        super().__init__(learning_rate=learning_rate, name="sign_momentum", **kwargs)
        self.beta = beta

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]

    def update_step(self, gradient, variable, learning_rate):
        m = self.momentums[self._get_variable_index(variable)]
        m.assign(self.beta * m + (1.0 - self.beta) * gradient)
        variable.assign_sub(learning_rate * tf.sign(m))

    def get_config(self):
        return {**super().get_config(), "beta": self.beta}


rng = np.random.default_rng(4)
x = rng.normal(size=(32, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
model = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
optimizer = SignMomentum(0.05, weight_decay=0.01, clipnorm=1.0)
model.compile(optimizer, "mse")
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print(int(optimizer.iterations.numpy()), [m.path for m in optimizer.momentums])
w = tf.Variable([1.0, -1.0])
opt = SignMomentum(0.1)
for _ in range(3):
    opt.apply_gradients([(tf.constant([0.5, 2.0]), w)])
print(np.round(w.numpy(), 5).tolist())
