"""Second-order MAML on sine-wave regression tasks: an inner SGD step on each task's support
set inside an outer tape, the meta-gradient flowing through the inner gradient (nested
GradientTapes), meta-trained with Adam on plain tf.Variables."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(11)


def make_task():
    amp, phase = rng.uniform(0.5, 2.0), rng.uniform(0, np.pi)
    xs = rng.uniform(-3, 3, size=(10, 1)).astype("float32")
    return xs[:5], amp * np.sin(xs[:5] + phase), xs[5:], amp * np.sin(xs[5:] + phase)


params = [
    tf.Variable(rng.normal(scale=0.5, size=(1, 16)).astype("float32"), name="w1"),
    tf.Variable(np.zeros(16, "float32"), name="b1"),
    tf.Variable(rng.normal(scale=0.3, size=(16, 1)).astype("float32"), name="w2"),
    tf.Variable(np.zeros(1, "float32"), name="b2"),
]


def forward(x, p):
    return tf.matmul(tf.nn.relu(tf.matmul(x, p[0]) + p[1]), p[2]) + p[3]


def mse(a, b):
    return tf.reduce_mean(tf.square(a - tf.cast(b, tf.float32)))


inner_lr = 0.05
meta_opt = tf.keras.optimizers.Adam(0.01)
tasks = [make_task() for _ in range(12)]
for it in range(6):
    batch = tasks[2 * it : 2 * it + 2]
    with tf.GradientTape() as outer:
        meta_loss = 0.0
        for xs, ys, xq, yq in batch:
            with tf.GradientTape() as inner:
                support_loss = mse(forward(xs, params), ys)
            grads = inner.gradient(support_loss, params)
            fast = [p - inner_lr * g for p, g in zip(params, grads)]
            meta_loss += mse(forward(xq, fast), yq)
        meta_loss /= len(batch)
    meta_grads = outer.gradient(meta_loss, params)
    meta_opt.apply_gradients(zip(meta_grads, params))
    norm = tf.linalg.global_norm(meta_grads)
    print(f"iter {it} meta loss {float(meta_loss):.5f} grad norm {float(norm):.5f}")
print("b2", np.round(params[3].numpy(), 5))
