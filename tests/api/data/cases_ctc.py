"""tf.nn's CTC loss (values and gradients), collapse_repeated and ctc_unique_labels as
TensorFlow gives them. Plain code: no TensorFlow import here."""

CASES = {
    "ctc_loss": """
rng = np.random.default_rng(0)
logits = tf.constant(rng.normal(size=(6, 3, 5)).astype(np.float32))
labels = tf.constant([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 4, 1]])
label_length, logit_length = tf.constant([3, 2, 4]), tf.constant([6, 4, 6])
with tf.GradientTape() as tape:
    tape.watch(logits)
    loss = tf.nn.ctc_loss(labels, logits, label_length, logit_length)
grad = tape.gradient(loss, logits)
batch_major = tf.nn.ctc_loss(labels, tf.transpose(logits, [1, 0, 2]), label_length, logit_length,
                             logits_time_major=False)
blank_last = tf.nn.ctc_loss(labels - 1 + tf.cast(labels == 0, tf.int32), logits, label_length,
                            logit_length, blank_index=-1)
unique = tf.nn.ctc_unique_labels(labels)
with_unique = tf.nn.ctc_loss(labels, logits, label_length, logit_length, unique=unique)
empty = tf.nn.ctc_loss(tf.zeros([1, 2], tf.int32), logits[:, :1], [0], [6])
result = [loss, grad, batch_major, blank_last, with_unique, empty]
rtol = 1e-4
""",
    "collapse_unique": """
labels = tf.constant([[1, 1, 2, 2, 2], [3, 3, 3, 0, 0], [5, 6, 6, 5, 5]])
out, n = tf.nn.collapse_repeated(labels, tf.constant([5, 3, 4]))
y, idx = tf.nn.ctc_unique_labels(labels)
result = [out, n, y, idx]
""",
}
