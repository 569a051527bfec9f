"""The AutoGraph rewrite: Python control flow into calls of ``ag__`` operators.

``if``/``while``/``for`` become nested functions over the variables they assign, handed to
``ag__.if_stmt``/``while_stmt``/``for_stmt``, which run them as Python when the condition is
a Python value and as ``cond``/``while_loop`` when it is a graph tensor. ``and``/``or``/``not``
and conditional expressions become ``ag__.and_``/``or_``/``not_``/``if_exp``, and every call
``f(...)`` becomes ``ag__.converted(f)(...)`` so that user functions it calls are converted
too; ``print`` stays Python's, run while the function is traced (TensorFlow's AutoGraph
converts it only with its optional BUILTIN_FUNCTIONS feature: ``tf.print`` prints at run
time). Each new node keeps the line of the statement it
replaces, so tracebacks point into the user's source.

>>> import ast
>>> tree = ast.parse("def f(x):\\n    if x > 0:\\n        x = -x\\n    return x\\n")
>>> print(ast.unparse(convert_tree(tree.body[0])))  # doctest: +NORMALIZE_WHITESPACE
def f(x):
    def ag__if_true_1():
        nonlocal x
        x = -x
    def ag__if_false_1():
        nonlocal x
        pass
    def ag__get_1():
        return (ag__.ld(lambda: x, 'x'),)
    def ag__set_1(ag__values):
        nonlocal x
        x, = ag__values
    ag__.if_stmt(x > 0, ag__if_true_1, ag__if_false_1, ag__get_1, ag__set_1, ('x',), ('x',), 2)
    return x
"""

from __future__ import annotations

import ast
import itertools

from retrograd.core.errors import UnimplementedError
from retrograd.graph.autograph.composites import parts, root, stored_composites
from retrograd.graph.autograph.lowering import (
    lower_jumps,
    names_stored,
    walk_scope,
)

__all__ = ["convert_tree", "AutoGraphError", "StagingError"]


class AutoGraphError(NotImplementedError):
    """A construct AutoGraph cannot convert, naming it and its line."""


class StagingError(AutoGraphError, UnimplementedError):
    """A program that cannot be traced into a graph (TensorFlow's ``StagingError``):
    recursion that depends on a tensor's value never ends while traced. (Also an
    ``UnimplementedError``, which a function calling itself raised before.)

    >>> import retrograd as tf
    >>> def halve(x):
    ...     return x if x < 1.0 else halve(x / 2.0)
    >>> try:
    ...     tf.function(halve)(tf.constant(8.0))
    ... except StagingError as error:
    ...     print(type(error).__name__)
    StagingError
    """


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id_, ast.Store() if store else ast.Load())


def _ag(attr: str) -> ast.expr:
    return ast.Attribute(_name("ag__"), attr, ast.Load())


def _call(func: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[])


def _strings(names: list[str]) -> ast.Tuple:
    return ast.Tuple([ast.Constant(n) for n in names], ast.Load())


def _def(
    name: str,
    args: list[str],
    body: list[ast.stmt],
    nonlocals: list[str],
    global_names: frozenset[str] = frozenset(),
) -> ast.stmt:
    """A nested function rebinding ``nonlocals`` of the function around it (those that
    function declares ``global`` are declared ``global`` here too)."""
    prelude: list[ast.stmt] = []
    nonlocals = [n for n in nonlocals if n.isidentifier()]  # (items are stored, not bound)
    own = [n for n in nonlocals if n not in global_names]
    if own:
        prelude.append(ast.Nonlocal(names=own))
    if len(own) < len(nonlocals):
        prelude.append(ast.Global(names=[n for n in nonlocals if n in global_names]))
    return ast.FunctionDef(
        name=name,
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(a) for a in args],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=[*prelude, *(body or [ast.Pass()])],
        decorator_list=[],
        returns=None,
        type_params=[],
    )


class _Converter(ast.NodeTransformer):
    """Converts one function's own scope; nested functions get their own converter."""

    def __init__(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.func = func
        self.counter = itertools.count(1)
        # Names declared global or nonlocal are state like locals (a tensor if or loop
        # assigns them through its branches), rebound with the same declaration.
        self.outer_names = _outer_names(func, (ast.Global, ast.Nonlocal))
        self.global_names = frozenset(_outer_names(func, (ast.Global,)))
        self.loaded = _loads(func)  # (name, node id) pairs: what is read where

    # -- helpers ----------------------------------------------------------------------------
    def _state(self, nodes: list[ast.AST]) -> list[str]:
        """The variables ``nodes`` assign, then the items and attributes they assign
        (``d['a']``: see ``composites``)."""
        names = [n for n in names_stored(nodes) if n != "ag__" and not n.startswith("ag__if_")]
        return names + stored_composites(nodes)

    def _live(self, stmt: ast.AST, names: list[str]) -> list[str]:
        """The names of ``names`` read somewhere outside ``stmt`` (so needed after it); an
        item or attribute is needed when its variable is read."""
        inside = {id(n) for n in ast.walk(stmt)}  # (reads in closures inside it included)
        read = {name for name, i in self.loaded if i not in inside}
        return [n for n in names if (n if n.isidentifier() else root(n)) in read]

    def _accessors(self, k: int, names: list[str], like: ast.AST) -> list[ast.stmt]:
        """``ag__get_k()``: the values of ``names``; ``ag__set_k(values)``: binds them
        (variables first, then items and attributes, which may live in those variables)."""
        reads: list[ast.expr] = []
        for n in names:
            if n.isidentifier():
                reads.append(_call(_ag("ld"), _thunk(_name(n)), ast.Constant(n)))
            else:
                obj, key, item = parts(n)
                reads.append(
                    _call(_ag("read_part"), _thunk(obj), key, ast.Constant(item), ast.Constant(n))
                )
        getter = ast.Return(ast.Tuple(reads, ast.Load()))
        variables = [n for n in names if n.isidentifier()]
        if names:
            targets = [
                _name(n if n.isidentifier() else f"ag__part_{j}", store=True)
                for j, n in enumerate(names)
            ]
            setter_body: list[ast.stmt] = [
                ast.Assign([ast.Tuple(targets, ast.Store())], _name("ag__values"))
            ]
            for j, n in enumerate(names):
                if not n.isidentifier():
                    obj, key, item = parts(n)
                    store = _call(
                        _ag("store_part"), obj, key, ast.Constant(item), _name(f"ag__part_{j}")
                    )
                    setter_body.append(ast.Expr(store))
        else:
            setter_body = [ast.Pass()]
        return [
            _def(f"ag__get_{k}", [], [getter], []),
            _def(f"ag__set_{k}", ["ag__values"], setter_body, variables, self.global_names),
        ]

    def _located(self, nodes: list[ast.stmt], like: ast.AST) -> list[ast.stmt]:
        for node in nodes:
            for child in ast.walk(node):
                if not hasattr(child, "lineno") or child.lineno is None:
                    ast.copy_location(child, like)
        return [ast.fix_missing_locations(n) for n in nodes]

    # -- statements -------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        if node is self.func:
            self.generic_visit(node)
            return node
        if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in walk_scope(node)):
            return node  # a nested generator or coroutine stays as written
        return convert_tree(node)  # type: ignore[arg-type]

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.AST) -> ast.AST:
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node  # lambdas stay as written (their bodies are single expressions)

    def visit_If(self, node: ast.If) -> list[ast.stmt]:
        names = self._state([*node.body, *node.orelse])
        live = self._live(node, names)
        self.generic_visit(node)
        k = next(self.counter)
        out = [
            _def(f"ag__if_true_{k}", [], node.body, names, self.global_names),
            _def(f"ag__if_false_{k}", [], node.orelse, names, self.global_names),
            *self._accessors(k, names, node),
            ast.Expr(
                _call(
                    _ag("if_stmt"),
                    node.test,
                    _name(f"ag__if_true_{k}"),
                    _name(f"ag__if_false_{k}"),
                    _name(f"ag__get_{k}"),
                    _name(f"ag__set_{k}"),
                    _strings(names),
                    _strings(live),
                    ast.Constant(node.lineno),
                )
            ),
        ]
        return self._located(out, node)

    def visit_While(self, node: ast.While) -> list[ast.stmt]:
        names = self._state(node.body)
        live = self._live(node, names)
        self.generic_visit(node)
        k = next(self.counter)
        out = [
            _def(f"ag__test_{k}", [], [ast.Return(node.test)], []),
            _def(f"ag__body_{k}", [], node.body, names, self.global_names),
            *self._accessors(k, names, node),
            ast.Expr(
                _call(
                    _ag("while_stmt"),
                    _name(f"ag__test_{k}"),
                    _name(f"ag__body_{k}"),
                    _name(f"ag__get_{k}"),
                    _name(f"ag__set_{k}"),
                    _strings(names),
                    _strings(live),
                    ast.Constant(node.lineno),
                )
            ),
        ]
        return self._located(out, node)

    def visit_For(self, node: ast.For) -> list[ast.stmt]:
        names = self._state([node.target, *node.body])
        live = self._live(node, names)
        stops = getattr(node, "_ag_stop_flags", [])
        self.generic_visit(node)
        k = next(self.counter)
        bind = ast.Assign([node.target], _name("ag__item"))
        iterated = node.iter
        out = [
            _def(
                f"ag__stop_{k}",
                [],
                [
                    ast.Return(
                        ast.BoolOp(ast.Or(), [_name(f) for f in stops])
                        if len(stops) > 1
                        else _name(stops[0])
                        if stops
                        else ast.Constant(False)
                    )
                ],
                [],
            ),
            _def(f"ag__body_{k}", ["ag__item"], [bind, *node.body], names, self.global_names),
            *self._accessors(k, names, node),
            ast.Expr(
                _call(
                    _ag("for_stmt"),
                    iterated,
                    _name(f"ag__stop_{k}") if stops else ast.Constant(None),
                    _name(f"ag__body_{k}"),
                    _name(f"ag__get_{k}"),
                    _name(f"ag__set_{k}"),
                    _strings(names),
                    _strings(live),
                    ast.Constant(node.lineno),
                )
            ),
        ]
        return self._located(out, node)

    def _refuse(self, node: ast.AST, construct: str) -> None:
        raise AutoGraphError(
            f"AutoGraph does not support {construct} (line {node.lineno}) in "
            f"'{self.func.name}'; mark the function with "
            f"autograph.experimental.do_not_convert, or use function(autograph=False)"
        )

    def visit_Yield(self, node: ast.AST) -> ast.AST:
        self._refuse(node, "`yield` (a generator)")
        return node

    visit_YieldFrom = visit_Yield

    def visit_AsyncFor(self, node: ast.AST) -> ast.AST:
        self._refuse(node, "`async for`")
        return node

    def visit_Await(self, node: ast.AST) -> ast.AST:
        self._refuse(node, "`await`")
        return node

    # -- expressions ------------------------------------------------------------------------
    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        op = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = _call(_ag(op), _thunk(value), _thunk(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call(_ag("not_"), node.operand), node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        call = _call(_ag("if_exp"), node.test, _thunk(node.body), _thunk(node.orelse))
        return ast.copy_location(call, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("range", "len"):
            node.func = ast.copy_location(_ag(f"{func.id}_"), func)
        elif isinstance(func, ast.Name) and func.id in (
            "super",
            "locals",
            "globals",
            "vars",
            "print",
        ):
            pass  # called as written (the first four read the calling frame)
        elif not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "ag__"
        ):
            node.func = ast.copy_location(_call(_ag("converted"), func), func)
        return node


def _thunk(expr: ast.expr) -> ast.Lambda:
    empty = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.copy_location(ast.Lambda(args=empty, body=expr), expr)


def _outer_names(func: ast.AST, kinds: tuple) -> set[str]:
    found: set[str] = set()
    for node in walk_scope(func):
        if isinstance(node, kinds):
            found.update(node.names)
    return found


def _loads(func: ast.AST) -> list[tuple[str, int]]:
    loads = []
    for node in ast.walk(func):  # nested functions included: a closure reads the value too
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.append((node.id, id(node)))
    return loads


def convert_tree(func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """Converts ``func`` (a function definition node) in place and returns it. Names it
    assigns in converted statements are declared local first (``if False: x = None``), so
    that the nested functions can rebind them with ``nonlocal``."""
    lower_jumps(func)
    converter = _Converter(func)
    declared = [
        n
        for n in converter._state(func.body)
        if n.isidentifier() and n not in _arguments(func) and n not in converter.outer_names
    ]
    converter.visit(func)
    if declared:
        targets: list[ast.expr] = [ast.Name(n, ast.Store()) for n in declared]
        local = ast.If(
            test=ast.Constant(False), body=[ast.Assign(targets, ast.Constant(None))], orelse=[]
        )
        func.body.insert(0, ast.copy_location(local, func.body[0]))
    ast.fix_missing_locations(func)
    return func


def _arguments(func: ast.AST) -> set[str]:
    args = func.args  # type: ignore[attr-defined]
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return set(names)
