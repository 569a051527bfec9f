"""What a gradient function reads, derived from its source: uses that see only metadata are
not reads, anything the analysis cannot follow is (it may keep too much, never too little).
The op tables check every rule's derived reads against finite differences
(tests/ops/conftest.py)."""

import pathlib

import numpy as np

import retrograd as rg
from retrograd.core.execute import OP_DEFS
from retrograd.core.reads import metadata_only, rule_reads
from retrograd.ops import array_ops, broadcast


def _output_only(op, grad):
    return grad * op.outputs[0]


def _shape_only(op, grad):
    x = op.inputs[0]
    return rg.reshape(grad, x.shape) + 0 * len(x.shape) + x._value.ndim * 0


def _unpacked(op, grad):
    x, y = op.inputs
    return grad * y, grad * x


def _both_names(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return broadcast.broadcast_like(grad, x) * y


def _through_helper(op, grad):
    return broadcast.reduce_to_inputs(op, grad, grad)


def _alias_of_an_alias(op, grad):
    x = op.inputs[1]
    z = x
    return grad * z


def _rebound_name(op, grad):
    x = op.inputs[0]
    x = op.inputs[1]  # noqa: F841 - the name now stands for either input
    return grad * x


def _loop(op, grad):
    return [grad * x for x in op.inputs]


def _unknown_callee(op, grad):
    return somewhere_else(op, grad)  # noqa: F821 - never called: analysed only


def _identity_test(op, grad):
    return grad if op.inputs[0] is not None else None


def _zeros_of_the_shape(op, grad):
    return array_ops.zeros_like(op.inputs[0]) + grad


def test_uses_that_see_values_are_reads_and_metadata_is_not():
    assert rule_reads(_output_only) == (frozenset(), frozenset({0}))
    assert rule_reads(_shape_only) == (frozenset(), frozenset())
    assert rule_reads(_unpacked) == (frozenset({0, 1}), frozenset())
    assert rule_reads(_both_names) == (frozenset(), frozenset({0}))
    assert rule_reads(_identity_test) == (frozenset(), frozenset())


def test_helpers_are_read_the_same_way_or_declare_what_they_read():
    assert rule_reads(_through_helper) == (frozenset(), frozenset())  # reads shapes only
    assert rule_reads(_zeros_of_the_shape) == (frozenset(), frozenset())
    assert broadcast.unbroadcast.__metadata_only__ == frozenset({"like"})


def test_names_are_followed_and_doubt_reads_more():
    assert rule_reads(_alias_of_an_alias) == (frozenset({1}), frozenset())
    assert rule_reads(_rebound_name) == (None, frozenset())  # either input
    assert rule_reads(_loop) == (None, frozenset())
    assert rule_reads(_unknown_callee) == (None, None)
    assert rule_reads(lambda op, grad: grad * op.inputs[0]) == (None, None)  # no plain def


def test_metadata_only_declares_a_parameter():
    @metadata_only("like")
    def shaped(x, like):
        return np.asarray(like)  # (what the declaration covers is the author's word)

    def rule(op, grad):
        return shaped(grad, op.inputs[0])

    assert rule_reads(rule) == (frozenset(), frozenset())


def test_the_reads_of_familiar_rules():
    expected = {
        "Sin": ({0}, set()),  # cos(x): the input
        "Exp": (set(), {0}),  # the output
        "Tanh": (set(), {0}),
        "Relu": (set(), {0}),
        "Mul": ({0, 1}, set()),
        "AddV2": (set(), set()),  # shapes only
        "Sum": (set(), set()),
        "Mean": (set(), set()),
        "Reshape": (set(), set()),
        "MatMul": ({0, 1}, set()),
        "ReadVariableOp": (set(), set()),
    }
    for op_type, (inputs, outputs) in expected.items():
        assert OP_DEFS[op_type].reads == (frozenset(inputs), frozenset(outputs)), op_type


PACKAGE = str(pathlib.Path(rg.__file__).parent)


def test_most_rules_are_followed():
    reading_all = sorted(
        t
        for t, d in OP_DEFS.items()
        if d.gradient
        and d.gradient.fn
        and d.gradient.own
        and d.gradient.location.startswith(PACKAGE)  # (not a docstring example's rule)
        and d.reads == (None, None)
    )
    # Control flow and function calls differentiate traced functions, and a py_function's
    # gradient re-runs a Python function on its inputs: everything may be read.
    assert reading_all == [
        "EagerPyFunc", "If", "PartitionedCall", "StatelessIf", "StatelessWhile", "While"
    ]  # fmt: skip
