"""Compiled plans: a list of graph operations turned into straight-line Python code.

Each op becomes one line calling its kernel on local variables; constants and variables
are bound once; a value is deleted after its last use (scalars excepted), so memory is
released as early as eagerly. An op with an in-place kernel writes its result into the
buffer of an input that dies with it when the plan itself made that buffer: a kernel that
returns fresh arrays (``OpDef.fresh``) produced it, and every op reading it is such a kernel
too, so no view of it and no copy kept by a stateful op can outlive it (large arrays only:
fewer allocations, fewer page faults, a smaller peak).
``plan.source`` shows the code. An error raised by a kernel names the op.

Nothing a user wrote becomes code: variables, kernels and constants have generated names
(``t0``, ``k1``, ``c3``) bound in the plan's namespace, and a line's comment holds the op
type and its index in ``plan.ops`` (an op's name is looked up there, never pasted).

>>> import retrograd as rg
>>> g = rg.Graph()
>>> with g.as_default():
...     x = rg.compat.v1.placeholder(rg.float32, [2], name="x")
...     y = rg.exp(x) * 2.0
>>> plan = Plan.for_outputs([y], feeds=[x])
>>> print(plan.source)
def run(feed):
    t0, = feed
    feed.clear()
    t2 = k1(t0)  # Exp ops[0]
    del t0
    t4 = t2 * c3  # Mul ops[2]
    del t2
    return (t4,)
>>> plan(rg.constant([0.0, 1.0])._value)[0].tolist()
[2.0, 5.436563968658447]
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable
from typing import Any

from retrograd.core.errors import (
    DeadlineExceededError,
    InvalidArgumentError,
    OpError,
    UnavailableError,
)
from retrograd.core.variables import Variable
from retrograd.graph.graph import GraphOperation, SymbolicTensor
from retrograd.graph.simplify import common_subexpressions

__all__ = ["Plan", "ops_needed"]

# Kernels that are Python's operators are written as operators: no call, no global lookup.
_OPERATORS = {
    operator.add: "+",
    operator.sub: "-",
    operator.mul: "*",
    operator.truediv: "/",
    operator.neg: "-",
}


def ops_needed(
    targets: Iterable[Any], fed: set[int], keep_stateful_of: Any = None
) -> list[GraphOperation]:
    """The ops that must run to compute ``targets`` (tensors or ops), in graph order.

    ``fed`` holds ids of tensors given from outside. With ``keep_stateful_of`` (a graph),
    every stateful op of that graph runs too (assignments and prints inside functions).
    """
    roots = [t.op if isinstance(t, SymbolicTensor) else t for t in targets if not _is_fed(t, fed)]
    if keep_stateful_of is not None:
        roots += [op for op in keep_stateful_of.get_operations() if op.op_def.stateful]
    seen: dict[int, GraphOperation] = {}
    stack = [op for op in roots if isinstance(op, GraphOperation)]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen[id(op)] = op
        for value in op.inputs:
            if isinstance(value, SymbolicTensor) and id(value) not in fed:
                stack.append(value.op)
    if not seen:
        return []
    graph = next(iter(seen.values())).graph
    order = {id(op): i for i, op in enumerate(graph._operations)}
    return sorted(seen.values(), key=lambda op: order[id(op)])


def _reusable_input(
    op: GraphOperation, inputs: list, last_use: dict, private: set, kept: set
) -> int | None:
    """The position of an input of ``op`` whose buffer its result may take: the op has an
    in-place kernel and one output; the input is a large array of the output's shape and
    dtype that only this plan holds (``private``), used last by this op, not returned."""
    if op.op_def.inplace is None or op.op_def.multi_output or len(op.outputs) != 1:
        return None
    out = op.outputs[0]._value
    if out.size is None or out.size < _REUSE_FROM_ELEMENTS:
        return None
    for i, value in enumerate(inputs):
        key = id(value)
        if (
            last_use.get(key) is op
            and key in private
            and key not in kept
            and value._value.shape == out.shape
            and value._value.dtype == out.dtype
        ):
            return i
    return None


def _private_values(ops: list, resolve: Any) -> set[int]:
    """The values only the plan can hold: outputs of kernels returning fresh arrays that
    every op reading them reads without keeping or viewing them (fresh, stateless kernels)."""
    made = {id(op.outputs[0]) for op in ops if op.op_def.fresh and len(op.outputs) == 1}
    for op in ops:
        if op.op_def.fresh and not op.op_def.stateful:
            continue
        for value in op.inputs:
            made.discard(id(resolve(value)))
    return made


def _is_fed(target: Any, fed: set[int]) -> bool:
    return isinstance(target, SymbolicTensor) and id(target) in fed


# Reusing a buffer saves an allocation (and its page faults): worth it for arrays of this
# many elements and more.
_REUSE_FROM_ELEMENTS = 8192


class Plan:
    """Runs a fixed list of ops: ``plan(*feed_values) -> list of output values``.

    ``attrs_of(op)`` gives the attributes an op's kernel is called with (default: the op's
    own; a Session gives random ops its own streams)."""

    def __init__(
        self,
        ops: list[GraphOperation],
        feeds: list[SymbolicTensor],
        outputs: list[Any],
        attrs_of: Any = None,
    ) -> None:
        self.ops = ops
        self.feeds = feeds
        self.outputs = outputs
        self._attrs_of = attrs_of or (lambda op: op._attrs)
        self._globals: dict[str, Any] = {}
        self._line_ops: dict[int, GraphOperation] = {}
        self.source = self._generate()
        # The module name puts kernel warnings under retrograd's filter (see execute).
        namespace = dict(self._globals, __name__="retrograd.plan_code")
        exec(compile(self.source, f"<retrograd plan {id(self):x}>", "exec"), namespace)  # noqa: S102
        self._run = namespace["run"]

    @classmethod
    def for_outputs(
        cls, outputs: list[Any], feeds: list[SymbolicTensor], keep_stateful_of: Any = None
    ) -> Plan:
        """The plan computing ``outputs`` from ``feeds`` with only the ops they need."""
        fed = {id(t) for t in feeds}
        return cls(ops_needed(outputs, fed, keep_stateful_of), feeds, outputs)

    def _generate(self) -> str:
        exprs: dict[int, str] = {}  # id(value) -> the expression that reads it
        local: set[int] = set()  # ids of values held in local variables (deletable)
        fresh = itertools.count()
        same = common_subexpressions(self.ops)  # computed once, read wherever needed

        def resolve(value: Any) -> Any:
            return same.get(id(value), value)

        def expr(value: Any) -> str:
            value = resolve(value)
            key = id(value)
            if key not in exprs:
                if isinstance(value, Variable):
                    exprs[key] = self._bind(f"v{next(fresh)}", value) + "._value"  # read live
                elif isinstance(value, SymbolicTensor):
                    exprs[key] = f"t{next(fresh)}"
                    local.add(key)
                else:  # an eager tensor, fetched as it is
                    exprs[key] = self._bind(f"c{next(fresh)}", value._value)
            return exprs[key]

        params = [expr(t) for t in self.feeds]
        ops = (
            [op for op in self.ops if not op.outputs or id(op.outputs[0]) not in same]
            if same
            else self.ops
        )
        if same:  # what a simplification left without a reader is not computed
            ops = _live(ops, [resolve(t) for t in self.outputs], resolve)
        last_use = {id(resolve(v)): op for op in ops for v in op.inputs}
        kept = {id(resolve(t)) for t in self.outputs}
        private = _private_values(ops, resolve)
        position = {id(op): i for i, op in enumerate(self.ops)}
        lines: list[str] = []
        if params:  # the caller's list is emptied: a value deleted below is then freed
            lines += [f"    {', '.join(params)}, = feed", "    feed.clear()"]
        for op in ops:
            if op.type == "Const":
                exprs[id(op.outputs[0])] = self._bind(f"c{next(fresh)}", op.get_attr("value"))
                continue
            args = [expr(v) for v in op.inputs]
            call = self._call(op, args, fresh)
            reusable = _reusable_input(op, [resolve(v) for v in op.inputs], last_use, private, kept)
            if reusable is not None:
                inplace = self._kernel(op.op_def.inplace, self._attrs_of(op), fresh)
                call = f"{inplace}({', '.join(args)}, out={args[reusable]})"
            targets = ", ".join(expr(t) for t in op.outputs)
            if op.op_def.multi_output and len(op.outputs) == 1:
                targets += ","
            lines.append(f"    {targets} = {call}" if targets else f"    {call}")
            # Only generated text: the op type (an identifier, checked by define_op) and the
            # op's index in `plan.ops`, never its (user-given) name.
            lines[-1] += f"  # {op.op_def.type} ops[{position[id(op)]}]"
            self._line_ops[len(lines) + 1] = op  # line 1 is the def
            inputs = [resolve(v) for v in op.inputs]
            done = [v for v in inputs if last_use.get(id(v)) is op] + [
                t for t in op.outputs if id(t) not in last_use
            ]
            dead = [
                exprs[id(v)]
                for v in done
                if id(v) in local and id(v) not in kept and v._value.shape != ()
            ]  # (scalars are left to the end of the run: deleting them costs more than they hold)
            if dead:
                lines.append(f"    del {', '.join(dict.fromkeys(dead))}")
        results = "".join(f"{expr(t)}, " for t in self.outputs).rstrip(" ")
        lines.append(f"    return ({results})")
        return "def run(feed):\n" + "\n".join(lines)

    def _call(self, op: GraphOperation, args: list[str], fresh: Any) -> str:
        """The expression computing ``op``'s outputs from the expressions of its inputs."""
        op_def = op.op_def
        if op_def.forwards_inputs:  # outputs are inputs: an assignment, no call
            passed = args[len(args) - len(op.outputs) :]
            return ", ".join(passed) + ("," if len(passed) == 1 and op_def.multi_output else "")
        symbol = _OPERATORS.get(op_def.kernel)
        if symbol is not None and not op._attrs:
            return f"-{args[0]}" if len(args) == 1 else f"{args[0]} {symbol} {args[1]}"
        return f"{self._kernel(op_def.kernel, self._attrs_of(op), fresh)}({', '.join(args)})"

    def _kernel(self, kernel: Any, attrs: dict, fresh: Any) -> str:
        """The name bound to ``kernel`` with its attributes applied."""
        return self._bind(
            f"k{next(fresh)}", functools.partial(kernel, **attrs) if attrs else kernel
        )

    def _bind(self, name: str, value: Any) -> str:
        self._globals[name] = value
        return name

    def __call__(self, *values: Any) -> tuple:
        return self.take(list(values))

    def take(self, values: list) -> tuple:
        """``plan(*values)``, emptying the list ``values``: a fed value that nothing else
        holds is then freed after its last use in the plan, as the plan's own are."""
        try:
            return self._run(values)
        except (OpError, ValueError, TypeError, IndexError, ArithmeticError) as e:
            op = self._failing_op(e)
            if op is None:
                raise
            # (a stopped or late peer keeps its type, as TensorFlow's collectives raise it)
            kind = type(e) if isinstance(e, (UnavailableError, DeadlineExceededError)) else None
            raise (kind or InvalidArgumentError)(f"{op.type} '{op.name}': {e}") from None

    def _failing_op(self, error: BaseException) -> GraphOperation | None:
        tb = error.__traceback__
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.startswith("<retrograd plan"):
                found = self._line_ops.get(tb.tb_lineno)
            tb = tb.tb_next
        return found


def _live(ops: list, outputs: list, resolve: Any) -> list:
    """``ops`` without those whose outputs nothing reads (stateful ops always run)."""
    wanted = {id(t) for t in outputs}
    live = []
    for op in reversed(ops):
        if op.op_def.stateful or any(id(t) in wanted for t in op.outputs):
            live.append(op)
            wanted.update(id(resolve(v)) for v in op.inputs)
    live.reverse()
    return live
