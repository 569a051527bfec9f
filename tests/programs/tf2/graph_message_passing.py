"""A tiny graph neural network as a tf.Module: messages summed and max-pooled per node with
segment ops, trained with Adam inside tf.function; inputs checked with tf.debugging."""

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(14)
senders = tf.constant([0, 1, 2, 3, 4, 0, 2], dtype=tf.int32)
receivers = tf.constant([1, 2, 3, 4, 0, 2, 0], dtype=tf.int32)
features = tf.constant(rng.normal(size=(5, 3)).astype("float32"))
targets = tf.constant(rng.normal(size=(5, 1)).astype("float32"))
graph_ids = tf.constant([0, 0, 0, 1, 1], dtype=tf.int32)


class MessagePassing(tf.Module):
    def __init__(self):
        super().__init__()
        self.w_msg = tf.Variable(rng.normal(scale=0.5, size=(3, 4)).astype("float32"))
        self.w_out = tf.Variable(rng.normal(scale=0.5, size=(8, 1)).astype("float32"))

    def __call__(self, x):
        tf.debugging.assert_less(senders, 5)
        messages = tf.nn.relu(tf.matmul(tf.gather(x, senders), self.w_msg))
        summed = tf.math.unsorted_segment_sum(messages, receivers, 5)
        pooled = tf.math.unsorted_segment_max(messages, receivers, 5)
        return tf.matmul(tf.concat([summed, pooled], axis=1), self.w_out)


model = MessagePassing()
optimizer = tf.keras.optimizers.Adam(0.05)


def loss_fn():
    per_node = tf.square(model(features) - targets)
    per_graph = tf.math.segment_mean(per_node, graph_ids)
    return tf.reduce_mean(per_graph), per_graph


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss, _ = loss_fn()
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for step in range(5):
    print(step, f"{float(train_step()):.6f}")
loss, per_graph = loss_fn()
print("per graph", np.round(per_graph.numpy().ravel(), 6).tolist())
print("segment max", np.round(tf.math.segment_max(features[:, 0], graph_ids).numpy(), 6).tolist())
print(np.round(model.w_out.numpy().ravel(), 6).tolist())
