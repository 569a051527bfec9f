"""The loss classes of ``tf.keras.losses`` around loss_functions (reduced over the batch
like every Keras loss), ``Reduction`` (Keras 2's names of the reductions),
``serialize``/``deserialize``, and the table ``losses.get`` reads names from (upper-case
aliases such as ``"MSE"`` included, as Keras accepts them).

>>> import retrograd as rg
>>> float(rg.keras.losses.Hinge()([[1.0], [1.0]], [[0.5], [2.0]]))
0.25
"""

from __future__ import annotations

from typing import Any

from retrograd.keras.src import loss_functions as fns
from retrograd.keras.src import losses
from retrograd.keras.src.ops import numpy as knp

__all__ = [
    "BinaryFocalCrossentropy",
    "CategoricalFocalCrossentropy",
    "CategoricalGeneralizedCrossEntropy",
    "CategoricalHinge",
    "Circle",
    "CosineSimilarity",
    "Dice",
    "Hinge",
    "KLDivergence",
    "LogCosh",
    "MeanAbsolutePercentageError",
    "MeanSquaredLogarithmicError",
    "Poisson",
    "SquaredHinge",
    "Tversky",
    "Reduction",
    "MSE",
    "MAE",
    "MAPE",
    "MSLE",
    "KLD",
    "serialize",
    "deserialize",
    "by_name",
]

_SUM = "sum_over_batch_size"


class Hinge(losses.LossFunctionWrapper):
    """``hinge`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.Hinge()([[1.0]], [[0.25]]))
    0.75
    """

    def __init__(self, reduction=_SUM, name="hinge", dtype=None):
        super().__init__(fns.hinge, reduction, name)


class SquaredHinge(losses.LossFunctionWrapper):
    """``squared_hinge`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.SquaredHinge()([[1.0]], [[0.5]]))
    0.25
    """

    def __init__(self, reduction=_SUM, name="squared_hinge", dtype=None):
        super().__init__(fns.squared_hinge, reduction, name)


class CategoricalHinge(losses.LossFunctionWrapper):
    """``categorical_hinge`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.3, 0.6]])), 4)
    0.7
    """

    def __init__(self, reduction=_SUM, name="categorical_hinge", dtype=None):
        super().__init__(fns.categorical_hinge, reduction, name)


class KLDivergence(losses.LossFunctionWrapper):
    """``kl_divergence`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]]))
    0.0
    """

    def __init__(self, reduction=_SUM, name="kl_divergence", dtype=None):
        super().__init__(fns.kl_divergence, reduction, name)


class Poisson(losses.LossFunctionWrapper):
    """``poisson`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.Poisson()([[0.0]], [[2.0]]))
    2.0
    """

    def __init__(self, reduction=_SUM, name="poisson", dtype=None):
        super().__init__(fns.poisson, reduction, name)


class LogCosh(losses.LossFunctionWrapper):
    """``log_cosh`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.LogCosh()([[0.0]], [[0.0]]))
    0.0
    """

    def __init__(self, reduction=_SUM, name="log_cosh", dtype=None):
        super().__init__(fns.log_cosh, reduction, name)


class CosineSimilarity(losses.LossFunctionWrapper):
    """``cosine_similarity`` per sample along ``axis``, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.CosineSimilarity()([[1.0, 0.0]], [[3.0, 0.0]]))
    -1.0
    """

    def __init__(self, axis=-1, reduction=_SUM, name="cosine_similarity", dtype=None):
        super().__init__(fns.cosine_similarity, reduction, name, axis=axis)


class MeanAbsolutePercentageError(losses.LossFunctionWrapper):
    """``mean_absolute_percentage_error`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.MeanAbsolutePercentageError()([[2.0]], [[1.0]]))
    50.0
    """

    def __init__(self, reduction=_SUM, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(fns.mean_absolute_percentage_error, reduction, name)


class MeanSquaredLogarithmicError(losses.LossFunctionWrapper):
    """``mean_squared_logarithmic_error`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.MeanSquaredLogarithmicError()([[1.0]], [[1.0]]))
    0.0
    """

    def __init__(self, reduction=_SUM, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(fns.mean_squared_logarithmic_error, reduction, name)


class BinaryFocalCrossentropy(losses.LossFunctionWrapper):
    """``binary_focal_crossentropy`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.BinaryFocalCrossentropy()([[1.0]], [[0.5]])), 4)
    0.1733
    """

    def __init__(
        self,
        apply_class_balancing=False,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_SUM,
        name="binary_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(
            fns.binary_focal_crossentropy,
            reduction,
            name,
            apply_class_balancing=apply_class_balancing,
            alpha=alpha,
            gamma=gamma,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class CategoricalFocalCrossentropy(losses.LossFunctionWrapper):
    """``categorical_focal_crossentropy`` per sample, reduced over the batch.

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.CategoricalFocalCrossentropy()([[0.0, 1.0]], [[0.5, 0.5]])), 4)
    0.0433
    """

    def __init__(
        self,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_SUM,
        name="categorical_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(
            fns.categorical_focal_crossentropy,
            reduction,
            name,
            alpha=alpha,
            gamma=gamma,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class CategoricalGeneralizedCrossEntropy(losses.LossFunctionWrapper):
    """``categorical_generalized_cross_entropy`` per sample (``q`` in (0, 1)).

    >>> import retrograd as rg
    >>> float(rg.keras.losses.CategoricalGeneralizedCrossEntropy()([1], [[0.75, 0.25]]))
    1.0
    """

    def __init__(
        self, q=0.5, reduction=_SUM, name="categorical_generalized_cross_entropy", dtype=None
    ):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(fns.categorical_generalized_cross_entropy, reduction, name, q=q)


class Dice(losses.LossFunctionWrapper):
    """``dice`` over ``axis`` (all axes by default), reduced over the batch.

    >>> import retrograd as rg
    >>> float(rg.keras.losses.Dice()([[1.0, 0.0]], [[1.0, 0.0]]))
    0.0
    """

    def __init__(self, reduction=_SUM, name="dice", axis=None, dtype=None):
        super().__init__(fns.dice, reduction, name, axis=axis)


class Tversky(losses.LossFunctionWrapper):
    """``tversky`` over ``axis`` (all axes by default), reduced over the batch.

    >>> import retrograd as rg
    >>> round(float(rg.keras.losses.Tversky()([[1.0, 0.0]], [[1.0, 0.0]])), 6)
    0.0
    """

    def __init__(self, alpha=0.5, beta=0.5, reduction=_SUM, name="tversky", axis=None, dtype=None):
        super().__init__(fns.tversky, reduction, name, alpha=alpha, beta=beta, axis=axis)


class Circle(losses.LossFunctionWrapper):
    """``circle`` per sample; the mean is over the samples whose loss is positive (Keras
    masks the others).

    >>> import retrograd as rg
    >>> e = rg.keras.ops.normalize([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]])
    >>> float(rg.keras.losses.Circle()([0, 1, 0], e)) > 0
    True
    """

    def __init__(
        self,
        gamma=80.0,
        margin=0.4,
        remove_diagonal=True,
        reduction=_SUM,
        name="circle",
        dtype=None,
    ):
        super().__init__(
            fns.circle,
            reduction,
            name,
            gamma=gamma,
            margin=margin,
            remove_diagonal=remove_diagonal,
        )

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(y_true, y_pred)
        mask = knp.greater(values, 0.0)
        weight = losses.apply_mask(sample_weight, mask, values.dtype, self.reduction)
        return losses.reduce_loss(values, self.reduction, weight)


class Reduction:
    """Keras 2's names of the loss reductions (``Reduction.SUM_OVER_BATCH_SIZE`` ...).

    >>> import retrograd as rg
    >>> rg.keras.losses.Reduction.SUM, rg.keras.losses.Reduction.all()
    ('sum', ('auto', 'none', 'sum', 'sum_over_batch_size'))
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple[str, ...]:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


MSE = losses.mean_squared_error
MAE = losses.mean_absolute_error
MAPE = fns.mean_absolute_percentage_error
MSLE = fns.mean_squared_logarithmic_error
KLD = fns.kl_divergence


def by_name() -> tuple[dict[str, Any], dict[str, type]]:
    """Every loss function and class by the names ``losses.get`` accepts."""
    functions = {name: getattr(fns, name) for name in fns.__all__}
    functions.update(
        {
            "MSE": MSE,
            "MAE": MAE,
            "MAPE": MAPE,
            "MSLE": MSLE,
            "KLD": KLD,
            "mean_absolute_percentage_error": MAPE,
            "mean_squared_logarithmic_error": MSLE,
        }
    )
    classes = {name: globals()[name] for name in __all__ if name[0].isupper() and len(name) > 4}
    classes.pop("Reduction")
    return functions, classes


def serialize(loss: Any) -> Any:
    """The loss as Keras' JSON-ready form (a dict for instances, a name for functions).

    >>> import retrograd as rg
    >>> rg.keras.losses.serialize(rg.keras.losses.Hinge())["class_name"]
    'Hinge'
    """
    from retrograd.keras.src import serialization

    return serialization.serialize_keras_object(loss)


def deserialize(name: Any, custom_objects: dict | None = None) -> Any:
    """The loss a name or a serialized dict describes.

    >>> import retrograd as rg
    >>> rg.keras.losses.deserialize("hinge") is rg.keras.losses.hinge
    True
    """
    if isinstance(name, str):
        if custom_objects and name in custom_objects:
            return custom_objects[name]
        return losses.get(name)
    from retrograd.keras.src import serialization

    return serialization.deserialize_keras_object(name, custom_objects)
