"""``retrograd.nn.experimental`` (``tf.nn.experimental``): ``stateless_dropout`` and
``general_dropout``.

>>> import retrograd as tf
>>> tf.nn.experimental.stateless_dropout(tf.ones([2]), 0.5, seed=[1, 2]).numpy().tolist()
[2.0, 0.0]
"""

from retrograd.ops.nn_experimental_ops import general_dropout, stateless_dropout

__all__ = ["general_dropout", "stateless_dropout"]
