"""A hypernetwork: a small network maps a task embedding to the full weight vector of a
target MLP, which is then applied with tf.matmul on the generated (reshaped) weights; only
the hypernetwork and the task embeddings are trainable, and gradients reach them through
the generated weights. Trained on a family of sine tasks in a tf.function step."""

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(12)
TASKS, HIDDEN = 3, 8
phases = np.array([0.0, 1.0, 2.0], "float32")
xs = np.linspace(-3, 3, 24, dtype="float32")[:, None]
ys = np.stack([np.sin(xs + p) for p in phases])
shapes = [(1, HIDDEN), (HIDDEN,), (HIDDEN, 1), (1,)]
sizes = [int(np.prod(s)) for s in shapes]

embeddings = tf.Variable(rs.normal(scale=0.5, size=(TASKS, 4)).astype("float32"), name="task")
hyper = tf.keras.Sequential(
    [
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dense(sum(sizes)),
    ]
)
hyper.set_weights([rs.normal(scale=0.3, size=w.shape).astype("float32") for w in hyper.weights])
variables = hyper.trainable_variables + [embeddings]
optimizer = tf.keras.optimizers.Adam(0.01)


def target_net(flat, x):
    parts = tf.split(flat, sizes)
    w1, b1, w2, b2 = [tf.reshape(p, s) for p, s in zip(parts, shapes)]
    return tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2) + b2


def task_loss(t):
    flat = hyper(embeddings[t : t + 1])[0]
    return tf.reduce_mean(tf.square(target_net(flat, xs) - ys[t]))


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss = tf.add_n([task_loss(t) for t in range(TASKS)]) / TASKS
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return loss, tf.linalg.global_norm(grads)


for step in range(60):
    loss, norm = train_step()
    if step % 12 == 0 or step == 59:
        print(f"step {step} loss {float(loss):.5f} grad norm {float(norm):.5f}")
print("per task", [round(float(task_loss(t)), 5) for t in range(TASKS)])
with tf.GradientTape() as tape:
    flat = hyper(embeddings[:1])[0]
    out = tf.reduce_sum(target_net(flat, xs))
g_flat, g_emb = tape.gradient(out, [flat, embeddings])
print("generated weights", flat.shape, "grad wrt weights norm", round(float(tf.norm(g_flat)), 5))
print("embedding grad rows", np.round(tf.norm(g_emb, axis=1).numpy(), 5))
