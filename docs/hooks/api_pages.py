"""MkDocs hook: the API reference, one page per namespace and one per class or function.

The namespaces are TensorFlow's module paths that ``retrograd run`` answers
(``retrograd.compat.runner.MODULES``: ``tf``, ``tf.math``, ``tf.keras.layers``, ...). Each
gets a page listing its members with their one-line summaries; each class and function
gets a page of its own (``api/tf/math/sin.md``, titled ``tf.math.sin``), as TensorFlow's
reference has, rendered by mkdocstrings from the docstring. An object reachable under
several names (``tf.sin`` and ``tf.math.sin``) has one page, under the first namespace
listing it, and the others link to it. ``tensorflow_names.json`` (made by
``make_tensorflow_names.py`` on real TensorFlow) says which names TensorFlow has: a page of
a name it lacks says "retrograd only". Nothing is written to ``docs/``: the pages are
generated into the build.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SKIPPED = {"tensorflow.compat", "tensorflow.compat.v2"}  # no members / the same as tf
# Where an object reachable under several names has its page (TensorFlow's choice): the
# op namespaces before tf (tf.math.sin, not tf.sin), tf before the rest, compat.v1 last.
FIRST = ("tensorflow.math", "tensorflow.nn", "tensorflow.linalg", "tensorflow.random",
         "tensorflow.bitwise", "tensorflow.dtypes", "tensorflow.errors")  # fmt: skip


def _modules() -> dict[str, str]:
    """TensorFlow module path -> retrograd module, public namespaces only, ``tf`` first."""
    sys.path.insert(0, str(ROOT / "src"))
    from retrograd.compat.runner import MODULES

    found = {
        name: target
        for name, target in MODULES.items()
        if name.startswith("tensorflow") and ".python" not in name and name not in SKIPPED
    }
    order = sorted(found, key=lambda n: (n != "tensorflow", n))
    return {n: found[n] for n in order}


def _preference(item: tuple[str, str]) -> tuple[int, int]:
    """Which namespaces claim an object's page first (see FIRST); stable within a rank."""
    name = item[0]
    if name in FIRST:
        return (0, FIRST.index(name))
    if name == "tensorflow":
        return (1, 0)
    return (3, 0) if name.startswith("tensorflow.compat") else (2, 0)


def tf_path(name: str) -> str:
    """``tensorflow.keras.layers`` -> ``tf.keras.layers``."""
    return "tf" + name[len("tensorflow") :]


def page_of(tf_name: str) -> str:
    """The page of a namespace: ``tf.keras.layers`` -> ``api/tf/keras/layers.md``."""
    return "api/" + tf_name.replace(".", "/") + ".md"


def _members(module: Any) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return [n for n in names if not n.startswith("_")]


def _documented(value: Any) -> bool:
    """A class or function (what gets a page of its own; not a type alias like TensorLike)."""
    return inspect.isclass(value) or inspect.isroutine(value)


def _summary(value: Any) -> str:
    doc = inspect.getdoc(value) or ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return first.replace("|", "\\|")


def _tensorflow_names() -> dict[str, list[str]]:
    path = HERE / "tensorflow_names.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


class Reference:
    """Every page of the reference, made once per build."""

    def __init__(self) -> None:
        self.modules = _modules()
        self.tensorflow = _tensorflow_names()
        self.pages: dict[str, str] = {}  # path in the site -> Markdown
        self.canonical: dict[int, tuple[str, str, str]] = {}  # id -> (tf name, page, module)
        self.aliases: dict[int, list[str]] = {}
        self._kept: list[Any] = []  # the objects whose ids key the maps above
        self._kept_by_id: dict[int, Any] = {}
        for tf_module, module_name in sorted(self.modules.items(), key=_preference):
            module = importlib.import_module(module_name)
            for name in _members(module):
                value = getattr(module, name, None)
                if not _documented(value):
                    continue
                self._kept.append(value)
                self._kept_by_id[id(value)] = value
                full = f"{tf_path(tf_module)}.{name}"
                if id(value) in self.canonical:
                    self.aliases.setdefault(id(value), []).append(full)
                    continue
                self.canonical[id(value)] = (full, self._file_name(tf_module, name), module_name)
        for tf_module, module_name in self.modules.items():
            self._namespace_page(tf_module, module_name)
        for key, (full, path, module_name) in self.canonical.items():
            self.pages[path] = self._object_page(key, full, module_name)
        self.pages["api/index.md"] = self._index()

    def _file_name(self, tf_module: str, name: str) -> str:
        folder = page_of(tf_path(tf_module))[: -len(".md")]
        path = f"{folder}/{name}.md"
        taken = {p.lower() for _, p, _ in self.canonical.values()}
        if path.lower() in taken:  # Huber and huber: distinct on every file system
            path = f"{folder}/{name}-function.md"
        return path

    def in_tensorflow(self, full: str) -> bool | None:
        module, _, name = full.rpartition(".")
        names = self.tensorflow.get(module)
        return None if names is None else name in names

    def _namespace_page(self, tf_module: str, module_name: str) -> None:
        module = importlib.import_module(module_name)
        title = tf_path(tf_module)
        here = page_of(title)
        doc = (inspect.getdoc(module) or "").strip()
        intro = doc.split("\n\n")[0] if doc else ""
        lines = [f"# {title}", "", f"`{module_name}` — " + intro if intro else f"`{module_name}`"]
        lines += ["", "| Name | Summary |", "| --- | --- |"]
        others = []
        for name in _members(module):
            value = getattr(module, name, None)
            if not _documented(value):
                if not inspect.ismodule(value):
                    others.append(f"- `{title}.{name}`: `{_short_repr(value)}`")
                continue
            full, path, _ = self.canonical[id(value)]
            link = _relative(here, path)
            alias = f" (alias of `{full}`)" if full != f"{title}.{name}" else ""
            lines.append(f"| [`{name}`]({link}){alias} | {_summary(value)} |")
        submodules = [n for n in self.modules if n.startswith(tf_module + ".")]
        submodules = [n for n in submodules if "." not in n[len(tf_module) + 1 :]]
        if others:
            lines += ["", "## Other members", "", *others]
        if submodules:
            lines += ["", "## Modules", ""]
            lines += [
                f"- [`{tf_path(n)}`]({_relative(here, page_of(tf_path(n)))})" for n in submodules
            ]
        self.pages[here] = "\n".join(lines) + "\n"

    def _object_page(self, key: int, full: str, module_name: str) -> str:
        name = full.rpartition(".")[2]
        lines = [f"# {full}", ""]
        known = self.in_tensorflow(full)
        if known is False:
            lines += ['!!! note "retrograd only"', f"    TensorFlow has no `{full}`.", ""]
        aliases = self.aliases.get(key, [])
        if aliases:
            lines += ["Also reachable as " + ", ".join(f"`{a}`" for a in aliases) + ".", ""]
        value = self._kept_by_id[key]
        if not _resolvable(value):  # made by a factory: mkdocstrings cannot find its source
            return "\n".join(lines + _plain_page(name, value)) + "\n"
        lines += [
            f"::: {module_name}.{name}",
            "    options:",
            "      show_root_heading: true",
            "      show_root_full_path: false",
            "      heading_level: 2",
        ]
        return "\n".join(lines) + "\n"

    def _index(self) -> str:
        lines = [
            "# API reference",
            "",
            "retrograd's public API under TensorFlow's names: `import retrograd as tf`, then",
            "`tf.GradientTape`, `tf.math.sin`, `tf.keras.layers.Dense`. One page per namespace,",
            "one per class and function; names TensorFlow lacks are marked *retrograd only*.",
            "",
        ]
        for tf_module, module_name in self.modules.items():
            title = tf_path(tf_module)
            lines.append(
                f"- [`{title}`]({_relative('api/index.md', page_of(title))}) (`{module_name}`)"
            )
        return "\n".join(lines) + "\n"

    def nav(self) -> list:
        """The navigation's API section: the overview, then each namespace."""
        entries: list = [{"Overview": "api/index.md"}]
        for tf_module in self.modules:
            title = tf_path(tf_module)
            entries.append({title: page_of(title)})
        return entries


def _resolvable(value: Any) -> bool:
    """Whether mkdocstrings can render ``value`` from its source: a class, or a function
    written with ``def`` under its own name, found again at ``__module__`` and
    ``__qualname__``. A function a factory made (``relu = unary_op(...)``, a ``<locals>``
    one) or a wrapper is not: its page is made from the live object instead."""
    code = getattr(value, "__code__", None)
    if not inspect.isclass(value) and (code is None or code.co_name != value.__name__):
        return False
    module = sys.modules.get(getattr(value, "__module__", "") or "")
    found: Any = module
    for part in (getattr(value, "__qualname__", "") or "<>").split("."):
        found = getattr(found, part, None)
    return found is value


def _plain_page(name: str, value: Any) -> list[str]:
    """The signature and docstring of ``value`` as Markdown (for what mkdocstrings cannot
    reach), its examples fenced and written with ``tf.``, as the extension does."""
    spec = importlib.util.spec_from_file_location(
        "doctest_fences", HERE.parent / "extensions" / "doctest_fences.py"
    )
    fences = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fences)  # (the griffe extension's own functions)
    doc = inspect.getdoc(value) or ""
    return [
        "```python",
        signature_text(name, value),
        "```",
        "",
        fences.as_tf(fences.fence_doctests(doc)),
    ]


def signature_text(name: str, value: Any, width: int = 88) -> str:
    """``name(a: T = 1, ...) -> R`` with annotations as written (not quoted), one parameter
    per line when it does not fit in ``width``."""
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return f"{name}(...)"

    def text(annotation: Any) -> str:
        return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)

    parts = []
    for p in signature.parameters.values():
        part = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        if p.annotation is not p.empty:
            part += f": {text(p.annotation)}"
        if p.default is not p.empty:
            part += f" = {p.default!r}" if p.annotation is not p.empty else f"={p.default!r}"
        parts.append(part)
    empty = inspect.Signature.empty
    returns = (
        "" if signature.return_annotation is empty else f" -> {text(signature.return_annotation)}"
    )
    one_line = f"{name}({', '.join(parts)}){returns}"
    if len(one_line) <= width:
        return one_line
    return f"{name}(\n" + "".join(f"    {part},\n" for part in parts) + f"){returns}"


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _relative(start: str, target: str) -> str:
    return os.path.relpath(target, os.path.dirname(start) or ".").replace(os.sep, "/")


_reference: Reference | None = None


def _get() -> Reference:
    global _reference
    if _reference is None:
        _reference = Reference()
    return _reference


def on_config(config: Any) -> Any:
    nav = config.get("nav") or []
    nav = [entry for entry in nav if not (isinstance(entry, dict) and "API reference" in entry)]
    tools = {"Tools (traces, checks, progress)": "api/tools.md"}
    nav.append({"API reference": [*_get().nav(), tools]})
    config["nav"] = nav
    return config


def on_files(files: Files, config: Any) -> Files:
    for path, text in _get().pages.items():
        files.append(File.generated(config, path, content=text))
    return files
