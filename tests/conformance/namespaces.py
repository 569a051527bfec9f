"""The namespaces of TensorFlow 2.21's API that issue 22 measures retrograd against, as the
attribute paths a program uses (``tf.keras.layers``), in the order the report lists them."""

NAMESPACES = [
    "tf",
    "tf.math",
    "tf.nn",
    "tf.linalg",
    "tf.random",
    "tf.dtypes",
    "tf.debugging",
    "tf.nest",
    "tf.autodiff",
    "tf.data",
    "tf.train",
    "tf.config",
    "tf.keras",
    "tf.keras.layers",
    "tf.keras.losses",
    "tf.keras.metrics",
    "tf.keras.optimizers",
    "tf.keras.optimizers.schedules",
    "tf.keras.initializers",
    "tf.keras.activations",
    "tf.keras.callbacks",
    "tf.keras.regularizers",
    "tf.keras.constraints",
    "tf.keras.models",
    "tf.keras.backend",
    "tf.keras.utils",
    "tf.keras.ops",
    "tf.keras.random",
    "tf.compat.v1",
    "tf.compat.v1.train",
    "tf.compat.v1.nn",
    "tf.compat.v1.layers",
    "tf.compat.v1.losses",
    "tf.compat.v1.math",
    "tf.compat.v1.initializers",
    "tf.compat.v1.keras",
]

# TensorFlow's top-level modules that issue 22 leaves out of its measure (the differences
# page lists every module not measured; these five the issue names).
OUT_OF_SCOPE = ["signal", "sparse", "bitwise", "experimental", "summary"]
