"""retrograd measured against TensorFlow 2.21's public API (data/tf_api.json, made on
TensorFlow by data/make_snapshot.py): which names exist, which accept TensorFlow's
parameters with TensorFlow's defaults, and the committed baseline that may only grow.

A name is *present* when the attribute path a program uses (``tf.keras.layers.Dense``)
gives an object. It is *conformant* when it is present and, if callable, its signature
accepts TensorFlow's: every parameter TensorFlow names exists under that name (positional
ones at the same position, so ``f(a, b)`` means the same), a parameter with a default in
TensorFlow has one in retrograd, the same where both are plain values, dtypes, enum members
or named objects, and ``*args``/``**kwargs`` are taken where TensorFlow takes them; a class
in TensorFlow is a class here. For a class, its public methods and properties (those the
class defines below its nearest listed base) are *members*, checked the same way.
"""

from __future__ import annotations

import enum
import inspect
import json
import math
import pathlib
import re
from dataclasses import dataclass, field

from tests.conformance import omissions

HERE = pathlib.Path(__file__).parent
SNAPSHOT = HERE / "data" / "tf_api.json"
BASELINE = HERE / "baseline"
KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "p",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "pk",
    inspect.Parameter.KEYWORD_ONLY: "k",
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.VAR_KEYWORD: "**",
}
COMPARED = ("value", "float", "dtype", "enum", "object")
_MISSING = object()


def load_snapshot() -> dict:
    return json.loads(SNAPSHOT.read_text())


def resolve(path: str):
    """The retrograd object a program reaches by ``path`` (``tf.keras.layers``), or None."""
    import retrograd

    obj = retrograd
    for part in path.split(".")[1:]:
        obj = lookup(obj, part)
        if obj is _MISSING:
            return None
    return obj


def lookup(obj, name: str):
    try:
        return getattr(obj, name)
    except Exception:  # a namespace's __getattr__ refusing the name counts as missing
        return _MISSING


def encode_default(value) -> dict:
    """retrograd's defaults in the snapshot's encoding (data/make_snapshot.py)."""
    if value is None or isinstance(value, (bool, int, str)):
        return {"value": value}
    if isinstance(value, float):
        return {"value": value} if math.isfinite(value) else {"float": repr(value)}
    if _plain(value):
        return {"value": _listed(value)}
    if type(value).__name__ == "DType" and hasattr(value, "as_numpy_dtype"):
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


def show_default(encoded: dict) -> str:
    key, value = next(iter(encoded.items()))
    if key == "value":
        return repr(tuple(value) if isinstance(value, list) else value)
    return f"tf.{value}" if key == "dtype" else str(value)


def same_default(theirs: dict, ours: dict) -> bool:
    (tkey, tval), (okey, oval) = next(iter(theirs.items())), next(iter(ours.items()))
    if tkey not in COMPARED:
        return True  # TensorFlow's default is an object shown by its repr: not compared
    if {tkey, okey} == {"dtype", "value"}:  # tf.float32 and "float32" choose the same
        return tval == oval
    if tkey != okey:
        return False
    if tkey == "value" and isinstance(tval, (bool, int, float)) and tval is not None:
        return isinstance(oval, bool) == isinstance(tval, bool) and oval == tval
    return tval == oval


def signature_of(obj, drop_self: bool = False) -> list | None:
    try:
        signature = inspect.signature(obj)
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


def compare(theirs: list | None, ours: list | None) -> list[str]:
    """What keeps a call written for TensorFlow's signature ``theirs`` from meaning the
    same with retrograd's ``ours`` (both as [name, kind, default?] lists)."""
    if theirs is None:
        return []
    if ours is None:
        return ["retrograd's signature cannot be read"]
    problems = []
    by_name = {p[0]: p for p in ours if p[1] not in ("*", "**")}
    our_kinds = {p[1] for p in ours}
    positional = [p for p in ours if p[1] in ("p", "pk")]
    reported = set()
    for index, param in enumerate(p for p in theirs if p[1] in ("p", "pk")):
        if param[0] not in by_name and param[1] == "pk":
            continue  # reported below as missing
        if index >= len(positional):
            if "*" not in our_kinds:
                problems.append(f"takes {param[0]!r} positionally (position {index + 1})")
        elif param[1] == "pk" and positional[index][0] != param[0]:
            reported.add(positional[index][0])
            problems.append(
                f"position {index + 1} is {param[0]!r} (retrograd: {positional[index][0]!r})"
            )
    for param in theirs:
        name, kind = param[0], param[1]
        if kind in ("*", "**"):
            if kind not in our_kinds:
                problems.append(f"takes {'*' if kind == '*' else '**'}{name}")
            continue
        ours_param = by_name.get(name)
        if ours_param is None:
            if kind != "p":
                problems.append(f"no parameter {name!r}")
            continue
        if len(param) == 3 and len(ours_param) < 3:
            problems.append(f"{name!r} is required (TensorFlow: {show_default(param[2])})")
        elif len(param) == 3 and not same_default(param[2], ours_param[2]):
            problems.append(
                f"{name!r} defaults to {show_default(ours_param[2])} "
                f"(TensorFlow: {show_default(param[2])})"
            )
    known = {p[0] for p in theirs}
    their_positional = len([p for p in theirs if p[1] in ("p", "pk")])
    for index, param in enumerate(ours):
        if len(param) == 3 or param[1] in ("*", "**") or param[0] in known | reported:
            continue
        if param[1] == "p" and index < their_positional:
            continue  # positional-only: its name is not part of the call
        problems.append(f"requires {param[0]!r}, which TensorFlow does not have")
    return problems


def check_name(entry: dict, obj) -> list[str]:
    """Problems of a present object against its snapshot entry (empty: conformant)."""
    kind = entry["kind"]
    if kind == "class":
        if not isinstance(obj, type):
            return [f"is a class in TensorFlow; retrograd's is a {type(obj).__name__}"]
        ours = signature_of(obj.__init__, drop_self=True)
        if ours in (None, [["args", "*"], ["kwargs", "**"]]):
            ours = signature_of(obj)
        return compare(entry.get("params"), ours)
    if kind == "function":
        if not callable(obj):
            return [f"is callable in TensorFlow; retrograd's is a {type(obj).__name__}"]
        return compare(entry.get("params"), signature_of(obj))
    if kind == "constant" and "dtype" in entry and getattr(obj, "name", None) != entry["dtype"]:
        return [f"is the dtype {entry['dtype']}; retrograd's is {obj!r}"]
    if kind == "constant" and "value" in entry and obj != entry["value"]:
        return [f"is {entry['value']!r}; retrograd's is {obj!r}"]
    return []


def check_member(entry: dict, cls, name: str) -> tuple[bool, list[str]]:
    """(present, problems) of a method or property of ``cls``."""
    static = _MISSING
    for base in cls.__mro__:
        if name in vars(base):
            static = vars(base)[name]
            break
    if static is _MISSING:
        if lookup(cls, name) is _MISSING:
            return False, []
        static = lookup(cls, name)
    if entry["kind"] == "property":
        if inspect.isfunction(static):
            return True, ["is a property in TensorFlow; retrograd's is a method"]
        return True, []
    if isinstance(static, property) or not callable(lookup(cls, name)):
        return True, ["is a method in TensorFlow; retrograd's is not callable"]
    if isinstance(static, staticmethod):
        ours = signature_of(static.__func__)
    elif isinstance(static, classmethod):
        ours = signature_of(static.__func__, drop_self=True)
    else:
        ours = signature_of(lookup(cls, name), drop_self=inspect.isfunction(static))
    return True, compare(entry.get("params"), ours)


@dataclass
class Namespace:
    """One namespace's standing: names (constants, functions, classes) and members."""

    path: str
    unavailable: str = ""
    found: bool = True
    names: list[str] = field(default_factory=list)
    present: set[str] = field(default_factory=set)
    conformant: set[str] = field(default_factory=set)
    problems: dict[str, list[str]] = field(default_factory=dict)
    modules: list[str] = field(default_factory=list)
    modules_present: set[str] = field(default_factory=set)
    members: list[str] = field(default_factory=list)
    members_present: set[str] = field(default_factory=set)
    members_conformant: set[str] = field(default_factory=set)
    member_problems: dict[str, list[str]] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        return [n for n in self.names if n not in self.present]

    def standing(self) -> dict:
        """What the baseline keeps of it (sorted, so that files merge line by line); the
        differences are kept for the page, not held as a floor."""
        return {
            "present": sorted(self.present),
            "conformant": sorted(self.conformant),
            "modules": sorted(self.modules_present),
            "members": sorted(self.members_present),
            "members_conformant": sorted(self.members_conformant),
            "differences": {
                n: "; ".join(why)
                for n, why in sorted(self.problems.items())
                if n not in self.conformant
            },
        }


def survey(snapshot: dict | None = None) -> dict[str, Namespace]:
    snapshot = snapshot or load_snapshot()
    result = {}
    for path, data in snapshot["namespaces"].items():
        ns = Namespace(path, unavailable=data.get("unavailable", ""))
        result[path] = ns
        module = resolve(path)
        ns.found = module is not None
        for name, entry in data["names"].items():
            if entry["kind"] == "module":
                ns.modules.append(name)
            else:
                ns.names.append(name)
            obj = _MISSING if module is None else lookup(module, name)
            if obj is _MISSING:
                if entry["kind"] == "class":
                    ns.members += [f"{name}.{m}" for m in entry["members"]]
                continue
            if entry["kind"] == "module":
                ns.modules_present.add(name)
                continue
            ns.present.add(name)
            problems = check_name(entry, obj)
            if problems:
                ns.problems[name] = problems
            if not problems or omissions.reason(omissions.SIGNATURES, f"{path}.{name}"):
                ns.conformant.add(name)
            if entry["kind"] != "class":
                continue
            for member, member_entry in entry["members"].items():
                key = f"{name}.{member}"
                ns.members.append(key)
                if not isinstance(obj, type):
                    continue
                present, problems = check_member(member_entry, obj, member)
                if not present:
                    continue
                ns.members_present.add(key)
                if problems:
                    ns.member_problems[key] = problems
                else:
                    ns.members_conformant.add(key)
    return result


def baseline_file(path: str) -> pathlib.Path:
    return BASELINE / f"{path}.json"


FLOORS = ("present", "conformant", "modules", "members", "members_conformant")


def load_baseline(path: str) -> dict:
    file = baseline_file(path)
    empty: dict = {key: [] for key in FLOORS}
    empty["differences"] = {}
    return {**empty, **json.loads(file.read_text())} if file.exists() else empty


def dump_baseline(standing: dict) -> str:
    """One name per line: two branches adding names merge without conflicts."""
    parts = []
    for key, names in standing.items():
        if isinstance(names, dict):
            lines = [f"  {json.dumps(n)}: {json.dumps(why)}" for n, why in names.items()]
            parts.append(f" {json.dumps(key)}: {{\n" + ",\n".join(lines) + "\n }")
        else:
            lines = [f"  {json.dumps(n)}" for n in names]
            parts.append(f" {json.dumps(key)}: [\n" + ",\n".join(lines) + "\n ]")
        if not names:
            parts[-1] = f" {json.dumps(key)}: {'{}' if isinstance(names, dict) else '[]'}"
    return "{\n" + ",\n".join(parts) + "\n}\n"


def regressions(ns: Namespace) -> list[str]:
    """What the committed baseline holds that retrograd no longer satisfies."""
    before, now = load_baseline(ns.path), ns.standing()
    lost = []
    for key in FLOORS:
        for name in sorted(set(before[key]) - set(now[key])):
            why = ns.problems.get(name) or ns.member_problems.get(name) or ["missing"]
            lost.append(f"{ns.path}.{name} ({key}): {'; '.join(why)}")
    return lost


def gains(ns: Namespace) -> int:
    before, now = load_baseline(ns.path), ns.standing()
    return sum(len(set(now[k]) - set(before[k])) for k in FLOORS)
