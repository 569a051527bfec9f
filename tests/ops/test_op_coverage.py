"""Every defined op is either exercised by a gradient table row or declared non-differentiable
and checked to give no gradient; and every op type has exactly one gradient entry."""

from __future__ import annotations

import retrograd as rg
from retrograd.core.execute import OP_DEFS
from tests.ops import (
    test_activation_ops,
    test_array_ops,
    test_clip_ops,
    test_complex_ops,
    test_conv_more_ops,
    test_conv_ops,
    test_creation_ops,
    test_decomposition_ops,
    test_dynamic_shape_ops,
    test_einsum_ops,
    test_expm_ops,
    test_fft_ops,
    test_fftnd_ops,
    test_gather_ops,
    test_identity_ops,
    test_linalg_extra_ops,
    test_linalg_ops,
    test_math_extra_ops,
    test_math_ops,
    test_matrix_diag_ops,
    test_matrix_inverse_ops,
    test_nn_extra_ops,
    test_nn_layer_ops,
    test_nn_losses,
    test_nn_ops,
    test_norm_ops,
    test_pad_ops,
    test_partition_ops,
    test_pool_ops,
    test_random_extra_ops,
    test_rearrange_ops,
    test_reduction_ops,
    test_rnn_ops,
    test_safe_math_ops,
    test_scatter_ops,
    test_segment_ops,
    test_sort_ops,
    test_special_functions,
    test_special_ops,
    test_statistics_ops,
    test_trig_ops,
)
from tests.ops.table import recorded_op_types

# Every op table, by family; tests that run each row in other modes iterate over these.
TABLES = [
    test_math_ops,
    test_array_ops,
    test_reduction_ops,
    test_linalg_ops,
    test_nn_ops,
    test_matrix_diag_ops,
    test_matrix_inverse_ops,
    test_nn_layer_ops,
    test_nn_losses,
    test_decomposition_ops,
    test_expm_ops,
    test_fft_ops,
    test_norm_ops,
    test_gather_ops,
    test_segment_ops,
    test_scatter_ops,
    test_pad_ops,
    test_pool_ops,
    test_rearrange_ops,
    test_dynamic_shape_ops,
    test_creation_ops,
    test_einsum_ops,
    test_sort_ops,
    test_statistics_ops,
    test_activation_ops,
    test_clip_ops,
    test_conv_ops,
    test_complex_ops,
    test_safe_math_ops,
    test_special_ops,
    test_trig_ops,
    test_conv_ops,
    test_pool_ops,
    test_nn_losses,
    test_nn_layer_ops,
    test_identity_ops,
    test_partition_ops,
    test_special_functions,
    test_math_extra_ops,
    test_linalg_extra_ops,
    test_random_extra_ops,
    test_nn_extra_ops,
    test_conv_more_ops,
    test_fftnd_ops,
    test_rnn_ops,
]

# Ops whose gradient is checked by a dedicated test rather than a table row.
CHECKED_ELSEWHERE = {
    "StridedSliceGrad": "tests/ops/test_array_ops.py::test_strided_slice_grad_is_differentiable_in_its_upstream_gradient",
    "CustomGradient": "not an op type: custom gradients carry their own rule",
    "CheckNumerics": "tests/checking/test_debugging.py::test_check_numerics_passes_gradients_through_and_checks_them",
    "ReadVariableOp": "tests/core/test_variables.py::test_reading_a_variable_is_recorded_and_differentiable",
    "Sign": "tests/ops/test_math_ops.py::test_gradients_at_kinks_follow_tensorflow",
    "FloorDiv": "declared non-differentiable",
    "PartitionedCall": "tests/graph/test_function.py::test_function_calls_pass_finite_difference_checks_to_second_order",
    "StatelessIf": "tests/graph/test_control_flow.py::test_cond_values_and_gradients",
    "StatelessWhile": "tests/graph/test_control_flow.py::test_while_loop_values_and_gradients_through_every_iteration",
    "If": "tests/graph/test_autograph.py::test_branches_and_loops_that_assign_variables_run_once",
    "While": "tests/graph/test_autograph.py::test_branches_and_loops_that_assign_variables_run_once",
    "LoopHistoryGet": "the While gradient's second order, in tests/graph/test_control_flow.py",
    "LoopHistoryPut": "the While gradient's third order, checked by the While tests",
    "PyFunc": "NumPy code: gradient None, tests/ops/test_numpy_function_ops.py",
    "PyFuncStateless": "NumPy code: gradient None, tests/ops/test_numpy_function_ops.py",
    "DynamicReshape": "tests/ops/test_dynamic_shape_ops.py::test_graph_gradients_match_finite_differences",
    "DynamicFill": "tests/ops/test_dynamic_shape_ops.py::test_graph_gradients_match_finite_differences",
    "DynamicTile": "tests/ops/test_dynamic_shape_ops.py::test_graph_gradients_match_finite_differences",
    "ScatterNdLike": "tests/ops/test_dynamic_shape_ops.py::test_graph_gradients_match_finite_differences",
    "SliceGrad": "the second order of the Slice rows (tests/ops/test_dynamic_shape_ops.py)",
    "Print": "tests/compat/test_graph_ops.py::test_print_passes_its_input_and_gradients_through",
    "EagerPyFunc": "tests/graph/test_py_function.py::test_gradients_match_finite_differences_to_second_order",
    "BlockLSTMGradV2": "the second order of the BlockLSTMV2 rows (tests/ops/test_rnn_ops.py)",
    "BlockGRUGrad": "the second order of the BlockGRU rows (tests/ops/test_rnn_ops.py)",
    "RepeatGrad": "the second order of the Repeat rows (tests/ops/test_partition_ops.py)",
    "GuaranteeConst": "tests/ops/test_identity_ops.py: no gradient (LookupError), as TensorFlow",
    **dict.fromkeys(
        ["Lu", "MatrixLogarithm", "MatrixSolveLs"],
        "tests/ops/test_linalg_extra_ops.py: no gradient (LookupError/ValueError), as TensorFlow",
    ),
    "RandomGamma": "tests/ops/test_random_extra_ops.py::test_stateful_gamma_gradient_is_the_implicit_one"
    " (stateful: the StatelessRandomGammaV3 rows check the same rule to second order)",
    "Conv3DBackpropFilterV2": "the second order of the Conv3D rows (tests/ops/test_conv_more_ops.py)",
    "IgammaGradA": "the second order of the IgammaGradA rows (tests/ops/test_special_functions.py)",
    "IgammaGradAA": "igamma's second derivative in a (tests/ops/test_special_functions.py, the "
    "second order of the IgammaGradA rows); no gradient of its own (LookupError)",
    **dict.fromkeys(
        [
            "TensorListSetItem",
            "TensorListGetItem",
            "TensorListStack",
            "TensorListFromTensor",
            "TensorListGather",
            "TensorListScatterIntoExistingList",
            "TensorListConcatV2",
            "TensorListSplit",
            "TensorListConcatLike",
        ],
        "tests/ops/test_list_ops.py (lists live in graphs: functions checked to second order)",
    ),
    **dict.fromkeys(
        [
            "DynamicSum",
            "DynamicMean",
            "DynamicMax",
            "DynamicMin",
            "DynamicProd",
            "DynamicTranspose",
            "DynamicPad",
            "DynamicMirrorPadGrad",
            "DynamicSplitV",
            "DynamicSplit",
            "DynamicExpandDims",
            "DynamicRoll",
            "DynamicCumsum",
            "DynamicTopKV2",
            "DynamicReverseV2",
            "DynamicConcatV2",
            "DynamicConcatGrad",
        ],
        "tests/ops/test_run_time_args.py (graphs: values, first and second order)",
    ),  # fmt: skip
}


def test_every_op_has_a_gradient_entry():
    missing = [t for t in OP_DEFS if t not in rg.gradient_registry]
    assert not missing, f"ops with neither a gradient nor no_gradient: {missing}"


def test_every_differentiable_op_is_exercised_by_a_table_row():
    exercised = set()
    for module in TABLES:
        for case in module.CASES:
            exercised |= recorded_op_types(case)
    differentiable = {t for t in OP_DEFS if rg.gradient_registry.lookup(t) is not None}
    untested = differentiable - exercised - set(CHECKED_ELSEWHERE)
    assert not untested, f"differentiable ops with no gradient-table row: {sorted(untested)}"
