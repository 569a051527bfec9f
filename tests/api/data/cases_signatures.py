"""TensorFlow's parameter names, positions and defaults (issue 22, "100% of present
signatures"): calls written for TensorFlow 1's argument orders and old names, TensorFlow 2's
``Variable`` options, and Keras 3's constructors, each compared with what TensorFlow does
with the same call. Plain code: no TensorFlow import."""

CASES = {
    "v1_name_before_axis": """
v1 = tf.compat.v1
p = [[1, 2, 3], [4, 5, 6]]
result = [v1.gather(p, [2, 0], None, "g", 1), v1.gather_nd(p, [[1], [0]], "gn", 0),
          v1.boolean_mask(p, [True, False, True], "bm", 1), v1.shape(p, "s", tf.int64),
          v1.size(p, "n", tf.int64), v1.transpose(p, None, "t", False),
          v1.pad([1, 2], [[1, 1]], "CONSTANT", "p", 7),
          v1.confusion_matrix([0, 1, 1], [1, 1, 0], 2, tf.float32, "c", [1.0, 2.0, 3.0]),
          v1.math.confusion_matrix([0, 1], [0, 0], None, tf.int64)]
""",
    "v1_blocks_and_sequences": """
v1 = tf.compat.v1
x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
batch = v1.space_to_batch(x, [[0, 0], [0, 0]], 2)
back = v1.batch_to_space(batch, [[0, 0], [0, 0]], 2)
nn_batch = v1.nn.space_to_batch(x, [[0, 0], [0, 0]], block_shape=2)
seq = v1.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_dim=1, batch_dim=0)
result = [batch, back, nn_batch, seq]
""",
    "v1_block_size_and_shape_both": """
tf.compat.v1.space_to_batch(tf.zeros([1, 2, 2, 1]), [[0, 0], [0, 0]], 2, block_shape=2)
""",
    "v1_tuple_and_group": """
g = tf.Graph()
with g.as_default():
    a, b = tf.compat.v1.tuple([tf.constant(1.0), tf.constant(2.0)], "pair")
    op = tf.compat.v1.group(a, b, name="both")
    result = [a.name, b.name, op.name]
""",
    "v1_group_unknown_keyword": """
g = tf.Graph()
with g.as_default():
    tf.compat.v1.group(tf.constant(1.0), colour="red")
""",
    "v1_assert_rank_positional_message": """
tf.compat.v1.assert_rank(tf.constant([1.0, 2.0]), 2, None, None, "need a matrix")
""",
    "v1_device_by_name": """
with tf.compat.v1.device(device_name_or_function="/cpu:0"):
    result = tf.constant(2.0) * 3.0
""",
    "v1_gradients_unconnected_default": """
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, [])
    y = tf.compat.v1.placeholder(tf.float32, [])
    grads = tf.compat.v1.gradients(x * 2.0, [x, y])
    result = [grads[1] is None]
""",
    "v1_nn_old_names": """
nn = tf.compat.v1.nn
x = tf.reshape(tf.range(1.0, 17.0), [1, 4, 4, 1])
k = tf.reshape(tf.range(1.0, 5.0), [2, 2, 1, 1])
result = [nn.crelu([1.0, -2.0], "c", 0),
          nn.sufficient_statistics([[1.0, 2.0], [3.0, 5.0]], [0], None, True),
          nn.weighted_moments([1.0, 2.0, 4.0], [0], [1.0, 1.0, 2.0], "w", True),
          nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "VALID", rate=[2, 2]),
          nn.separable_conv2d(x, k, tf.ones([1, 1, 1, 2]), [1, 1, 1, 1], "VALID", [1, 1]),
          nn.pool(x, [2, 2], "AVG", "VALID", [1, 1], [2, 2]),
          nn.convolution(x, k, "SAME", [1, 1], [1, 1], "conv"),
          nn.convolution(x, None, "VALID", filters=k),
          nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", Targmax=tf.int32)]
""",
    "v1_nn_3d_and_morphology": """
nn = tf.compat.v1.nn
v = tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1])
w = tf.ones([1, 1, 1, 1, 2])
x = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
result = [nn.conv3d(v, filter=w, strides=[1] * 5, padding="VALID"),
          nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 2]), w, [1, 2, 2, 2, 1], [1] * 5,
                              "SAME"),
          nn.dilation2d(x, filter=tf.zeros([2, 2, 1]), strides=[1, 1, 1, 1],
                        rates=[1, 1, 1, 1], padding="VALID"),
          nn.erosion2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], [1, 1, 1, 1], "VALID")]
""",
    "v1_nn_pool_dilation_both": """
tf.compat.v1.nn.pool(tf.ones([1, 4, 4, 1]), [2, 2], "MAX", "VALID", [1, 1], dilations=[1, 1])
""",
    "v1_nn_softmax_cross_entropy_positional": """
nn = tf.compat.v1.nn
labels, logits = [[0.0, 1.0]], [[1.0, 2.0]]
result = [nn.softmax_cross_entropy_with_logits(labels, logits),
          nn.softmax_cross_entropy_with_logits_v2(labels, logits),
          nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=logits)]
""",
    "v1_nn_sparse_softmax_needs_both": """
tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=[1])
""",
    "v1_nn_sampled_losses_mod_shards": """
nn = tf.compat.v1.nn
shards = [tf.reshape(tf.range(6.0), [3, 2]) / 10.0, tf.reshape(tf.range(6.0, 10.0), [2, 2]) / 10.0]
biases = tf.constant([0.1, -0.2, 0.3, 0.0, 0.5])
sampled = (tf.constant([0, 3], tf.int64), tf.constant([[0.4]]), tf.constant([0.3, 0.2]))
inputs, labels = tf.constant([[1.0, -1.0]]), tf.constant([[4]], tf.int64)
result = [nn.nce_loss(shards, biases, labels, inputs, 2, 5, sampled_values=sampled),
          nn.nce_loss(shards, biases, labels, inputs, 2, 5, sampled_values=sampled,
                      partition_strategy="div"),
          nn.sampled_softmax_loss(shards, biases, labels, inputs, 2, 5,
                                  sampled_values=sampled)]
""",
    "v1_nn_partition_strategy_unknown": """
tf.compat.v1.nn.nce_loss([tf.ones([2, 2]), tf.ones([2, 2])], tf.zeros([4]),
                         tf.constant([[1]], tf.int64), tf.constant([[1.0, 0.0]]), 1, 4,
                         partition_strategy="spread")
""",
    "nextafter_x1_x2": """
result = [tf.math.nextafter(x1=1.0, x2=2.0) > 1.0,
          tf.compat.v1.math.nextafter(tf.constant([1.0], tf.float64), [0.0]) < 1.0]
""",
    "op_error_made_by_a_program": """
error = tf.errors.InvalidArgumentError(None, None, "bad value")
other = tf.compat.v1.OpError(None, None, "any", 2)
result = [str(error), error.message, error.op, error.error_code, other.error_code,
          isinstance(error, tf.errors.OpError)]
""",
    "variable_trainable_default_and_on_read": """
plain = tf.Variable(1.0)
on_read = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                      aggregation=tf.VariableAggregation.SUM)
result = [plain.trainable, on_read.trainable, plain.constraint is None]
""",
    "variable_on_read_trainable": """
v = tf.Variable(1.0, trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
result = [v.trainable, v.synchronization.name, tf.Variable(1.0, aggregation=1).aggregation.name]
""",
    "variable_unknown_synchronization": "tf.Variable(1.0, synchronization=9)",
    "variable_positional_name": """
v = tf.Variable([1.0, 2.0], True, True, None, "weights")
result = [v.name, v.trainable]
""",
    "variable_constraint_after_keras_step": """
v = tf.Variable([1.0, -1.0], constraint=lambda x: tf.maximum(x, 0.0))
tf.keras.optimizers.SGD(1.0).apply_gradients([(tf.constant([2.0, 2.0]), v)])
result = v.read_value()
""",
    "variable_constraint_not_callable": "tf.Variable(1.0, constraint=3)",
    "compat_v1_variable_options": """
v = tf.compat.v1.Variable([1.0], name="old", expected_shape=[1], use_resource=True,
                          caching_device=None)
g = tf.Graph()
with g.as_default():
    w = tf.compat.v1.Variable([2.0], collections=["mine"], name="w")
    names = [x.name for x in tf.compat.v1.get_collection("mine")]
result = [v.name, v.read_value(), names]
""",
    "get_variable_replica_options": """
g = tf.Graph()
with g.as_default():
    v = tf.compat.v1.get_variable("v", [2], initializer=tf.compat.v1.zeros_initializer(),
                                  synchronization=tf.VariableSynchronization.AUTO,
                                  aggregation=tf.compat.v1.VariableAggregation.NONE)
    local = tf.compat.v1.get_local_variable("l", [1], aggregation=tf.compat.v1.VariableAggregation.NONE)
    result = [v.name, local.name]
""",
    "v1_scopes_are_classes": """
v1 = tf.compat.v1
g = tf.Graph()
with g.as_default():
    scope = v1.variable_scope("outer")
    with scope:
        with v1.name_scope("inner"):
            c = tf.constant(1.0, name="c")
    result = [isinstance(scope, v1.variable_scope), c.name, v1.name_scope("x").name]
""",
    "linear_operator_permutation_dtype": """
op = tf.linalg.LinearOperatorPermutation([1, 0])
result = [op.dtype.name, op.to_dense()]
""",
    "keras_pooling_names_and_conv_defaults": """
layers = tf.keras.layers
x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
result = [layers.MaxPooling2D(name="mp").name, layers.AveragePooling1D(2, name="ap").name,
          layers.MaxPooling1D(2, None, "valid", None, "m1").name,
          layers.Conv2D(1, 2, kernel_initializer="ones").strides,
          layers.Conv3DTranspose(2, 2, 1, "valid", "channels_last", None).output_padding,
          layers.Conv3DTranspose(2, 2, 1, "valid", "channels_last").data_format,
          layers.DepthwiseConv2D(2).dilation_rate,
          layers.SeparableConv2D(1, 2).strides]
""",
    "keras_recurrent_full_signatures": """
layers = tf.keras.layers
x = tf.reshape(tf.range(24.0), [2, 3, 4]) / 24.0
lstm = layers.LSTM(2, kernel_initializer="ones", recurrent_initializer="zeros",
                   kernel_constraint=tf.keras.constraints.NonNeg(), return_sequences=True)
gru = layers.GRU(2, kernel_initializer="ones", recurrent_initializer="zeros",
                 reset_after=False, use_cudnn=False)
rnn = layers.SimpleRNN(2, use_bias=False, kernel_initializer="ones",
                       recurrent_initializer="zeros", return_state=True)
out, state = rnn(x)
result = [lstm(x), gru(x), out, len(rnn.weights),
          type(lstm.kernel_constraint).__name__, gru.get_config()["reset_after"]]
""",
    "keras_recurrent_use_cudnn_true": """
tf.keras.layers.LSTM(2, use_cudnn=True)(tf.ones([1, 2, 3]))
""",
    "keras_recurrent_use_cudnn_invalid": "tf.keras.layers.GRU(2, use_cudnn='always')",
    "keras_batch_norm_renorm": """
bn = tf.keras.layers.BatchNormalization(renorm=True, renorm_clipping={"rmax": 1.5, "dmax": 0.5},
                                        renorm_momentum=0.5, momentum=0.5)
x = tf.constant([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
first = bn(x, training=True)
second = bn(x * 2.0, training=True)
inference = bn(x, training=False)
result = [first, second, inference, [w.name for w in bn.weights],
          [w.numpy().tolist() for w in bn.non_trainable_weights]]
""",
    "keras_batch_norm_renorm_bad_clipping": """
tf.keras.layers.BatchNormalization(renorm=True, renorm_clipping={"rmax": 1.0, "rmin": 2.0})
""",
    "keras_sparse_categorical_crossentropy_ignore_class": """
m = tf.keras.metrics.SparseCategoricalCrossentropy(ignore_class=0)
m.update_state(np.array([0, 1, 2]), np.array([[0.5, 0.5, 0.0], [0.2, 0.7, 0.1],
                                                [0.1, 0.1, 0.8]], "float32"))
result = [m.result(), m.get_config()]
""",
    "keras_lambda_callback_hooks": """
seen = []
cb = tf.keras.callbacks.LambdaCallback(
    on_train_batch_begin=lambda b, logs: seen.append(("train_batch", b)),
    on_batch_end=lambda b, logs: seen.append(("batch_end", b)),
    on_epoch_end=lambda e, logs: seen.append(("epoch", e)))
model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
model.compile("sgd", "mse")
model.fit(np.ones((4, 1)), np.ones((4, 1)), batch_size=2, epochs=1, verbose=0,
          callbacks=[cb], shuffle=False)
result = seen
""",
    "keras_callback_list": """
hook = tf.keras.callbacks.LambdaCallback()
callbacks = tf.keras.callbacks.CallbackList([hook], add_history=True, epochs=3, verbose=0)
result = [[type(c).__name__ for c in callbacks.callbacks], hook.params]
""",
    "keras_progbar_stateless_metrics": """
import contextlib, io
out = io.StringIO()
with contextlib.redirect_stdout(out):
    bar = tf.keras.utils.Progbar(3, verbose=2, stateless_metrics=["loss"])
    bar.update(1, [("loss", 1.0), ("acc", 0.5)])
    bar.update(2, [("loss", 3.0), ("acc", 0.25)])
    bar.update(3, [("loss", 5.0), ("acc", 1.0)])
result = out.getvalue().strip().split(" - ")[3:]
""",
    "keras_progbar_both_metric_lists": "tf.keras.utils.Progbar(2, stateful_metrics=['a'], stateless_metrics=['b'])",
    "keras_tensor_keywords": """
t = tf.keras.KerasTensor((None, 2), ragged=True, ragged_rank=1)
result = [t.shape, t.ragged]
""",
    "keras_tensor_unknown_keyword": "tf.keras.KerasTensor((2,), colour='red')",
    "keras_optimizer_base_needs_learning_rate": "tf.keras.optimizers.Optimizer()",
    "keras_optimizer_positional_arguments": """
class Sign(tf.keras.optimizers.Optimizer):
    def update_step(self, gradient, variable, learning_rate):
        variable.assign_sub(tf.cast(learning_rate, variable.dtype) * tf.sign(gradient))

w = tf.Variable([1.0, -1.0])
opt = Sign(0.5, None, None, None, None, False, 0.99, None, None, None, "sign")
opt.apply_gradients([(tf.constant([2.0, -3.0]), w)])
result = [w.read_value(), opt.name]
""",
    "keras_seed_generator_keywords": "tf.keras.random.SeedGenerator(1, colour='red')",
    "keras_utils_keywords": """
utils = tf.keras.utils


class Special:
    pass


registry = {"Special": Special}
left, right = utils.split_dataset(np.arange(6), left_size=4, preferred_backend="tensorflow")
windows = utils.timeseries_dataset_from_array(np.arange(5), None, 3, batch_size=8, format="tf")
utils.clear_session(free_memory=False)
result = [utils.get_registered_object("Special", module_objects=registry) is Special,
          utils.deserialize_keras_object(
              utils.serialize_keras_object(tf.keras.layers.Dense(2)), safe_mode=True).units,
          utils.is_keras_tensor(x=tf.keras.Input((1,))),
          len(list(left)), len(list(right)), [w.numpy().tolist() for w in windows],
          tf.keras.layers.Dense(1).name]
""",
    "keras_timeseries_unknown_format": """
tf.keras.utils.timeseries_dataset_from_array(np.arange(5), None, 3, format="numpy")
""",
    "keras_save_model_unknown_keyword": """
model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
tf.keras.models.save_model(model, "never_written.keras", colour="red")
""",
    "keras_dense_lora": """
dense = tf.keras.layers.Dense(2, kernel_initializer="ones", lora_rank=2, lora_alpha=4.0)
x = tf.constant([[1.0, 2.0, 3.0]])
before = dense(x)
dense.lora_kernel_a.assign(tf.reshape(tf.range(6.0), [3, 2]) / 10.0)
dense.lora_kernel_b.assign(tf.constant([[1.0, 0.0], [0.5, -1.0]]))
after = dense(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(x) ** 2)
grads = tape.gradient(loss, dense.trainable_weights)
result = [before, after, [w.name for w in dense.weights],
          [w.name for w in dense.trainable_weights], dense.lora_alpha, dense.lora_rank,
          grads, dense.get_config()["lora_rank"], dense.get_config()["quantization_config"]]
""",
    "keras_dense_lora_twice": """
dense = tf.keras.layers.Dense(2, lora_rank=1)
dense.build((None, 3))
dense.enable_lora(1)
""",
    "keras_dense_lora_unbuilt": "tf.keras.layers.Dense(2).enable_lora(2)",
    "keras_embedding_lora_and_weights": """
table = np.arange(8.0, dtype="float32").reshape(4, 2)
fixed = tf.keras.layers.Embedding(4, 2, weights=table)
lora = tf.keras.layers.Embedding(4, 2, embeddings_initializer="ones", lora_rank=1)
lora.build()
lora.lora_embeddings_a.assign(tf.constant([[1.0], [2.0], [0.0], [-1.0]]))
lora.lora_embeddings_b.assign(tf.constant([[0.5, 2.0]]))
result = [fixed.built, fixed(tf.constant([3, 1])), lora(tf.constant([0, 1, 3])),
          [w.name for w in lora.trainable_weights]]
""",
}
