"""A TensorFlow 2 program whose `tf.function`s rely on AutoGraph, captured variables,
input signatures and retracing; `make_autograph_golden.py` records what TensorFlow prints."""

import numpy as np
import tensorflow as tf


@tf.function
def collatz_steps(n):
    steps = tf.constant(0)
    while tf.not_equal(n, 1):
        if tf.equal(n % 2, 0):  # noqa: SIM108 (a statement, for AutoGraph)
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def clipped_sum(v):
    s = tf.constant(0.0)
    for x in v:
        if x > 2.0:
            continue
        if x < -5.0:
            break
        s += x
    return s


w = tf.Variable([0.5, -0.25])


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.reduce_sum(w * x)
        loss = (pred - y) ** 2 if pred > y else 0.5 * (pred - y) ** 2
    g = tape.gradient(loss, w)
    w.assign_sub(0.1 * g)
    return loss


@tf.function
def first_positive(v):
    found = tf.constant(-1)
    for i in tf.range(tf.shape(v)[0]):
        if tf.gather(v, i) > 0:
            found = i
            break
    return found


@tf.function(reduce_retracing=True)
def norm(x):
    if tf.reduce_sum(x) > 0 and tf.reduce_max(x) < 10.0:
        return tf.sqrt(tf.reduce_sum(x * x))
    return tf.constant(0.0)


print("collatz", [int(collatz_steps(tf.constant(n)).numpy()) for n in (1, 6, 7, 27)])
print("collatz traces", collatz_steps.experimental_get_tracing_count())
print(
    "clipped",
    [
        float(clipped_sum(tf.constant(v)).numpy())
        for v in ([1.0, 3.0, 0.5], [1.0, -6.0, 1.0], [-1.0, -2.0, 0.25, 1.5])
    ],
)
print("clipped traces", clipped_sum.experimental_get_tracing_count())
data = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], np.float32)
targets = np.array([1.0, -0.5, 0.25], np.float32)
losses = []
for _epoch in range(3):
    for x, y in zip(data, targets):
        losses.append(round(float(train_step(tf.constant(x), tf.constant(y)).numpy()), 5))
print("losses", losses)
print("w", np.round(w.numpy(), 5).tolist())
print("train traces", train_step.experimental_get_tracing_count())
print(
    "first positive",
    [int(first_positive(tf.constant(v)).numpy()) for v in ([-1.0, -2.0, 3.0], [-1.0], [4.0, 5.0])],
)
print(
    "norm",
    [
        round(float(norm(tf.constant(v)).numpy()), 5)
        for v in ([3.0, 4.0], [1.0, 2.0, 2.0], [-5.0, 1.0], [20.0, 1.0, 1.0, 1.0])
    ],
)
print("norm traces", norm.experimental_get_tracing_count())
