"""The vectorisation behind ``tf.vectorized_map``: the function is traced once on one
element (a graph with placeholder inputs), then each op of the trace runs once on the whole
batch, with a leading batch axis added to its inputs and its axis attributes shifted.

Every op runs eagerly through ``execute`` (or a public op), so tapes record the batched
computation and gradients flow to the elements and to the tensors and variables the
function uses. Ops that do not depend on the elements run once, unbatched. A custom
gradient becomes one batched custom gradient whose rule is the element's rule, traced once
and vectorised the same way. An op without a batching rule here (control flow, random
draws, convolutions, ...) raises :class:`NotVectorizable`, and ``vectorized_map`` falls back
to one call per element.

>>> import retrograd as rg
>>> from retrograd.graph.vectorize import vectorized_call
>>> rows = rg.constant([[1.0, 2.0], [3.0, 4.0]])
>>> vectorized_call(lambda row: rg.reduce_sum(row * row), rows, 2).numpy().tolist()
[5.0, 25.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from retrograd.autodiff.custom_gradient import custom_gradient
from retrograd.core import nest
from retrograd.core.execute import OP_DEFS, execute
from retrograd.core.shapes import plain_dims
from retrograd.core.tensor import Tensor
from retrograd.core.variables import Variable
from retrograd.graph.graph import Graph, SymbolicTensor, placeholder
from retrograd.ops import array_ops, linalg_ops, reduction_ops

__all__ = ["NotVectorizable", "vectorized_call"]


class NotVectorizable(Exception):
    """The traced function holds an op this module cannot run on a batch."""


class _Value:
    """An op output's value: ``tensor``, batched (a leading batch axis) or not."""

    __slots__ = ("tensor", "batched")

    def __init__(self, tensor: Any, batched: bool) -> None:
        self.tensor, self.batched = tensor, batched


def vectorized_call(fn: Callable, elems: Any, count: int) -> Any:
    """``fn`` applied to every slice of ``elems`` along axis 0 (``count`` slices) in one
    batched pass; raises :class:`NotVectorizable` where that is not possible."""
    leaves = nest.flatten(elems)
    graph = Graph()
    with graph.as_default():
        holders = [placeholder(t.dtype, plain_dims(t.shape)[1:]) for t in leaves]
        try:
            traced = fn(nest.pack_sequence_as(elems, holders))
        except NotVectorizable:
            raise
        except Exception as error:  # the function cannot be traced (Python control flow
            raise NotVectorizable(f"the function cannot be traced: {error}") from error
    run = _Run(graph, count)
    for holder, leaf in zip(holders, leaves):
        run.values[id(holder)] = _Value(leaf, True)
    run.evaluate(graph.get_operations())
    return nest.map_structure(run.output, traced)


class _Run:
    """One batched evaluation of a trace."""

    def __init__(self, graph: Graph, count: int) -> None:
        self.graph, self.count = graph, count
        self.values: dict[int, _Value] = {}
        # Eager tensors the function used appear as constants: use the tensors themselves,
        # so that gradients reach them.
        self.captured = {id(const.op): value for value, const in graph._captures.values()}

    def output(self, traced: Any) -> Any:
        if isinstance(traced, SymbolicTensor):
            value = self.values[id(traced)]
            return value.tensor if value.batched else self.tile(value.tensor)
        if isinstance(traced, (Tensor, Variable)):  # independent of the elements
            return self.tile(traced.read_value() if isinstance(traced, Variable) else traced)
        return traced

    def tile(self, tensor: Tensor) -> Tensor:
        return array_ops.stack([tensor] * self.count)

    def evaluate(self, operations: list) -> None:
        for op in operations:
            if op.type == "Placeholder":
                if not all(id(t) in self.values for t in op.outputs):
                    raise NotVectorizable("the function creates placeholders")
                continue
            try:
                outputs = self.run(op)
            except NotVectorizable:
                raise
            except Exception as error:  # (the loop then gives the values, or the error)
                raise NotVectorizable(f"op {op.type} failed on the batch: {error}") from error
            for symbolic, value in zip(op.outputs, outputs):
                self.values[id(symbolic)] = value

    def input(self, value: Any) -> _Value:
        if isinstance(value, Variable):
            return _Value(value, False)
        found = self.values.get(id(value))
        if found is None:
            raise NotVectorizable(f"an input of the trace is unknown: {value!r}")
        return found

    def run(self, op: Any) -> list[_Value]:
        if op.type == "Const":
            value = self.captured.get(id(op))
            return [_Value(value if value is not None else Tensor(op.get_attr("value")), False)]
        op_def = OP_DEFS.get(op.type)
        if op_def is None or op_def.stateful:
            raise NotVectorizable(f"op {op.type} cannot be vectorised")
        inputs = [self.input(t) for t in op.inputs]
        if op.type == "ReadVariableOp":
            return [_Value(inputs[0].tensor.read_value(), False)]
        if op.type == "CustomGradient":
            return self.custom(op, inputs)
        if not any(v.batched for v in inputs):
            return self.plain(op, op_def, [v.tensor for v in inputs], dict(op._attrs))
        rule = _RULES.get(op.type)
        if rule is None and op_def.elementwise:
            rule = _elementwise
        if rule is None:
            raise NotVectorizable(f"op {op.type} has no batching rule")
        result = rule(self, op, op_def, inputs)
        return result if isinstance(result, list) else [_Value(result, True)]

    def plain(self, op: Any, op_def: Any, tensors: list, attrs: dict) -> list[_Value]:
        result = execute(op_def, tensors, attrs or None, None)
        flat = list(result) if op_def.multi_output else [result]
        return [_Value(t, False) for t in flat]

    def batched(self, value: _Value) -> Tensor:
        """``value`` with a batch axis (repeated if it has none)."""
        return value.tensor if value.batched else self.tile(_read(value.tensor))

    # -- custom gradients ----------------------------------------------------------------
    def custom(self, op: Any, inputs: list[_Value]) -> list[_Value]:
        forwarded = op.get_attr("forwarded")
        arguments = inputs[: len(inputs) - forwarded]
        results = [v for v in inputs[len(inputs) - forwarded :]]
        tensors = [_read(v.tensor) for v in arguments]  # variables as reads: gradients reach them
        run, count = self, self.count
        # The forward results, already computed on the batch, as plain values: the tape sees
        # them only as outputs of the custom op, whose gradient is the element's rule.
        frozen = [Tensor(self.batched(v)._value) for v in results]

        @custom_gradient
        def batched_custom(*args):
            outputs = [array_ops.identity(v) for v in frozen]

            def grad(*upstream):
                grads = run.element_gradients(op, upstream)
                out = []
                for g, a in zip(grads, arguments):
                    if g is None:
                        out.append(None)
                    elif a.batched:
                        out.append(g.tensor if g.batched else run.tile(g.tensor))
                    else:  # shared by all elements: their gradients add up
                        out.append(
                            reduction_ops.reduce_sum(g.tensor, 0)
                            if g.batched
                            else g.tensor * float(count)
                        )
                return out

            return outputs, grad

        fresh = batched_custom(*tensors)
        fresh = fresh if isinstance(fresh, (list, tuple)) else [fresh]
        return [_Value(t, True) for t in fresh]

    def element_gradients(self, op: Any, upstream: tuple) -> list:
        """The custom rule of ``op`` on one element, traced into the graph on placeholders
        for the upstream gradients, then evaluated on the batch."""
        graph = self.graph
        start = len(graph.get_operations())
        with graph.as_default():
            holders = [placeholder(t.dtype, t.shape[1:]) for t in upstream]
            if getattr(op, "skip_input_indices", None) is None:
                op.skip_input_indices = ()
            grads = op.grad_fn(op, *holders)
        for holder, given in zip(holders, upstream):
            self.values[id(holder)] = _Value(given, True)
        self.evaluate(graph.get_operations()[start:])
        found = []
        for g in grads[: len(op.inputs) - op.get_attr("forwarded")]:
            if g is None:
                found.append(None)
            elif isinstance(g, SymbolicTensor):
                found.append(self.values[id(g)])
            else:
                found.append(_Value(g, False))
        return found


def _read(value: Any) -> Any:
    return value.read_value() if isinstance(value, Variable) else value


def _rank(op: Any, index: int = 0) -> int:
    rank = op.inputs[index].shape.rank
    if rank is None:
        raise NotVectorizable(f"op {op.type}: an input of unknown rank")
    return rank


def _out_rank(op: Any) -> int:
    rank = op.outputs[0].shape.rank
    if rank is None:
        raise NotVectorizable(f"op {op.type}: an output of unknown rank")
    return rank


def _aligned(run: _Run, op: Any, inputs: list[_Value], rank: int) -> list[Tensor]:
    """Batched inputs reshaped to ``[batch, 1 ..., *shape]`` of rank ``rank + 1``, so that
    broadcasting pairs the batch axes; unbatched inputs unchanged."""
    out = []
    for i, v in enumerate(inputs):
        if not v.batched:
            out.append(_read(v.tensor))
            continue
        missing = rank - _rank(op, i)
        t = v.tensor
        if missing:
            shape = [run.count, *([1] * missing), *plain_dims(t.shape)[1:]]
            t = array_ops.reshape(t, shape)
        out.append(t)
    return out


def _elementwise(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    return execute(op_def, _aligned(run, op, inputs, _out_rank(op)), dict(op._attrs) or None, None)


def _same_shape(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    """Ops that act on each value (and attributes that do not name axes)."""
    tensors = [run.batched(v) for v in inputs]
    return execute(op_def, tensors, dict(op._attrs) or None, None)


def _shifted(name: str) -> Callable:
    """Ops whose attribute ``name`` holds per-element axes (non-negative, or None for all)."""

    def rule(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Any:
        attrs = dict(op._attrs)
        axis = attrs.get(name)
        if axis is None and op.type in _REDUCTIONS:
            axis = tuple(range(_rank(op)))
        if op.type == "Squeeze" and not axis:  # every dimension of size 1, not the batch's
            axis = tuple(i for i, d in enumerate(op.inputs[0].shape.as_list()) if d == 1)
        if isinstance(axis, (tuple, list)):
            if any(a < 0 for a in axis):
                raise NotVectorizable(f"op {op.type}: negative axes")
            attrs[name] = type(axis)(a + 1 for a in axis)
        elif isinstance(axis, int):
            if axis < 0:
                raise NotVectorizable(f"op {op.type}: a negative axis")
            attrs[name] = axis + 1
        tensors = [run.batched(v) for v in inputs]
        result = execute(op_def, tensors, attrs, None)
        if op_def.multi_output:
            return [_Value(t, True) for t in result]
        return result

    return rule


_REDUCTIONS = ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any")


def _reshape(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    if len(inputs) != 1:
        raise NotVectorizable("Reshape with a run-time shape")
    shape = op.get_attr("shape")
    return array_ops.reshape(inputs[0].tensor, [run.count, *shape])


def _transpose(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    if len(inputs) != 1:
        raise NotVectorizable("Transpose with a run-time permutation")
    perm = op.get_attr("perm")
    return array_ops.transpose(inputs[0].tensor, [0, *(p + 1 for p in perm)])


def _matmul(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    a, b = (_read(v.tensor) for v in inputs)
    attrs = dict(op._attrs)
    if set(attrs) - {"transpose_a", "transpose_b"}:
        raise NotVectorizable(f"MatMul attributes {sorted(attrs)}")
    return linalg_ops.matmul(a, b, **attrs)


def _gather(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    params, indices = inputs[0], inputs[1]
    if params.batched or op.get_attr("batch_dims") != 0 or op.get_attr("axis") != 0:
        raise NotVectorizable("GatherV2 of batched parameters")
    return execute(op_def, [_read(params.tensor), indices.tensor], dict(op._attrs), None)


def _strided_slice(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    if len(inputs) != 1:
        raise NotVectorizable("StridedSlice with run-time bounds")
    attrs = dict(op._attrs)
    attrs["index"] = (slice(None), *attrs["index"])  # the batch axis, whole
    return execute(op_def, [inputs[0].tensor], attrs, None)


def _broadcast_to(run: _Run, op: Any, op_def: Any, inputs: list[_Value]) -> Tensor:
    if len(inputs) != 1:
        raise NotVectorizable("BroadcastTo with a run-time shape")
    shape = tuple(op.get_attr("shape"))
    (aligned,) = _aligned(run, op, inputs, len(shape))
    return execute(op_def, [aligned], {"shape": (run.count, *shape)}, None)


_RULES: dict[str, Callable] = {
    "StridedSlice": _strided_slice,
    "BroadcastTo": _broadcast_to,
    "OnesLike": _same_shape,
    "ZerosLike": _same_shape,
    "Identity": _same_shape,
    "StopGradient": _same_shape,
    "Cast": _same_shape,
    "Relu6": _same_shape,
    "Elu": _same_shape,
    "Selu": _same_shape,
    "LeakyRelu": _same_shape,
    "Softsign": _same_shape,
    "ClipByValue": _elementwise,
    "SelectV2": _elementwise,
    "Softmax": _shifted("axis"),
    "LogSoftmax": _shifted("axis"),
    "ExpandDims": _shifted("axis"),
    "Squeeze": _shifted("axis"),
    "ConcatV2": _shifted("axis"),
    "Pack": _shifted("axis"),
    "Unpack": _shifted("axis"),
    "Reshape": _reshape,
    "Transpose": _transpose,
    "MatMul": _matmul,
    "BatchMatMulV2": _matmul,
    "GatherV2": _gather,
    **{name: _shifted("axis") for name in _REDUCTIONS},
}
