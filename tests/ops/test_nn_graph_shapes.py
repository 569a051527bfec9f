"""The shape functions of the convolution and pooling ops (graphs use them instead of
running the kernels while they are built): every static shape they give, for the ops of
each table row and of its gradient, is the shape the op produces when the graph runs, also
with an unknown batch dimension."""

from __future__ import annotations

import numpy as np
import pytest

import retrograd as rg
from tests.ops import test_conv_ops, test_pool_ops

FAMILIES = ("Conv2D", "MaxPool", "AvgPool")
CASES = [
    case
    for case in [*test_conv_ops.CASES, *test_pool_ops.CASES]
    if "batch dims" not in case.name  # reshapes need the batch size
]


def _check(case, unknown_batch):
    args = case.inputs()
    g = rg.Graph()
    with g.as_default():
        phs = [
            rg.compat.v1.placeholder(
                rg.float64, (None, *a.shape[1:]) if unknown_batch and i == 0 else a.shape
            )
            for i, a in enumerate(args)
        ]
        out = case.fn(*phs)
        rg.gradients(rg.reduce_sum(out * out), phs)
    checked = [t for op in g.get_operations() if op.type.startswith(FAMILIES) for t in op.outputs]
    assert checked, f"{case.id}: no convolution or pooling op in the graph"
    with rg.compat.v1.Session(graph=g) as sess:
        values = sess.run(checked, dict(zip(phs, args)))
    for t, v in zip(checked, values):
        static = t.shape
        assert static.is_compatible_with(np.shape(v)), (
            f"{case.id}: {t.op.type} {static} vs {np.shape(v)}"
        )
        if not unknown_batch:
            assert static.is_fully_defined(), f"{case.id}: {t.op.type} {static}"
        elif static.rank:
            assert static[0] is None or t.op.type.endswith("BackpropFilter"), (case.id, t.op.type)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_static_shapes_are_the_run_shapes(case):
    _check(case, unknown_batch=False)


# Rows whose only batched input is the first (their gradients reach every gradient op).
ONE_BATCHED_INPUT = [
    c
    for c in CASES
    if c.name.startswith(("Conv2D[", "MaxPool[", "AvgPool[", "MaxPool3D[", "AvgPool3D["))
]


@pytest.mark.parametrize("case", ONE_BATCHED_INPUT, ids=lambda c: c.id)
def test_static_shapes_with_an_unknown_batch(case):
    _check(case, unknown_batch=True)


def test_building_a_graph_runs_no_convolution_or_pool(monkeypatch):
    from retrograd.core.execute import OP_DEFS

    def refuse(*args, **kwargs):
        raise AssertionError("a kernel ran while the graph was built")

    for op_type in OP_DEFS:
        if op_type.startswith(FAMILIES):
            monkeypatch.setattr(OP_DEFS[op_type], "kernel", refuse)
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, (None, 224, 224, 3))
        y = rg.nn.max_pool(rg.nn.conv2d(x, rg.ones([7, 7, 3, 64]), 2, "SAME"), 3, 2, "SAME")
        rg.gradients(rg.reduce_sum(rg.nn.avg_pool(y, 2, 2, "VALID")), x)
    assert y.shape.as_list() == [None, 56, 56, 64]
