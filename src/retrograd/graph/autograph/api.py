"""``retrograd.autograph``: TensorFlow's ``tf.autograph`` — converting Python control flow
on tensors into graph control flow.

>>> import retrograd as tf
>>> def clip(x):
...     if x > 1.0:
...         x = tf.constant(1.0)
...     return x
>>> print(tf.autograph.to_code(clip).splitlines()[0])
def clip(x):
"""

from retrograd.graph.autograph import experimental
from retrograd.graph.autograph.convert_api import to_code, to_graph

__all__ = ["experimental", "to_code", "to_graph"]
