"""Writes tf_api.json: TensorFlow 2.21's public API (with Keras 3) as retrograd's spec.

For every namespace of issue 22 it lists each public name with its kind (function, class,
module, constant), and for functions and classes the parameters with their kinds and
defaults; for classes also the public methods and properties that the class itself (or a
private base) defines, up to its nearest base that the snapshot lists on its own. The
conformance test (test_api_conformance.py) reads it; retrograd never imports TensorFlow.

Run with TensorFlow's interpreter (never a dependency of retrograd):

    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES= /work/tfenv/bin/python \\
        tests/conformance/data/make_snapshot.py
"""

from __future__ import annotations

import enum
import inspect
import json
import math
import os
import pathlib
import re
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import tensorflow as tf  # noqa: E402

import keras  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[3]))
from tests.conformance.namespaces import NAMESPACES  # noqa: E402

OUT = pathlib.Path(__file__).parent / "tf_api.json"
KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "p",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "pk",
    inspect.Parameter.KEYWORD_ONLY: "k",
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.VAR_KEYWORD: "**",
}


def resolve(path: str):
    """``tf.keras.layers`` -> the module TensorFlow gives for that attribute path."""
    obj = tf
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def encode_default(value) -> dict:
    """A default as JSON: a plain value, a dtype, an enum member, a named object, or a repr
    (reprs are shown, never compared)."""
    if value is None or isinstance(value, (bool, int, str)):
        return {"value": value}
    if isinstance(value, float):
        return {"value": value} if math.isfinite(value) else {"float": repr(value)}
    if _plain(value):
        return {"value": _listed(value)}
    if isinstance(value, tf.dtypes.DType):
        return {"dtype": value.name}
    if isinstance(value, enum.Enum):
        return {"enum": f"{type(value).__name__}.{value.name}"}
    if isinstance(value, type) or inspect.isfunction(value):
        return {"object": value.__name__}
    return {"repr": re.sub(r" at 0x[0-9a-f]+", "", repr(value))[:80]}


def _plain(value) -> bool:
    """None, bools, numbers and strings, in tuples and lists (nested)."""
    if isinstance(value, (tuple, list)):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (bool, int, str, float))


def _listed(value):
    return [_listed(v) for v in value] if isinstance(value, (tuple, list)) else value


def parameters(fn, drop_self: bool = False) -> list | None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = []
    for k, p in enumerate(signature.parameters.values()):
        if drop_self and k == 0 and p.kind != inspect.Parameter.VAR_POSITIONAL:
            continue
        entry = [p.name, KINDS[p.kind]]
        if p.default is not inspect.Parameter.empty:
            entry.append(encode_default(p.default))
        out.append(entry)
    return out


def constant(value) -> dict:
    entry = {"kind": "constant", "type": type(value).__name__}
    if isinstance(value, tf.dtypes.DType):
        entry["dtype"] = value.name
    elif value is None or isinstance(value, (bool, int, str)) or _finite(value):
        entry["value"] = value
    return entry


def _finite(value) -> bool:
    return isinstance(value, float) and math.isfinite(value)


def members(cls, listed: set[int]) -> tuple[dict, list[str]]:
    """Public methods and properties of ``cls`` and of its bases up to the nearest one the
    snapshot lists itself (those are checked there), and the names of those bases."""
    found: dict = {}
    bases = []
    for base in cls.__mro__:
        if base is object:
            break
        if base is not cls and id(base) in listed:
            bases.append(f"{base.__module__}.{base.__qualname__}")
            break
        for name, attr in vars(base).items():
            if name in found or (name.startswith("_") and name != "__call__"):
                continue
            if isinstance(attr, property):
                found[name] = {"kind": "property"}
            elif isinstance(attr, (staticmethod, classmethod)):
                found[name] = {"kind": "method", "params": parameters(attr.__func__, True)}
                if isinstance(attr, staticmethod):
                    found[name]["params"] = parameters(attr.__func__)
            elif inspect.isfunction(attr):
                found[name] = {"kind": "method", "params": parameters(attr, True)}
    return dict(sorted(found.items())), bases


def describe(value, listed: set[int]) -> dict:
    if inspect.ismodule(value) or type(value).__name__ in ("KerasLazyLoader", "TFModuleWrapper"):
        return {"kind": "module"}
    if isinstance(value, type):
        entry = {"kind": "class", "params": parameters(value.__init__, True)}
        if entry["params"] in (None, [["args", "*"], ["kwargs", "**"]]):
            entry["params"] = parameters(value)
        entry["members"], entry["bases"] = members(value, listed)
        return entry
    if callable(value) and not isinstance(value, tf.dtypes.DType):
        return {"kind": "function", "params": parameters(value)}
    return constant(value)


def public_names(module) -> list[str]:
    return sorted(n for n in dir(module) if not n.startswith("_"))


def dumps(snapshot: dict) -> str:
    """JSON with one line per name, so that a new TensorFlow version diffs name by name."""
    compact = lambda value: json.dumps(value, separators=(",", ":"))
    lines = ["{"]
    for key, value in snapshot.items():
        if key != "namespaces":
            lines.append(f" {compact(key)}: {compact(value)},")
    lines.append(' "namespaces": {')
    for k, (path, namespace) in enumerate(snapshot["namespaces"].items()):
        lines.append(f"  {compact(path)}: {{")
        if "unavailable" in namespace:
            lines.append(f'   "unavailable": {compact(namespace["unavailable"])},')
        lines.append('   "names": {')
        names = list(namespace["names"].items())
        lines += [
            f"    {compact(n)}: {compact(e)}" + ("," if j < len(names) - 1 else "")
            for j, (n, e) in enumerate(names)
        ]
        lines.append("   }")
        lines.append("  }" + ("," if k < len(snapshot["namespaces"]) - 1 else ""))
    lines += [" }", "}", ""]
    return "\n".join(lines)


def main() -> None:
    warnings.simplefilter("ignore")
    modules: dict[str, object] = {}
    failures: dict[str, str] = {}
    for path in NAMESPACES:
        try:
            modules[path] = resolve(path)
            public_names(modules[path])
        except Exception as error:  # TensorFlow's own namespace fails to load
            modules.pop(path, None)
            failures[path] = f"{type(error).__name__}: {error}"
    listed = {
        id(getattr(m, n))
        for m in modules.values()
        for n in public_names(m)
        if isinstance(getattr(m, n, None), type)
    }
    first_home: dict[int, str] = {}
    namespaces = {}
    for path in NAMESPACES:
        if path in failures:
            namespaces[path] = {"unavailable": failures[path], "names": {}}
            continue
        module = modules[path]
        names = {}
        for name in public_names(module):
            value = getattr(module, name)
            entry = describe(value, listed)
            if entry["kind"] != "constant" and entry["kind"] != "module":
                home = first_home.setdefault(id(value), f"{path}.{name}")
                if home != f"{path}.{name}":
                    entry["same_as"] = home
            names[name] = entry
        namespaces[path] = {"names": names}
    top_level = {n for n in public_names(tf) if inspect.ismodule(getattr(tf, n, None))}
    snapshot = {
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "made_by": "tests/conformance/data/make_snapshot.py",
        "tf_modules": sorted(top_level),
        "namespaces": namespaces,
    }
    OUT.parent.mkdir(exist_ok=True)
    text = dumps(snapshot)
    OUT.write_text(text)
    total = sum(
        1 for ns in namespaces.values() for e in ns["names"].values() if e["kind"] != "module"
    )
    print(f"{OUT}: {len(namespaces)} namespaces, {total} names, {len(text) // 1024} KiB")
    for path, reason in failures.items():
        print(f"  {path} unavailable in TensorFlow itself: {reason}")


if __name__ == "__main__":
    main()
