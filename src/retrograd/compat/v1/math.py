"""``retrograd.compat.v1.math``: TensorFlow 1's ``tf.math``: the reductions with
``keep_dims``/``reduction_indices``, ``argmax(dimension=)``, ``softmax(dim=)``,
``in_top_k(predictions, targets, k)``, and every other function of ``retrograd.math``.

>>> import retrograd as rg
>>> rg.compat.v1.math.reduce_sum([[1.0, 2.0]], reduction_indices=1).numpy().tolist()
[3.0]
>>> rg.compat.v1.math.exp is rg.math.exp
True
"""

from retrograd.compat.delegation import shared_names as _shared_names
from retrograd.compat.delegation import shared_value as _shared_value
from retrograd.compat.v1_argument_orders import confusion_matrix
from retrograd.compat.v1_array_functions import count_nonzero
from retrograd.compat.v1_nn import in_top_k
from retrograd.compat.v1_signatures import (
    argmax,
    argmin,
    log_softmax,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    softmax,
)

__all__ = [
    "confusion_matrix",
    "count_nonzero",
    "argmax",
    "argmin",
    "in_top_k",
    "log_softmax",
    "reduce_all",
    "reduce_any",
    "reduce_logsumexp",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_prod",
    "reduce_sum",
    "softmax",
]


def __getattr__(name):
    """The rest of ``retrograd.math``."""
    return _shared_value(name, "tf.compat.v1.math", "math")


def __dir__():
    return sorted(set(__all__) | set(_shared_names("math")))
