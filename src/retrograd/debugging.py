"""Assertions and numeric checks (TensorFlow's ``tf.debugging``).

>>> import retrograd as rg
>>> rg.debugging.assert_rank(rg.constant(2.0), 0)
>>> rg.debugging.assert_rank(rg.constant([2.0]), 0)
Traceback (most recent call last):
    ...
ValueError: Tensor must have rank 0. Received rank 1, shape (1,)
"""

from retrograd.autodiff.captures import (
    CapturedTensorWarning,
    disable_strict_custom_gradients,
    enable_strict_custom_gradients,
)
from retrograd.autodiff.explain import (
    NoneGradientWarning,
    disable_explain_none_gradients,
    enable_explain_none_gradients,
    explain_none_gradients,
)
from retrograd.checking.gradient_checks import (
    disable_gradient_checks,
    enable_gradient_checks,
    gradient_checks,
)
from retrograd.checking.numerics import (
    disable_check_numerics,
    enable_check_numerics,
    numeric_checks,
)
from retrograd.graph.devices import (
    disable_traceback_filtering,
    enable_traceback_filtering,
    get_log_device_placement,
    is_traceback_filtering_enabled,
    set_log_device_placement,
)
from retrograd.ops.assert_ops import (
    assert_all_finite,
    assert_integer,
    assert_proper_iterable,
    assert_rank_at_least,
    assert_rank_in,
    assert_same_float_dtype,
    assert_scalar,
    assert_shapes,
    is_numeric_tensor,
)
from retrograd.ops.debug_ops import (
    Assert,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_rank,
    assert_type,
    check_numerics,
)

__all__ = [
    "Assert",
    "assert_rank",
    "assert_equal",
    "assert_greater",
    "assert_greater_equal",
    "assert_less",
    "assert_less_equal",
    "assert_near",
    "assert_negative",
    "assert_non_negative",
    "assert_non_positive",
    "assert_none_equal",
    "assert_positive",
    "assert_type",
    "check_numerics",
    "enable_gradient_checks",
    "disable_gradient_checks",
    "gradient_checks",
    "enable_check_numerics",
    "disable_check_numerics",
    "numeric_checks",
    "explain_none_gradients",
    "enable_explain_none_gradients",
    "disable_explain_none_gradients",
    "NoneGradientWarning",
    "enable_strict_custom_gradients",
    "disable_strict_custom_gradients",
    "CapturedTensorWarning",
    "assert_all_finite",
    "assert_integer",
    "assert_proper_iterable",
    "assert_rank_at_least",
    "assert_rank_in",
    "assert_same_float_dtype",
    "assert_scalar",
    "assert_shapes",
    "is_numeric_tensor",
    "disable_traceback_filtering",
    "enable_traceback_filtering",
    "get_log_device_placement",
    "is_traceback_filtering_enabled",
    "set_log_device_placement",
]
