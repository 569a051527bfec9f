"""Binary focal loss written as a keras.losses.Loss subclass with get_config, used by fit,
rebuilt from its config, and compared with the built-in binary focal crossentropy."""

import numpy as np
import tensorflow as tf


class FocalLoss(tf.keras.losses.Loss):
    def __init__(self, gamma=2.0, alpha=0.25, name="focal_loss", **kwargs):
        super().__init__(name=name, **kwargs)
        self.gamma = gamma
        self.alpha = alpha

    def call(self, y_true, y_pred):
        y_pred = tf.clip_by_value(y_pred, 1e-6, 1.0 - 1e-6)
        p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
        alpha_t = y_true * self.alpha + (1.0 - y_true) * (1.0 - self.alpha)
        loss = -alpha_t * tf.pow(1.0 - p_t, self.gamma) * tf.math.log(p_t)
        return tf.reduce_mean(loss, axis=-1)

    def get_config(self):
        return {**super().get_config(), "gamma": self.gamma, "alpha": self.alpha}


rng = np.random.default_rng(5)
x = rng.normal(size=(40, 4)).astype("float32")
y = (x[:, :1] + 0.5 * x[:, 1:2] > 0.8).astype("float32")

loss = FocalLoss(gamma=1.5)
clone = FocalLoss.from_config(loss.get_config())
print("config", clone.gamma, clone.alpha, clone.name)

model = tf.keras.Sequential(
    [
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(5, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ]
)
model.set_weights(
    [rng.normal(scale=0.5, size=w.shape).astype("float32") for w in model.get_weights()]
)
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss=clone)
history = model.fit(x, y, batch_size=10, epochs=4, shuffle=False, verbose=0)
print("loss", " ".join(f"{v:.6f}" for v in history.history["loss"]))
p = model.predict(x[:4], verbose=0)
print("focal", f"{float(loss(y[:4], p)):.6f}")
builtin = tf.keras.losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.25, gamma=1.5)
print("builtin", f"{float(builtin(y[:4], p)):.6f}")
