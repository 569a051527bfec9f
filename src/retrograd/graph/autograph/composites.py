"""Items and attributes as AutoGraph state: ``d["a"] = ...``, ``l[0] = ...`` and
``self.x = ...`` inside an ``if`` or loop on a tensor.

As in TensorFlow, such a target whose object is a variable and whose key is a constant
(``d["a"]``, ``l[-1]``, ``self.total``, ``d["a"]["b"]``) is state of the statement as a
variable is: its value before the statement is read, each branch or iteration starts from
it, and the value the ``cond`` or ``while_loop`` gives is stored back into the same object
(so other references to the dict, list or object see it). An item or attribute that did not
exist before the statement is removed again between branches.

>>> import ast
>>> targets = ast.parse("d['a'] = x\\nself.n += 1\\nl[i] = 2").body
>>> stored_composites(targets)
["d['a']", 'self.n']
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from retrograd.graph.autograph.lowering import walk_scope
from retrograd.graph.autograph.values import Undefined

__all__ = ["stored_composites", "parts", "root", "read_part", "store_part"]


def _constant_key(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (str, int)


def _composite(node: ast.expr) -> bool:
    """A chain of constant subscripts and attributes on a name."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript) and not _constant_key(node.slice):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def stored_composites(nodes: list[ast.AST]) -> list[str]:
    """The items and attributes ``nodes`` assign in their scope (as source text), in
    first-seen order."""
    found: dict[str, None] = {}
    for node in nodes:
        for child in [node, *walk_scope(node)]:
            if (
                isinstance(child, (ast.Subscript, ast.Attribute))
                and isinstance(child.ctx, ast.Store)
                and _composite(child)
            ):
                found[ast.unparse(child)] = None
    return list(found)


def parts(symbol: str) -> tuple[ast.expr, ast.expr, bool]:
    """``(object, key, is_item)`` of a composite symbol, as expressions to compile."""
    node = ast.parse(symbol, mode="eval").body
    if isinstance(node, ast.Subscript):
        return node.value, node.slice, True
    assert isinstance(node, ast.Attribute)
    return node.value, ast.Constant(node.attr), False


def root(symbol: str) -> str:
    """The variable a composite symbol starts from (``d`` of ``d['a']``)."""
    node = ast.parse(symbol, mode="eval").body
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id  # type: ignore[attr-defined]


def read_part(obj: Callable[[], Any], key: Any, item: bool, name: str) -> Any:
    """The item or attribute's value, or ``Undefined(name)`` when it has none (yet)."""
    try:
        base = obj()
        return base[key] if item else getattr(base, key)
    except (NameError, KeyError, IndexError, AttributeError):
        return Undefined(name)


def store_part(obj: Any, key: Any, item: bool, value: Any) -> None:
    """Stores ``value`` as the item or attribute; an ``Undefined`` value removes it (it did
    not exist before the statement)."""
    if isinstance(obj, Undefined):
        return
    if isinstance(value, Undefined):
        if item and isinstance(obj, dict):
            obj.pop(key, None)
        elif not item and key in getattr(obj, "__dict__", {}):
            delattr(obj, key)
        return
    if item:
        obj[key] = value
    else:
        setattr(obj, key, value)
