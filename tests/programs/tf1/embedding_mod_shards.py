"""A word-embedding classifier whose embedding table is split in shards the TF1 way
(embedding_lookup's default "mod" partition: id i lives in shard i % 3), averaged over each
sentence and trained with Adagrad; the shards' rows that changed show which words were seen."""

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(23)
vocab, dim = 11, 3
sentences = np.array(
    [[1, 4, 7, 0], [2, 5, 8, 0], [1, 1, 4, 9], [3, 6, 9, 10], [2, 8, 8, 5]], np.int32
)
labels = np.array([0, 1, 0, 1, 1], np.int32)
rows = [len(range(s, vocab, 3)) for s in range(3)]
shards = [
    tf.get_variable(f"shard_{s}", initializer=rng.uniform(-0.5, 0.5, (n, dim)).astype(np.float32))
    for s, n in enumerate(rows)
]
ids = tf.placeholder(tf.int32, [None, 4])
y = tf.placeholder(tf.int32, [None])
vectors = tf.nn.embedding_lookup(shards, ids)
sentence = tf.reduce_mean(vectors, axis=1)
w = tf.get_variable("w", initializer=rng.uniform(-0.5, 0.5, (dim, 2)).astype(np.float32))
logits = tf.matmul(sentence, w)
loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
train = tf.train.AdagradOptimizer(0.3).minimize(loss)

print("lookup shape", vectors.get_shape().as_list(), "shard rows", rows)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    before = sess.run(shards)
    for _ in range(8):
        sess.run(train, {ids: sentences[:4], y: labels[:4]})
    print("loss", sess.run(loss, {ids: sentences, y: labels}))
    after = sess.run(shards)
    for s in range(3):
        moved = np.abs(after[s] - before[s]).sum(axis=1) > 0
        print("shard", s, "words moved", [int(3 * r + s) for r in np.nonzero(moved)[0]])
    print("word 4 vector", sess.run(tf.nn.embedding_lookup(shards, 4)))
