"""What TensorFlow's private modules (``tensorflow.python.*``, re-exported by
``compat/tf_python/``) hold beyond other names: the TensorFlow 2 behaviour flag (``tf2``),
the answers of ``control_flow_util`` under functional control flow, ``tf_inspect``'s view of
decorated functions, and the gradient registry as ``framework.ops._gradient_registry``.

>>> from retrograd.compat import private_modules
>>> private_modules.enabled(), private_modules.IsInWhileLoop(None)
(True, False)
"""

from __future__ import annotations

import collections
import inspect
from collections.abc import Iterator, Mapping
from inspect import Signature, isbuiltin, ismodule
from typing import Any

from retrograd.core.registry import gradient_registry

__all__ = [
    "ArgSpec", "CheckInputFromValidContext", "ENABLE_CONTROL_FLOW_V2", "EnableControlFlowV2",
    "GetContainingCondContext", "GetContainingWhileContext", "GetContainingXLAContext",
    "GetLoopConstantEnter", "GetOutputContext", "GetWhileContext",
    "GraphOrParentsInXlaContext", "InXlaContext", "IsCondMerge", "IsCondSwitch",
    "IsContainingContext", "IsInCond", "IsInWhileLoop", "IsInXLAContext",
    "IsLoopConstantEnter", "IsLoopEnter", "IsLoopExit", "IsLoopMerge", "IsLoopSwitch",
    "IsMerge", "IsSwitch", "OpInContext", "TensorInContext", "disable", "enable",
    "enable_control_flow_v2", "enabled", "getargspec", "getcallargs", "getfullargspec",
    "getsource", "gradient_registry_view", "isanytargetmethod", "isfunction", "ismethod",
    "signature",
]  # fmt: skip

# --- tensorflow.python.tf2 ---------------------------------------------------------------


class _Behaviour:
    """Process-wide, as TensorFlow's ``_force_enable``."""

    v2 = True


_behaviour = _Behaviour()


def enable() -> None:
    """Marks TensorFlow 2 behaviour on (``compat.v1.enable_v2_behavior`` calls it).

    >>> enable()
    """
    _behaviour.v2 = True


def disable() -> None:
    """Marks TensorFlow 2 behaviour off (``compat.v1.disable_v2_behavior`` calls it).

    >>> disable(); enable()
    """
    _behaviour.v2 = False


def enabled() -> bool:
    """True unless TensorFlow 2 behaviour was disabled.

    >>> enabled()
    True
    """
    return _behaviour.v2


# --- tensorflow.python.ops.control_flow_util ----------------------------------------------
# retrograd's ``cond`` and ``while_loop`` are functional, as TensorFlow 2's control flow v2:
# branches and bodies are functions, no op lives in a TF1 control-flow context, and every
# question gets the answer TensorFlow gives under control flow v2 (which TensorFlow 2 always
# uses). retrograd has no XLA, so nothing is in an XLA context.


ENABLE_CONTROL_FLOW_V2 = True


def enable_control_flow_v2() -> bool:
    """Whether control flow v2 is on: always (``cond``/``while_loop`` are functional).

    >>> enable_control_flow_v2()
    True
    """
    return True


def EnableControlFlowV2(graph: Any) -> bool:
    """Whether ``graph`` builds control flow v2: always.

    >>> EnableControlFlowV2(None)
    True
    """
    return True


def _op_type(op: Any) -> str:
    return getattr(op, "type", "")


def IsSwitch(op: Any) -> bool:
    """Whether ``op`` is a v1 ``Switch``: retrograd builds none.

    >>> IsSwitch(None)
    False
    """
    return _op_type(op) in ("Switch", "RefSwitch")


def IsMerge(op: Any) -> bool:
    """Whether ``op`` is a v1 ``Merge``: retrograd builds none.

    >>> IsMerge(None)
    False
    """
    return _op_type(op) in ("Merge", "RefMerge")


def IsLoopEnter(op: Any) -> bool:
    """Whether ``op`` is a v1 ``Enter``: retrograd builds none.

    >>> IsLoopEnter(None)
    False
    """
    return _op_type(op) in ("Enter", "RefEnter")


def IsLoopExit(op: Any) -> bool:
    """Whether ``op`` is a v1 ``Exit``: retrograd builds none.

    >>> IsLoopExit(None)
    False
    """
    return _op_type(op) in ("Exit", "RefExit")


def IsLoopConstantEnter(op: Any) -> bool:
    """Whether ``op`` is a constant ``Enter``: retrograd builds none.

    >>> IsLoopConstantEnter(None)
    False
    """
    return IsLoopEnter(op) and bool(getattr(op, "get_attr", lambda name: False)("is_constant"))


def GetOutputContext(op: Any) -> None:
    """The v1 control-flow context of ``op``'s outputs: none.

    >>> GetOutputContext(None) is None
    True
    """
    return None


def GetWhileContext(op: Any) -> None:
    """The v1 while context of ``op``: none.

    >>> GetWhileContext(None) is None
    True
    """
    return None


def GetContainingWhileContext(ctxt: Any, stop_ctxt: Any = None) -> None:
    """The while context containing ``ctxt``: none (there are no v1 contexts).

    >>> GetContainingWhileContext(None) is None
    True
    """
    return None


def GetContainingCondContext(ctxt: Any) -> None:
    """The cond context containing ``ctxt``: none.

    >>> GetContainingCondContext(None) is None
    True
    """
    return None


def GetContainingXLAContext(ctxt: Any) -> None:
    """The XLA context containing ``ctxt``: none (retrograd has no XLA).

    >>> GetContainingXLAContext(None) is None
    True
    """
    return None


def IsContainingContext(ctxt: Any, maybe_containing_ctxt: Any) -> bool:
    """Whether ``maybe_containing_ctxt`` contains ``ctxt``: only when it is ``ctxt``, or
    None (the root), as TensorFlow answers for contexts.

    >>> IsContainingContext(None, None)
    True
    """
    return maybe_containing_ctxt is None or ctxt is maybe_containing_ctxt


def IsInWhileLoop(op: Any) -> bool:
    """Whether ``op`` is inside a v1 while context: never.

    >>> IsInWhileLoop(None)
    False
    """
    return False


def IsInCond(op: Any) -> bool:
    """Whether ``op`` is inside a v1 cond context: never.

    >>> IsInCond(None)
    False
    """
    return False


def IsCondSwitch(op: Any) -> bool:
    """Whether ``op`` is the Switch of a v1 cond: retrograd builds none.

    >>> IsCondSwitch(None)
    False
    """
    return False


def IsCondMerge(op: Any) -> bool:
    """Whether ``op`` is the Merge of a v1 cond: retrograd builds none.

    >>> IsCondMerge(None)
    False
    """
    return False


def IsLoopSwitch(op: Any) -> bool:
    """Whether ``op`` is the Switch of a v1 loop: retrograd builds none.

    >>> IsLoopSwitch(None)
    False
    """
    return False


def IsLoopMerge(op: Any) -> bool:
    """Whether ``op`` is the Merge of a v1 loop: retrograd builds none.

    >>> IsLoopMerge(None)
    False
    """
    return False


def IsInXLAContext(op: Any) -> bool:
    """Whether ``op`` is compiled with XLA: never (retrograd has no XLA).

    >>> IsInXLAContext(None)
    False
    """
    return False


def InXlaContext(graph: Any) -> bool:
    """Whether ``graph`` is compiled with XLA: never.

    >>> InXlaContext(None)
    False
    """
    return False


def GraphOrParentsInXlaContext(graph: Any) -> bool:
    """Whether ``graph`` or a graph it is traced inside is compiled with XLA: never.

    >>> GraphOrParentsInXlaContext(None)
    False
    """
    return False


def OpInContext(op: Any, ctxt: Any) -> bool:
    """Whether ``op`` is in ``ctxt``: every op is in the root context (None).

    >>> OpInContext(None, None)
    True
    """
    return IsContainingContext(None, ctxt)


def TensorInContext(tensor: Any, ctxt: Any) -> bool:
    """Whether ``tensor``'s op is in ``ctxt``.

    >>> TensorInContext(None, None)
    True
    """
    return OpInContext(getattr(tensor, "op", None), ctxt)


def CheckInputFromValidContext(op: Any, input_op: Any) -> None:
    """Checks that ``op`` may take ``input_op``'s output: always, without contexts.

    >>> CheckInputFromValidContext(None, None)
    """


def GetLoopConstantEnter(value: Any) -> None:
    """The constant Enter op that ``value`` passes through: none.

    >>> GetLoopConstantEnter(None) is None
    True
    """
    return None


# --- tensorflow.python.util.tf_inspect ----------------------------------------------------


ArgSpec = collections.namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])
FullArgSpec = inspect.FullArgSpec


def _target(obj: Any) -> Any:
    return inspect.unwrap(obj)


def signature(obj: Any, *, follow_wrapped: bool = True) -> Signature:
    """``inspect.signature`` of what ``obj`` decorates.

    >>> str(signature(lambda x, y=1: x))
    '(x, y=1)'
    """
    return inspect.signature(obj, follow_wrapped=follow_wrapped)


def getfullargspec(obj: Any) -> inspect.FullArgSpec:
    """``inspect.getfullargspec`` of what ``obj`` decorates.

    >>> getfullargspec(lambda x, *, k=1: x).kwonlydefaults
    {'k': 1}
    """
    return inspect.getfullargspec(_target(obj))


def getargspec(obj: Any) -> ArgSpec:
    """TensorFlow's ``ArgSpec`` of ``obj`` (refused with ValueError for functions with
    keyword-only parameters, as TensorFlow does).

    >>> getargspec(lambda a, b=1: a)
    ArgSpec(args=['a', 'b'], varargs=None, keywords=None, defaults=(1,))
    """
    spec = getfullargspec(obj)
    if spec.kwonlyargs:
        raise ValueError(
            f"getargspec: {getattr(obj, '__name__', obj)!r} has keyword-only arguments "
            f"{spec.kwonlyargs}; use getfullargspec"
        )
    return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def getcallargs(func: Any, *positional: Any, **named: Any) -> dict[str, Any]:
    """The arguments a call would bind, by parameter name (defaults included).

    >>> getcallargs(lambda a, b=2: a, 1)
    {'a': 1, 'b': 2}
    """
    bound = signature(func).bind(*positional, **named)
    bound.apply_defaults()
    return dict(bound.arguments)


def getsource(obj: Any) -> str:
    """The source of what ``obj`` decorates.

    >>> getsource(getsource).splitlines()[0]
    'def getsource(obj: Any) -> str:'
    """
    return inspect.getsource(_target(obj))


def isfunction(obj: Any) -> bool:
    """Whether what ``obj`` decorates is a Python function.

    >>> isfunction(isfunction), isfunction(len)
    (True, False)
    """
    return inspect.isfunction(_target(obj))


def ismethod(obj: Any) -> bool:
    """Whether what ``obj`` decorates is a bound method.

    >>> class A:
    ...     def f(self): pass
    >>> ismethod(A().f), ismethod(A.f)
    (True, False)
    """
    return inspect.ismethod(_target(obj))


def isanytargetmethod(obj: Any) -> bool:
    """Whether ``obj`` or anything it wraps is a bound method.

    >>> isanytargetmethod(str.upper), isanytargetmethod("a".upper)
    (False, True)
    """
    while obj is not None:
        bound = inspect.ismethod(obj) or (isbuiltin(obj) and getattr(obj, "__self__", None))
        if bound and not ismodule(getattr(obj, "__self__", None)):
            return True
        obj = getattr(obj, "__wrapped__", None)
    return False


# --- tensorflow.python.framework.ops._gradient_registry ----------------------------------


class _Entries(Mapping):
    """The registry's entries as TensorFlow keeps them: op type -> ``{"type": rule,
    "location": where it was defined}`` (read live: a rule registered later is there)."""

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in gradient_registry:
            raise KeyError(name)
        rule = gradient_registry.lookup(name)
        return {"type": rule, "location": gradient_registry.location(name)}

    def __iter__(self) -> Iterator[str]:
        return iter(gradient_registry.list())

    def __len__(self) -> int:
        return len(gradient_registry.list())

    def __contains__(self, name: object) -> bool:
        return name in gradient_registry


class _GradientRegistry:
    """TensorFlow's ``ops._gradient_registry``: ``register``, ``lookup``, ``list`` and the
    ``_registry`` mapping, over retrograd's gradient registry."""

    _name = "gradient"

    def __init__(self) -> None:
        self._registry = _Entries()

    def register(self, candidate: Any, name: str | None = None) -> None:
        """Registers ``candidate`` as the gradient of op type ``name`` (its ``__name__``
        when None)."""
        gradient_registry.register(candidate, name or candidate.__name__)

    def lookup(self, name: str) -> Any:
        """The gradient of op type ``name``; LookupError when none is registered."""
        return gradient_registry.lookup(name)

    def list(self) -> list[str]:
        """Every op type with a registered gradient."""
        return gradient_registry.list()


gradient_registry_view = _GradientRegistry()
