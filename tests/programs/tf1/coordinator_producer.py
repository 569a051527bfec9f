"""A TF1 training loop fed by a producer thread under a tf.train.Coordinator: a LooperThread
puts batches on a queue, the main loop trains until the producer requests the stop, and a
failing thread's exception is re-raised by join (caught and reported)."""

import queue
import threading

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(41)
batches = [(rng.randn(8, 2).astype(np.float32)) for _ in range(6)]
x = tf.placeholder(tf.float32, [None, 2])
w = tf.get_variable("w", initializer=np.array([[0.5], [-0.5]], np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - tf.reduce_sum(x, 1, keepdims=True)))
train = tf.train.GradientDescentOptimizer(0.2).minimize(loss)

coord = tf.train.Coordinator()
pending = queue.Queue()
produced = []


def produce():
    if len(produced) == len(batches):
        pending.put(None)
        coord.request_stop()
        return
    produced.append(len(produced))
    pending.put(batches[len(produced) - 1])


producer = tf.train.LooperThread.loop(coord, None, produce)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    step = 0
    while True:
        batch = pending.get()
        if batch is None:
            break
        _, value = sess.run([train, loss], {x: batch})
        print("step", step, "loss", value)
        step += 1
    coord.join([producer])
    print("stopped", coord.should_stop(), "joined", coord.joined, "w", sess.run(w).ravel())

coord = tf.train.Coordinator()


def failing():
    with coord.stop_on_exception():
        raise RuntimeError("reader lost its file")


thread = threading.Thread(target=failing)
thread.start()
try:
    coord.join([thread])
except RuntimeError as error:
    print("join raised", error)
