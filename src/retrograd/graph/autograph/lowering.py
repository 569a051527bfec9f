"""The first AutoGraph passes: ``return``, ``break`` and ``continue`` become flags.

Converted loops and branches run as functions (so that they can become ``while_loop`` and
``cond``), where Python's jumps cannot reach: each jump sets a flag and the statements after
it run under ``if not flag:`` (or in the ``else`` of an ``if`` whose body always jumps); a
loop also stops when its flag is set. With Python values
the flags are Python booleans and the program behaves as before; under a tensor condition
they become boolean tensors.

>>> import ast
>>> tree = ast.parse("def f(x):\\n    while x:\\n        if x: break\\n        x = x - 1\\n")
>>> lower_jumps(tree.body[0])
>>> print(ast.unparse(tree))  # doctest: +NORMALIZE_WHITESPACE
def f(x):
    ag__brk_1 = False
    while not ag__brk_1 and x:
        if x:
            ag__brk_1 = True
        else:
            x = x - 1
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Iterator

__all__ = ["lower_jumps", "names_stored", "walk_scope", "RETVAL", "DO_RETURN", "NESTED_SCOPES"]

RETVAL = "ag__retval"
DO_RETURN = "ag__do_return"
NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOOPS = (ast.For, ast.While)


def walk_scope(node: ast.AST) -> Iterator[ast.AST]:
    """Nodes of ``node``'s own scope: nested functions, classes and comprehensions excluded."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (*NESTED_SCOPES, *_COMPREHENSIONS)):
            stack.extend(ast.iter_child_nodes(child))


def names_stored(nodes: list[ast.AST]) -> list[str]:
    """Names assigned (or deleted) by ``nodes`` in their scope, in first-seen order."""
    found: dict[str, None] = {}
    for node in nodes:
        for child in [node, *walk_scope(node)]:
            if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                found[child.id] = None
            elif isinstance(child, NESTED_SCOPES) and not isinstance(child, ast.Lambda):
                found[child.name] = None
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                for alias in child.names:
                    found[(alias.asname or alias.name).split(".")[0]] = None
    return list(found)


def _contains(nodes: list[ast.AST], kinds: tuple, own_loop_only: bool) -> bool:
    """Whether a node of ``kinds`` occurs in ``nodes`` (not in nested scopes; with
    ``own_loop_only``, not inside nested loops' bodies either)."""
    for node in nodes:
        if isinstance(node, kinds):
            return True
        if isinstance(node, NESTED_SCOPES):
            continue
        if own_loop_only and isinstance(node, _LOOPS):
            if _contains(node.orelse, kinds, own_loop_only):
                return True
            continue
        if _contains(list(ast.iter_child_nodes(node)), kinds, own_loop_only):
            return True
    return False


def _assign(name: str, value: ast.expr, like: ast.AST) -> ast.stmt:
    return ast.copy_location(ast.Assign(targets=[ast.Name(name, ast.Store())], value=value), like)


def _not(name: str) -> ast.expr:
    return ast.UnaryOp(ast.Not(), ast.Name(name, ast.Load()))


class _Guard:
    """Rewrites statement lists so that statements after a jump (a node of ``kinds``,
    rewritten by ``replace``) run only while ``flag`` is unset."""

    def __init__(
        self, flag: str, kinds: tuple, own_loop_only: bool, replace: Callable[[ast.stmt], list]
    ) -> None:
        self.flag, self.kinds, self.own_loop_only, self.replace = (
            flag,
            kinds,
            own_loop_only,
            replace,
        )

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(body):
            if isinstance(stmt, self.kinds):
                out.extend(self.replace(stmt))
                return out  # what follows a jump never runs
            jumps = _contains([stmt], self.kinds, self.own_loop_only)
            rest = body[i + 1 :]
            if jumps and rest and isinstance(stmt, ast.If):
                # `if c: ...; return a` then `rest`: the rest is the else branch (so a tensor
                # condition finds both branches returning, as TensorFlow's AutoGraph does)
                if self._always_jumps(stmt.body):
                    stmt.orelse = [*stmt.orelse, *rest]
                    out.append(self._descend(stmt))
                    return out
                if stmt.orelse and self._always_jumps(stmt.orelse):
                    stmt.body = [*stmt.body, *rest]
                    out.append(self._descend(stmt))
                    return out
            out.append(self._descend(stmt) if jumps else stmt)
            if jumps and rest:
                guarded = ast.If(test=_not(self.flag), body=self.block(rest), orelse=[])
                out.append(ast.copy_location(guarded, rest[0]))
                return out
        return out

    def _always_jumps(self, body: list[ast.stmt]) -> bool:
        if not body:
            return False
        last = body[-1]
        if isinstance(last, self.kinds):
            return True
        return (
            isinstance(last, ast.If)
            and self._always_jumps(last.body)
            and self._always_jumps(last.orelse)
        )

    def _descend(self, stmt: ast.stmt) -> ast.stmt:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if not block:
                continue
            if self.own_loop_only and field == "body" and isinstance(stmt, _LOOPS):
                continue  # a nested loop's break/continue are its own
            setattr(stmt, field, self.block(block) or [ast.Pass()])
            if field == "body" and isinstance(stmt, _LOOPS):
                _add_stop_flag(stmt, self.flag)  # a return also ends every loop around it
        for part in (*getattr(stmt, "handlers", []), *getattr(stmt, "cases", [])):
            part.body = self.block(part.body) or [ast.Pass()]
        return stmt


def _add_stop_flag(loop: ast.For | ast.While, flag: str) -> None:
    if isinstance(loop, ast.While):
        loop.test = ast.BoolOp(ast.And(), [_not(flag), loop.test])
    else:
        loop._ag_stop_flags = [*getattr(loop, "_ag_stop_flags", []), flag]  # type: ignore


def _lower_loop(loop: ast.For | ast.While, counter: Iterator[int]) -> list[ast.stmt]:
    """``continue`` and ``break`` of one loop become flags; its ``else`` runs unless it broke.
    Returns the statements that replace the loop."""
    before: list[ast.stmt] = []
    after: list[ast.stmt] = []
    if _contains(loop.body, (ast.Continue,), True):
        flag = f"ag__cont_{next(counter)}"
        guard = _Guard(
            flag, (ast.Continue,), True, lambda s: [_assign(flag, ast.Constant(True), s)]
        )
        loop.body = [_assign(flag, ast.Constant(False), loop.body[0]), *guard.block(loop.body)]
    if _contains(loop.body, (ast.Break,), True):
        flag = f"ag__brk_{next(counter)}"
        guard = _Guard(flag, (ast.Break,), True, lambda s: [_assign(flag, ast.Constant(True), s)])
        loop.body = guard.block(loop.body) or [ast.Pass()]
        before.append(_assign(flag, ast.Constant(False), loop))
        _add_stop_flag(loop, flag)
        if loop.orelse:
            after.append(ast.copy_location(ast.If(_not(flag), loop.orelse, []), loop.orelse[0]))
    elif loop.orelse:  # no break: the else clause always runs after the loop
        after.extend(loop.orelse)
    loop.orelse = []
    return [*before, loop, *after]


def _lower_returns(func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """When a ``return`` sits inside a compound statement, every ``return v`` becomes
    ``do_return = True; retval = v`` and the function ends with ``return retval``."""
    nested = any(
        _contains(list(ast.iter_child_nodes(s)), (ast.Return,), False)
        for s in func.body
        if not isinstance(s, ast.Return)
    )
    if not nested:
        return

    def replace(stmt: ast.stmt) -> list[ast.stmt]:
        assert isinstance(stmt, ast.Return)
        value = stmt.value if stmt.value is not None else ast.Constant(None)
        return [_assign(DO_RETURN, ast.Constant(True), stmt), _assign(RETVAL, value, stmt)]

    body = _Guard(DO_RETURN, (ast.Return,), False, replace).block(func.body)
    first, last = func.body[0], func.body[-1]
    start = [
        _assign(DO_RETURN, ast.Constant(False), first),
        _assign(RETVAL, ast.Constant(None), first),
    ]
    end = ast.copy_location(ast.Return(ast.Name(RETVAL, ast.Load())), last)
    func.body = [*start, *body, end]


def lower_jumps(func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Lowers the jumps of ``func`` in place (nested functions are left to their own
    conversion): loops' break/continue first, innermost loops first, then returns."""
    counter = itertools.count(1)

    class Loops(ast.NodeTransformer):
        def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
            return node

        visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

        def visit_While(self, node: ast.AST) -> list[ast.stmt]:
            self.generic_visit(node)
            return _lower_loop(node, counter)  # type: ignore[arg-type]

        visit_For = visit_While

    transformer = Loops()
    body: list[ast.stmt] = []
    for stmt in func.body:
        result = transformer.visit(stmt)
        body.extend(result if isinstance(result, list) else [result])
    func.body = body
    _lower_returns(func)
