"""Converting a Python function: its source is parsed, rewritten by ``transformer`` and
compiled again under the user's file name and line numbers (so tracebacks point at the
user's lines), then rebuilt over the original function's globals, defaults and closure
cells (so it sees the same variables, live).

Functions are converted once (a cache keyed by the function); ``convert_call`` converts
user functions a converted function calls, and leaves retrograd's own, the standard
library's, NumPy's, built-ins and functions marked ``do_not_convert`` alone.

>>> def absolute(x):
...     if x < 0:
...         x = -x
...     return x
>>> converted = convert(absolute)
>>> converted is not absolute, converted(-3), convert(absolute) is converted
(True, 3, True)
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import os
import sys
import textwrap
import threading
import types
import weakref
from collections.abc import Callable
from typing import Any

from retrograd.autodiff.custom_gradient import custom_gradient
from retrograd.graph.autograph.transformer import AutoGraphError, convert_tree

__all__ = ["convert", "convert_call", "do_not_convert", "source_of", "AutoGraphError"]

# The cache of conversions: function -> converted function (itself when left alone).
_converted: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NEVER_CONVERTED = (types.BuiltinFunctionType, types.BuiltinMethodType, functools.partial)
_CUSTOM_GRADIENT_CODE = custom_gradient(lambda: None).__code__
_SKIPPED_PACKAGES = ("numpy",)
_DEFINED_AS = "ag__converted"
_RETROGRAD_DIR = os.path.dirname(os.path.dirname(os.path.dirname(__file__))) + os.sep
# CPython 3.11 keeps the depth of its AST conversions in state all threads share: two
# threads parsing or compiling an AST at once can fail ("AST constructor recursion depth
# mismatch"). Functions traced in several threads convert at once, so parsing and
# compiling (never the user's code) take turns.
_AST_TURNS = threading.Lock()


class _NoSource(Exception):
    """A function whose source cannot be read (defined in a REPL, or generated)."""


def do_not_convert(func: Callable | None = None) -> Any:
    """Marks ``func`` so AutoGraph leaves it as written (``tf.autograph.experimental.
    do_not_convert``); usable as a decorator, with or without parentheses.

    >>> @do_not_convert
    ... def f(x):
    ...     return x
    >>> convert(f) is f
    True
    """
    if func is None:
        return do_not_convert
    func.__ag_do_not_convert__ = True  # type: ignore[attr-defined]
    return func


def _left_alone(f: types.FunctionType, strict: bool) -> bool:
    if getattr(f, "__ag_do_not_convert__", False) or f.__name__ == "<lambda>":
        return True
    if f.__code__.co_filename.startswith(_RETROGRAD_DIR):
        return True  # retrograd's own (judged by file: doctests' functions are the user's)
    module = (getattr(f, "__module__", None) or "").split(".")[0]
    if module in _SKIPPED_PACKAGES or module in sys.stdlib_module_names:
        return True
    code = f.__code__
    generator = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
    if code.co_flags & generator and not strict:
        return True  # called from converted code: left as is (traced, it is refused)
    # zero-argument super() needs the class cell of the original definition
    return "super" in code.co_names or "__class__" in code.co_freevars


def convert(f: Callable) -> Callable:
    """``f`` with its Python control flow rewritten to work on tensors (see the package);
    raises AutoGraphError for a construct it cannot convert. A callable it does not convert
    (see ``convert_call``) comes back unchanged."""
    return _convert(f, strict=True)


def convert_call(f: Any) -> Any:
    """The function a converted function calls instead of ``f``: ``f`` converted when it is
    user code that can be converted, else ``f`` itself (never an error)."""
    if type(f) is types.FunctionType:
        found = _converted.get(f)
        if found is not None:
            return found
    elif type(f) in _NEVER_CONVERTED or isinstance(f, type):
        return f  # built-ins and classes
    elif type(f) is not types.MethodType:
        call = vars(type(f)).get("__call__")  # a callable object of a user's class
        if type(call) is not types.FunctionType:
            return f  # (retrograd.function objects among them: they convert themselves)
        converted = _convert(call, strict=False)
        return f if converted is call else types.MethodType(converted, f)
    return _convert(f, strict=False)


def _convert(f: Any, strict: bool) -> Any:
    if isinstance(f, types.MethodType):
        inner = _convert(f.__func__, strict)
        return f if inner is f.__func__ else types.MethodType(inner, f.__self__)
    if not isinstance(f, types.FunctionType):
        return f
    found = _converted.get(f)
    if found is not None:
        return found
    if f.__code__ is _CUSTOM_GRADIENT_CODE:
        result = _convert_custom_gradient(f, strict)
    elif _left_alone(f, strict):
        result = f
    else:
        try:
            result = _rebuild(f)
        except AutoGraphError:
            if strict:
                raise
            result = f
        except _NoSource:
            result = f  # no source to read (built in a REPL, or generated): left as is
    _converted[f] = result
    return result


def _convert_custom_gradient(decorated: types.FunctionType, strict: bool) -> Callable:
    """A ``custom_gradient``-decorated function: the user's function inside is converted and
    decorated again (keeping its forward-mode rule, if it has one)."""
    inner = decorated.__wrapped__  # type: ignore[attr-defined]
    converted = _convert(inner, strict)
    if converted is inner:
        return decorated
    result = custom_gradient(converted)
    cells = dict(zip(decorated.__code__.co_freevars, decorated.__closure__ or ()))
    forward = cells["forward"].cell_contents if "forward" in cells else []
    if forward:
        result.defjvp(forward[0])  # type: ignore[attr-defined]
    return result


def source_of(f: types.FunctionType) -> str:
    """The converted source of ``f`` (what ``to_code`` shows)."""
    return ast.unparse(_converted_tree(f)[0])


def _converted_tree(f: types.FunctionType) -> tuple[ast.Module, str]:
    code = f.__code__
    # linecache also holds sources that are not files (doctests register theirs there)
    lines = linecache.getlines(code.co_filename, f.__globals__)
    if not lines:
        raise _NoSource(f"the source of {f.__qualname__} cannot be read")
    try:
        block = inspect.getblock(lines[code.co_firstlineno - 1 :])
        with _AST_TURNS:
            module = ast.parse(textwrap.dedent("".join(block)))
    except (IndexError, SyntaxError, ValueError) as e:
        raise _NoSource(f"the source of {f.__qualname__} cannot be read: {e}") from None
    node = module.body[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != f.__name__:
        raise _NoSource(f"the source of {f.__qualname__} is not a plain function definition")
    node.decorator_list = []
    ast.increment_lineno(module, f.__code__.co_firstlineno - 1)
    convert_tree(node)
    return module, code.co_filename


def _drop_evaluated_parts(node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Removes what a ``def`` evaluates where it stands: default values (kept as
    placeholders, so that the arguments stay optional) and annotations."""
    args = node.args
    args.defaults = [ast.Constant(None) for _ in args.defaults]
    args.kw_defaults = [None if d is None else ast.Constant(None) for d in args.kw_defaults]
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
        if arg is not None:
            arg.annotation = None
    node.returns = None


def _rebuild(f: types.FunctionType) -> types.FunctionType:
    from retrograd.graph.autograph import operators

    module, filename = _converted_tree(f)
    node = module.body[0]
    # Defined inside the factory under its own name, the function would see that name as
    # the factory's local (a recursive call would look for a cell that does not exist):
    # it is defined under a name of ours and given its own back below. Defaults and
    # annotations are the original's values (``def f(x, n=n)`` reads ``n`` where it was
    # defined, not here), so the definition evaluates none of them.
    node.name = _DEFINED_AS
    _drop_evaluated_parts(node)
    # A factory whose locals are the original's free variables (and ``ag__``): compiled
    # inside it, the converted function refers to them as free variables too, and is then
    # rebuilt over the original's cells.
    free = [*f.__code__.co_freevars, "ag__"]
    local = ast.Assign([ast.Name(n, ast.Store()) for n in free], ast.Constant(None))
    factory = ast.FunctionDef(
        name="ag__factory",
        args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[local, node, ast.Return(ast.Name(_DEFINED_AS, ast.Load()))],
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    ast.copy_location(factory, node)
    ast.copy_location(local, node)
    wrapper = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    namespace: dict[str, Any] = {}
    with _AST_TURNS:
        compiled = compile(wrapper, filename, "exec")
    exec(compiled, namespace)  # the user's own source, rewritten
    made = namespace["ag__factory"]()
    cells = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))
    cells["ag__"] = types.CellType(operators)
    code = made.__code__.replace(co_name=f.__code__.co_name, co_qualname=f.__code__.co_qualname)
    closure = tuple(cells[name] for name in code.co_freevars)
    result = types.FunctionType(code, f.__globals__, f.__name__, f.__defaults__, closure)
    result.__kwdefaults__ = f.__kwdefaults__
    result.__annotations__ = dict(f.__annotations__)
    result.__dict__.update(f.__dict__)
    result.__qualname__, result.__module__, result.__doc__ = f.__qualname__, f.__module__, f.__doc__
    result.__ag_original__ = f  # type: ignore[attr-defined]
    return result
