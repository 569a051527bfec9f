"""``tensorflow.python.util.tf_inspect``: Python's ``inspect`` seen through decorators
(``functools.wraps`` chains), with TensorFlow's ``getargspec`` (``ArgSpec(args, varargs,
keywords, defaults)``), which Python 3.11 no longer has.

>>> from retrograd.compat.tf_python.util import tf_inspect
>>> tf_inspect.getargspec(lambda a, b=2, *rest, **options: a)
ArgSpec(args=['a', 'b'], varargs='rest', keywords='options', defaults=(2,))
"""

from inspect import (
    FullArgSpec,
    Parameter,
    Signature,
    currentframe,
    getdoc,
    getfile,
    getframeinfo,
    getmembers,
    getmodule,
    getmro,
    getsourcefile,
    getsourcelines,
    isbuiltin,
    isclass,
    isframe,
    isgenerator,
    isgeneratorfunction,
    ismodule,
    isroutine,
    stack,
)

from retrograd.compat.private_modules import (
    ArgSpec,
    getargspec,
    getcallargs,
    getfullargspec,
    getsource,
    isanytargetmethod,
    isfunction,
    ismethod,
    signature,
)

__all__ = [
    "ArgSpec", "FullArgSpec", "Parameter", "Signature", "currentframe", "getargspec",
    "getcallargs", "getdoc", "getfile", "getframeinfo", "getfullargspec", "getmembers",
    "getmodule", "getmro", "getsource", "getsourcefile", "getsourcelines", "isanytargetmethod",
    "isbuiltin", "isclass", "isframe", "isfunction", "isgenerator", "isgeneratorfunction",
    "ismethod", "ismodule", "isroutine", "signature", "stack",
]  # fmt: skip
