"""What a gradient function reads, derived from its source (TensorFlow derives the same lists
from its gradient functions' source, in ``gradient_input_output_exclusions.py``).

A tape keeps each op it records so that the op's gradient function can read it later. Many
gradient functions read only some of the op's values: ``Sin``'s reads its input, not its
output; ``Exp``'s its output, not its input; ``Sum``'s only its input's *shape*. A record
needs to keep only the values its rule reads; for the rest, shape and dtype suffice.

:func:`rule_reads` finds out by reading the function's syntax tree: every use of
``op.inputs[i]`` / ``op.outputs[j]`` (directly, through a local name, or unpacked from
``op.inputs``) is a *read*, except uses that see only metadata — ``.shape``, ``.dtype``,
``.ndim``, ``._value.shape``, ``len()``, ``isinstance()``, ``is`` — and arguments of
functions that use them so (found by reading those functions the same way, or declared
with :func:`metadata_only` where their graph-building branches hide it). Anything the
analysis cannot follow counts as a read: the answer may keep too much, never too little.
``tests/core/test_reads.py`` checks the derived reads of every rule against finite
differences with every unread value dropped.

>>> import numpy as np
>>> from retrograd.core.reads import rule_reads
>>> def _exp_grad(op, grad):
...     return grad * op.outputs[0]
>>> rule_reads(_exp_grad)  # (inputs read, outputs read)
(frozenset(), frozenset({0}))
>>> def _unknown(op, grad):
...     return mystery(op)
>>> rule_reads(_unknown)  # None: every value may be read
(None, None)
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
import threading
import types
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["rule_reads", "metadata_only", "Reads"]

# (indices of op.inputs read, indices of op.outputs read); None for "every one".
Reads = tuple[frozenset | None, frozenset | None]
_ALL: Reads = (None, None)
_NONE: Reads = (frozenset(), frozenset())

_F = TypeVar("_F", bound=Callable[..., Any])

# Attributes of a tensor that carry no values: reading them keeps only metadata.
_METADATA = frozenset({"shape", "dtype", "ndim", "get_shape", "op", "graph", "device"})
_VALUE_METADATA = frozenset({"shape", "dtype", "ndim", "size"})  # of ``t._value``
# Attributes of an operation that are not its inputs' or outputs' values.
_OP_FIELDS = frozenset(
    {"type", "name", "get_attr", "attrs", "_attrs", "skip_input_indices", "graph", "op_def"}
)
_METADATA_BUILTINS = frozenset({len, isinstance, type, id, hasattr})


def metadata_only(*params: str) -> Callable[[_F], _F]:
    """Declares that a function reads only the shape and dtype of its parameters ``params``
    (for an operation parameter: of the operation's inputs and outputs), for what
    :func:`rule_reads` cannot see in its source (a branch that builds graph ops on them).

    >>> @metadata_only("like")
    ... def zeros_shaped_like(like):
    ...     return like.shape
    >>> zeros_shaped_like.__metadata_only__
    frozenset({'like'})
    """

    def mark(fn: _F) -> _F:
        fn.__metadata_only__ = frozenset(params)  # type: ignore[attr-defined]
        return fn

    return mark


def rule_reads(rule: Callable[..., Any]) -> Reads:
    """``(inputs, outputs)``: the indices of the op's inputs and outputs whose values the
    gradient function ``rule(op, *grads)`` may read; ``None`` where it may read every one."""
    return _summary(rule, 0, "op")


# -- summaries of functions ---------------------------------------------------------------
_cache: dict[tuple, Any] = {}
_lock = threading.Lock()
_IN_PROGRESS = object()


def _summary(fn: Any, param: int | str, role: str) -> Any:
    """How ``fn`` uses its parameter ``param`` (a position or a name): for ``role="op"``
    the Reads of an operation passed there; for ``role="tensor"`` a pair
    ``(reads_value, returns_it)``."""
    conservative = _ALL if role == "op" else (True, True)
    fn = inspect.unwrap(fn) if callable(fn) else fn
    if not isinstance(fn, types.FunctionType):
        return conservative
    key = (fn.__code__, param, role)
    with _lock:
        found = _cache.get(key)
        if found is _IN_PROGRESS:
            return conservative  # (recursion: assume the worst)
        if found is not None:
            return found
        _cache[key] = _IN_PROGRESS
    try:
        result = _analyse(fn, param, role)
    except (OSError, TypeError, SyntaxError, IndexError):  # no source, or not a plain def
        result = conservative
    with _lock:
        _cache[key] = result
    return result


def _analyse(fn: types.FunctionType, param: int | str, role: str) -> Any:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    node = tree.body[0]
    if not isinstance(node, (ast.FunctionDef, ast.Lambda)):
        raise TypeError("not a function definition")
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if isinstance(param, int):
        if param >= len(names):
            raise TypeError("no such parameter")
        name = names[param]
    elif param in names or param in [a.arg for a in args.kwonlyargs]:
        name = param
    else:
        raise TypeError("no such parameter")
    declared: frozenset[str] = getattr(fn, "__metadata_only__", frozenset())
    if name in declared:
        return _NONE if role == "op" else (False, False)
    walker = _Walker(fn, name, "op" if role == "op" else ("tensor", 0))
    walker.run(node)
    if role == "op":
        return walker.reads()
    return (walker.read_any, walker.returned)


class _Walker:
    """Follows one parameter's value through a function body and records how it is used."""

    def __init__(self, fn: types.FunctionType, name: str, role: Any) -> None:
        self.fn = fn
        self.env: dict[str, Any] = {name: role}  # local name -> role of the value it holds
        self.inputs: set | None = set()
        self.outputs: set | None = set()
        self.read_any = False  # (tensor role) the value itself was read
        self.returned = False  # the value (or an alias of it) is returned
        self.parents: dict[ast.AST, ast.AST] = {}

    def reads(self) -> Reads:
        inputs = None if self.inputs is None else frozenset(self.inputs)
        outputs = None if self.outputs is None else frozenset(self.outputs)
        return inputs, outputs

    # -- roles of expressions ---------------------------------------------------------
    def role(self, node: ast.AST) -> Any:
        """What value ``node`` evaluates to, of those followed: "op", ("inputs"|"outputs"),
        ("input"|"output", index or None), ("tensor", 0); None for anything else."""
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("inputs", "outputs")
            and self.role(node.value) == "op"
        ):
            return node.attr
        if isinstance(node, ast.Subscript):
            base = self.role(node.value)
            if base in ("inputs", "outputs"):
                index = node.slice
                kind = base[:-1]
                if isinstance(index, ast.Constant) and isinstance(index.value, int):
                    return (kind, index.value if index.value >= 0 else None)
                return (kind, None)
        if isinstance(node, ast.Call):
            return self.call_result(node)
        return None

    def call_result(self, call: ast.Call) -> Any:
        """The role of a call's result: that of an argument the callee returns as it is."""
        callee = self.resolve(call.func)
        if callee is None:
            return None
        for position, arg in enumerate(call.args):
            role = self.role(arg)
            if isinstance(role, tuple) and _summary(callee, position, "tensor")[1]:
                return role
        return None

    def resolve(self, func: ast.AST) -> Any:
        """The object a call's function expression names (a global, a closure variable, a
        module attribute, a builtin); None when it cannot be known."""
        if isinstance(func, ast.Name):
            if func.id in self.env:
                return None
            scope = self.fn.__globals__
            if func.id in scope:
                return scope[func.id]
            code = self.fn.__code__
            if func.id in code.co_freevars and self.fn.__closure__:
                try:
                    return self.fn.__closure__[code.co_freevars.index(func.id)].cell_contents
                except ValueError:
                    return None
            return getattr(builtins, func.id, None)
        if isinstance(func, ast.Attribute):
            base = self.resolve(func.value)
            if isinstance(base, types.ModuleType):
                return getattr(base, func.attr, None)
        return None

    # -- the walk ------------------------------------------------------------------------
    def run(self, node: ast.AST) -> None:
        for parent in ast.walk(node):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        statements = [n for n in ast.walk(node) if isinstance(n, (ast.Assign, ast.For))]
        for _ in range(3):  # aliases of aliases: a few passes reach them all
            for statement in statements:
                self.bind(statement)
        for child in ast.walk(node):
            if child is node or not isinstance(child, ast.Name):
                continue
            role = self.role(child)
            if role is not None and isinstance(child.ctx, ast.Load):
                self.use(child, role)

    def bind(self, statement: ast.AST) -> None:
        """Local names bound to followed values (``x = op.inputs[0]``, ``x, y = op.inputs``,
        ``for x in op.inputs``)."""
        if isinstance(statement, ast.For):
            role = self.role(statement.iter)
            if role in ("inputs", "outputs") and isinstance(statement.target, ast.Name):
                self.env.setdefault(statement.target.id, (role[:-1], None))
            return
        assert isinstance(statement, ast.Assign)
        value = statement.value
        if isinstance(value, ast.Tuple):  # x, y = op.inputs[0], op.outputs[0]
            for target in statement.targets:
                if isinstance(target, ast.Tuple) and len(target.elts) == len(value.elts):
                    for name, element in zip(target.elts, value.elts):
                        role = self.role(element)
                        if role is not None and isinstance(name, ast.Name):
                            self.follow(name.id, role)
            return
        role = self.role(value)
        if role is None:
            return
        for target in statement.targets:
            if isinstance(target, ast.Name):
                self.follow(target.id, role)
            elif isinstance(target, ast.Tuple) and role in ("inputs", "outputs"):
                for i, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        self.follow(element.id, (role[:-1], i))

    def follow(self, name: str, role: Any) -> None:
        """Follows local ``name`` as holding ``role``; a name bound to two different followed
        values stands for both (any input or output), or for everything."""
        known = self.env.setdefault(name, role)
        if known == role:
            return
        if isinstance(known, tuple) and isinstance(role, tuple) and known[0] == role[0]:
            self.env[name] = (role[0], None)
        else:
            self.read_all()

    def use(self, node: ast.AST, role: Any) -> None:
        """Records how the value of ``node`` (a name, or an expression built on it) is used."""
        parent = self.parents.get(node)
        if role == "op":
            if isinstance(parent, ast.Attribute):
                if parent.attr in ("inputs", "outputs"):
                    self.use(parent, parent.attr)
                elif parent.attr not in _OP_FIELDS:
                    self.read_all()
            elif isinstance(parent, ast.Call) and node is not parent.func:
                self.passed(parent, node, role)
            elif not self.binds(parent, node) and not self.identity(parent):
                self.read_all()
            return
        if role in ("inputs", "outputs"):
            kind = role[:-1]
            if isinstance(parent, ast.Subscript) and parent.value is node:
                self.use(parent, self.role(parent))
            elif isinstance(parent, ast.Call) and self.resolve(parent.func) is len:
                pass
            elif not self.binds(parent, node) and not isinstance(parent, ast.For):
                self.read(kind, None)
            return
        self.use_tensor(node, parent, role)

    def use_tensor(self, node: ast.AST, parent: ast.AST | None, role: Any) -> None:
        if isinstance(parent, ast.Attribute):
            if parent.attr in _METADATA:
                return
            if parent.attr == "_value":
                grand = self.parents.get(parent)
                if isinstance(grand, ast.Attribute) and grand.attr in _VALUE_METADATA:
                    return
        elif isinstance(parent, ast.Call) and node is not parent.func:
            self.passed(parent, node, role)
            return
        elif isinstance(parent, ast.keyword) and isinstance(self.parents.get(parent), ast.Call):
            self.passed(self.parents[parent], node, role)  # type: ignore[arg-type]
            return
        elif self.binds(parent, node) or self.identity(parent):
            return
        elif isinstance(parent, ast.Return):
            self.returned = True
            if role == ("tensor", 0):
                return  # (the caller decides what the returned value is used for)
        elif isinstance(parent, (ast.Tuple, ast.List)) and self.executed(parent, node):
            return
        self.read(*role)

    def passed(self, call: ast.Call, node: ast.AST, role: Any) -> None:
        """``node`` is an argument of ``call``: the callee decides what it reads."""
        callee = self.resolve(call.func)
        if callee in _METADATA_BUILTINS:
            return
        position: int | str
        if node in call.args:
            position = call.args.index(node)
            if any(isinstance(a, ast.Starred) for a in call.args[:position]):
                callee = None
        else:
            keyword = next((k for k in call.keywords if k.value is node), None)
            if keyword is None or keyword.arg is None:
                callee = None
            else:
                position = keyword.arg
        if callee is None:
            self.read(*role) if role != "op" else self.read_all()
            return
        if role == "op":
            inputs, outputs = _summary(callee, position, "op")
            self.merge(inputs, outputs)
            return
        reads_value, returns_it = _summary(callee, position, "tensor")
        if reads_value:
            self.read(*role)
        elif returns_it:
            self.use_tensor(call, self.parents.get(call), role)

    def executed(self, sequence: ast.AST, node: ast.AST) -> bool:
        """Whether ``node`` is an input of ``execute(OPDEF, (..., node, ...))`` whose kernel
        reads only that input's shape (``OpDef.shape_only_inputs``)."""
        call = self.parents.get(sequence)
        if not (isinstance(call, ast.Call) and len(call.args) >= 2 and call.args[1] is sequence):
            return False
        if getattr(self.resolve(call.func), "__name__", None) != "execute":
            return False
        op_def = self.resolve(call.args[0])
        index = sequence.elts.index(node)  # type: ignore[attr-defined]
        return index in getattr(op_def, "shape_only_inputs", ())

    def binds(self, parent: ast.AST | None, node: ast.AST) -> bool:
        """An assignment (or tuple unpacking) of a followed value to names being followed."""
        if isinstance(parent, ast.Tuple) and isinstance(self.parents.get(parent), ast.Assign):
            statement = self.parents[parent]
            if isinstance(statement, ast.Assign) and statement.value is parent:
                index = parent.elts.index(node)  # type: ignore[arg-type]
                return all(
                    isinstance(t, ast.Tuple)
                    and len(t.elts) == len(parent.elts)
                    and isinstance(t.elts[index], ast.Name)
                    and t.elts[index].id in self.env  # type: ignore[attr-defined]  # (a Name)
                    for t in statement.targets
                )
        if isinstance(parent, ast.Assign) and parent.value is node:
            return all(
                isinstance(t, ast.Name)
                and t.id in self.env
                or isinstance(t, ast.Tuple)
                and all(isinstance(e, ast.Name) and e.id in self.env for e in t.elts)
                for t in parent.targets
            )
        return False

    @staticmethod
    def identity(parent: ast.AST | None) -> bool:
        return isinstance(parent, ast.Compare) and all(
            isinstance(o, (ast.Is, ast.IsNot)) for o in parent.ops
        )

    # -- results -------------------------------------------------------------------------
    def read(self, kind: str, index: int | None) -> None:
        if kind == "tensor":
            self.read_any = True
            return
        found = self.inputs if kind == "input" else self.outputs
        if found is None:
            return
        if index is None:
            found = None
        else:
            found.add(index)
        if kind == "input":
            self.inputs = found
        else:
            self.outputs = found

    def read_all(self) -> None:
        self.inputs = self.outputs = None
        self.read_any = True

    def merge(self, inputs: frozenset | None, outputs: frozenset | None) -> None:
        self.inputs = None if inputs is None or self.inputs is None else self.inputs | inputs
        self.outputs = None if outputs is None or self.outputs is None else self.outputs | outputs
