"""TensorFlow 1's signatures of functions TensorFlow 2 changed: ``constant(verify_shape=)``,
``convert_to_tensor(preferred_dtype=)``, ``norm(keep_dims=)``, ``ones_like(tensor=,
optimize=)``, ``zeros_like``, ``trace`` (the matrix trace, at TensorFlow 1's top level), the
scatter ops' ``bad_indices_policy`` and ``enable_eager_execution(config, ...)``.

>>> float(trace([[1.0, 2.0], [3.0, 4.0]]))
5.0
"""

from __future__ import annotations

from typing import Any

from retrograd.compat import tf1_variable_ops
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.shapes import TensorShape
from retrograd.core.tensor import convert_to_tensor as _convert
from retrograd.graph import graph as graph_module
from retrograd.ops import array_ops, comparison_ops, matrix_diag_ops, norm_ops, reduction_ops

__all__ = [
    "constant",
    "convert_to_tensor",
    "enable_eager_execution",
    "norm",
    "ones_like",
    "tensor_scatter_add",
    "tensor_scatter_sub",
    "trace",
    "zeros_like",
]


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """TF1's ``constant``: with ``verify_shape``, ``value`` must have ``shape`` exactly (no
    filling or reshaping).

    >>> constant([1.0, 2.0], shape=[2], verify_shape=True).numpy().tolist()
    [1.0, 2.0]
    >>> constant([1.0, 2.0], shape=[3], verify_shape=True)
    Traceback (most recent call last):
    ...
    TypeError: Expected Tensor's shape: (3,), but got (2,).
    """
    if verify_shape and shape is not None:
        got = _convert(value, dtype=dtype).shape
        if tuple(got.as_list()) != tuple(TensorShape(shape).as_list()):
            raise TypeError(
                f"Expected Tensor's shape: {tuple(TensorShape(shape).as_list())}, but got "
                f"{tuple(got.as_list())}."
            )
    return graph_module.constant(value, dtype, shape, name)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """TF1's ``convert_to_tensor`` (``preferred_dtype`` is the old name of ``dtype_hint``).

    >>> convert_to_tensor(1, preferred_dtype='int64').dtype.name
    'int64'
    """
    if preferred_dtype is not None and dtype_hint is not None:
        raise ValueError("convert_to_tensor: give dtype_hint or preferred_dtype, not both")
    hint = dtype_hint if dtype_hint is not None else preferred_dtype
    return _convert(value, dtype=dtype, dtype_hint=hint, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):
    """TF1's ``norm`` (``keep_dims`` is the old name of ``keepdims``).

    >>> norm([[3.0, 4.0]], axis=1, keep_dims=True).numpy().tolist()
    [[5.0]]
    """
    if keepdims is not None and keep_dims is not None:
        raise ValueError("norm: give keepdims or keep_dims (its old name), not both")
    keepdims = keep_dims if keepdims is None else keepdims
    return norm_ops.norm(tensor, ord, axis, keepdims, name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """TF1's ``ones_like`` (``optimize`` changes nothing: retrograd folds no shapes).

    >>> ones_like([[1, 2]], dtype='float32').numpy().tolist()
    [[1.0, 1.0]]
    """
    return array_ops.ones_like(tensor, dtype, name)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """TF1's ``zeros_like``.

    >>> zeros_like([1.5, 2.0]).numpy().tolist()
    [0.0, 0.0]
    """
    return array_ops.zeros_like(tensor, dtype, name)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix in ``x`` (``tf.linalg.trace``).

    >>> trace([[[1.0, 0.0], [0.0, 2.0]]]).numpy().tolist()
    [3.0]
    """
    return matrix_diag_ops.trace(x, name)


def _policy(tensor: Any, indices: Any, updates: Any, policy: str, who: str) -> tuple:
    """The indices and updates to scatter: as given ('', 'DEFAULT', 'ERROR': an index out
    of range is an error), or with 'IGNORE' those of an index out of range left out."""
    if policy in ("", "DEFAULT", "ERROR"):
        return indices, updates
    if policy != "IGNORE":
        raise InvalidArgumentError(
            f"{who}: bad_indices_policy must be '', 'DEFAULT', 'ERROR' or 'IGNORE', got {policy!r}"
        )
    tensor, indices = _convert(tensor), _convert(indices)
    updates = _convert(updates, dtype=tensor.dtype)
    depth = indices.shape.as_list()[-1]
    bounds = _convert(tensor.shape.as_list()[:depth], dtype=indices.dtype)
    inside = comparison_ops.logical_and(
        comparison_ops.greater_equal(indices, 0), comparison_ops.less(indices, bounds)
    )
    valid = reduction_ops.reduce_all(inside, axis=-1)
    safe = array_ops.where(array_ops.expand_dims(valid, -1), indices, array_ops.zeros_like(indices))
    extra = tensor.shape.rank - depth
    mask = array_ops.reshape(valid, valid.shape.as_list() + [1] * extra)
    kept = array_ops.where(mask, updates, array_ops.zeros_like(updates))
    return safe, kept


def tensor_scatter_add(tensor, indices, updates, bad_indices_policy="", name=None):
    """TF1's ``tensor_scatter_add`` (an index out of range is an error, or left out with
    ``bad_indices_policy='IGNORE'``).

    >>> tensor_scatter_add([1.0, 2.0], [[1]], [3.0]).numpy().tolist()
    [1.0, 5.0]
    """
    indices, updates = _policy(tensor, indices, updates, bad_indices_policy, "tensor_scatter_add")
    return tf1_variable_ops.tensor_scatter_add(tensor, indices, updates, name)


def tensor_scatter_sub(tensor, indices, updates, bad_indices_policy="", name=None):
    """TF1's ``tensor_scatter_sub`` (an index out of range is an error, or left out with
    ``bad_indices_policy='IGNORE'``).

    >>> tensor_scatter_sub([1.0, 2.0], [[1]], [3.0]).numpy().tolist()
    [1.0, -1.0]
    """
    indices, updates = _policy(tensor, indices, updates, bad_indices_policy, "tensor_scatter_sub")
    return tf1_variable_ops.tensor_scatter_sub(tensor, indices, updates, name)


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> Any:
    """TF1's ``enable_eager_execution``: from now on ops run at once (the configuration
    arguments choose nothing on retrograd's single device).

    >>> import retrograd as rg
    >>> enable_eager_execution()
    >>> rg.executing_eagerly()
    True
    """
    graph_module.enable_eager_execution()
