"""A mixture density network (Bishop 1994) for a one-to-many mapping: a Keras model outputs
mixture logits, means and log standard deviations, and a custom loss (a function given to
compile) computes the mixture negative log-likelihood with tf.reduce_logsumexp; trained with
fit, then the most probable component's mean is read at a few inputs."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(27)
K = 3
y_in = rs.uniform(-1.0, 1.0, size=(120, 1)).astype("float32")
x_in = (y_in + 0.3 * np.sin(3.0 * y_in) + 0.05 * rs.normal(size=y_in.shape)).astype("float32")


def mdn_loss(y_true, params):
    logits, mu, log_sigma = tf.split(params, 3, axis=-1)
    log_sigma = tf.clip_by_value(log_sigma, -5.0, 3.0)
    z = (y_true - mu) / tf.exp(log_sigma)
    log_normal = -0.5 * tf.square(z) - log_sigma - 0.5 * np.log(2.0 * np.pi)
    log_mix = tf.nn.log_softmax(logits, axis=-1)
    return -tf.reduce_logsumexp(log_mix + log_normal, axis=-1)


inputs = tf.keras.Input((1,))
hidden = tf.keras.layers.Dense(16, activation="tanh")(inputs)
params = tf.keras.layers.Concatenate()(
    [
        tf.keras.layers.Dense(K, name="logits")(hidden),
        tf.keras.layers.Dense(K, name="means")(hidden),
        tf.keras.layers.Dense(K, name="log_sigmas")(hidden),
    ]
)
model = tf.keras.Model(inputs, params)
model.set_weights([rs.normal(scale=0.5, size=w.shape).astype("float32") for w in model.weights])
model.compile(tf.keras.optimizers.Adam(0.01), loss=mdn_loss)
history = model.fit(x_in, y_in, batch_size=30, epochs=6, shuffle=False, verbose=0)
print("nll", " ".join(f"{v:.5f}" for v in history.history["loss"]))
print("evaluate", round(model.evaluate(x_in, y_in, batch_size=60, verbose=0), 5))

probe = np.array([[-0.8], [0.0], [0.8]], "float32")
logits, mu, log_sigma = np.split(model.predict(probe, verbose=0), 3, axis=-1)
weights = tf.nn.softmax(logits).numpy()
best = weights.argmax(-1)
print("mixture weights", np.round(weights, 4))
print("best means", np.round(mu[np.arange(3), best], 4))
print("sigmas", np.round(np.exp(log_sigma), 4))
