"""Keras optimizers compared with Keras 3 on TensorFlow: each case is ``(name, optimizer
expression, steps)``; two variables are updated ``steps`` times with gradients drawn from a
generator seeded by the case's index (a step listed in ``INF_STEPS`` gets an infinite
gradient). make_optimizer_goldens.py (on TensorFlow) and test_optimizer_goldens.py read
this file. Plain Python and NumPy: both sides import it."""

import numpy as np

CASES = [
    ("sgd", "optimizers.SGD(0.1)", 3),
    ("sgd_nesterov", "optimizers.SGD(0.1, momentum=0.8, nesterov=True)", 3),
    ("adam_amsgrad", "optimizers.Adam(0.05, amsgrad=True)", 4),
    ("adamw", "optimizers.AdamW(0.05, weight_decay=0.1)", 4),
    ("rmsprop_centered", "optimizers.RMSprop(0.05, momentum=0.5, centered=True)", 3),
    ("adagrad", "optimizers.Adagrad(0.2)", 3),
    ("adadelta", "optimizers.Adadelta(1.0, rho=0.9)", 3),
    ("adamax", "optimizers.Adamax(0.05)", 4),
    ("nadam", "optimizers.Nadam(0.05)", 4),
    (
        "ftrl",
        "optimizers.Ftrl(0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02, beta=0.1)",
        3,
    ),
    (
        "ftrl_shrinkage",
        "optimizers.Ftrl(0.1, l2_shrinkage_regularization_strength=0.05, learning_rate_power=-0.3)",
        3,
    ),
    ("lamb", "optimizers.Lamb(0.05)", 3),
    ("lion", "optimizers.Lion(0.05)", 4),
    ("adafactor", "optimizers.Adafactor(0.05)", 3),
    (
        "adafactor_absolute",
        "optimizers.Adafactor(0.05, relative_step=False, clip_threshold=0.5)",
        3,
    ),
    ("sgd_weight_decay", "optimizers.SGD(0.1, weight_decay=0.05)", 3),
    ("adam_clipnorm", "optimizers.Adam(0.1, clipnorm=0.5)", 3),
    ("adam_clipvalue", "optimizers.Adam(0.1, clipvalue=0.3)", 3),
    ("sgd_global_clipnorm", "optimizers.SGD(0.1, global_clipnorm=0.7)", 3),
    (
        "sgd_ema",
        "optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=2)",
        4,
    ),
    ("adam_accumulation", "optimizers.Adam(0.1, gradient_accumulation_steps=2)", 4),
    ("sgd_loss_scale_factor", "optimizers.SGD(0.1, loss_scale_factor=4.0)", 2),
    ("adam_schedule", "optimizers.Adam(optimizers.schedules.ExponentialDecay(0.1, 2, 0.5))", 4),
    (
        "sgd_polynomial",
        "optimizers.SGD(optimizers.schedules.PolynomialDecay(0.2, 3, 0.01, power=2.0))",
        4,
    ),
    ("sgd_cosine_restarts", "optimizers.SGD(optimizers.schedules.CosineDecayRestarts(0.2, 2))", 4),
    (
        "loss_scale",
        "optimizers.LossScaleOptimizer(optimizers.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2)",
        5,
    ),
]

INF_STEPS = {"loss_scale": (2,)}


def gradients(index: int, step: int) -> list[np.ndarray]:
    """The gradients of the two variables at ``step`` of case ``index``."""
    rng = np.random.default_rng(1000 * index + step)
    return [rng.normal(size=(2, 2)).astype("float32"), rng.normal(size=(3,)).astype("float32")]


def initial_values() -> list[np.ndarray]:
    return [
        np.array([[1.0, -2.0], [0.5, 3.0]], dtype="float32"),
        np.array([0.25, -0.75, 1.5], dtype="float32"),
    ]


# Each optimizer's own arithmetic in float64 and float32 variables, five steps, compared at
# the precision of the dtype: Keras casts its float32 hyperparameters (the learning-rate
# variable, the betas) to the variable's dtype and computes in a fixed order.
PRECISION_OPTIMIZERS = [
    ("sgd_momentum", "optimizers.SGD(0.1, momentum=0.9)"),
    ("sgd_nesterov", "optimizers.SGD(0.1, momentum=0.9, nesterov=True)"),
    ("adam", "optimizers.Adam(0.01)"),
    ("adam_amsgrad", "optimizers.Adam(0.01, amsgrad=True)"),
    ("adamw", "optimizers.AdamW(0.01, weight_decay=0.1)"),
    ("rmsprop", "optimizers.RMSprop(0.01)"),
    ("rmsprop_centered", "optimizers.RMSprop(0.01, momentum=0.5, centered=True)"),
    ("adagrad", "optimizers.Adagrad(0.1)"),
    ("adadelta", "optimizers.Adadelta(0.5)"),
    ("adamax", "optimizers.Adamax(0.01)"),
    ("nadam", "optimizers.Nadam(0.01)"),
    ("ftrl", "optimizers.Ftrl(0.1, l1_regularization_strength=0.01, beta=0.1)"),
    ("lion", "optimizers.Lion(0.01)"),
]
PRECISION_CASES = [
    (f"{name}_{dtype}", expression, dtype)
    for name, expression in PRECISION_OPTIMIZERS
    for dtype in ("float64", "float32")
]
PRECISION_STEPS = 5


def precision_gradients(index: int, step: int, dtype: str) -> list[np.ndarray]:
    """The gradients of precision case ``index`` at ``step``, in ``dtype``."""
    rng = np.random.default_rng(5000 + 100 * index + step)
    return [rng.normal(size=(2, 2)).astype(dtype), rng.normal(size=(3,)).astype(dtype)]
