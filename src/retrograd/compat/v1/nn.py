"""``retrograd.compat.v1.nn``: TensorFlow 1's ``tf.nn``: its v1 spellings
(``softmax_cross_entropy_with_logits`` without gradients into the labels, ``..._v2``,
``dropout(keep_prob=)``, ``softmax(dim=)``) and every function of ``retrograd.nn``.

>>> import retrograd as rg
>>> rg.compat.v1.nn.relu is rg.nn.relu
True
"""

from retrograd.compat.delegation import shared_names as _shared_names
from retrograd.compat.delegation import shared_value as _shared_value
from retrograd.compat.v1_signatures import (
    dropout,
    log_softmax,
    softmax,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
)

__all__ = [
    "dropout",
    "log_softmax",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits_v2",
]


def __getattr__(name):
    """The rest of ``retrograd.nn``."""
    return _shared_value(name, "tf.compat.v1.nn", "nn")


def __dir__():
    return sorted(set(__all__) | set(_shared_names("nn")))
