"""The layout is the architecture: one package per layer of DESIGN.md, imports only
downwards, a small top level of public namespaces, files of readable size, and public
namespaces that show only their public names."""

from __future__ import annotations

import ast
import importlib
import pathlib

import pytest

import retrograd

PACKAGE = pathlib.Path(retrograd.__file__).parent

# Layer of each package; a module may import its own layer and the layers below.
LAYERS = {
    "core": 1,
    "ops": 2,
    "autodiff": 3,
    "graph": 4,
    "checking": 5,
    "training": 6,
    "data": 6,
    "distribute": 6,
    "keras": 7,
    "compat": 7,
}
TOP = 8  # the public namespaces, the CLI and the demo

PUBLIC_NAMESPACES = [
    "retrograd",
    "retrograd.autodiff",
    "retrograd.autograph",
    "retrograd.autograph.experimental",
    "retrograd.bitwise",
    "retrograd.compat",
    "retrograd.compat.v1",
    "retrograd.compat.v1.app",
    "retrograd.compat.v1.initializers",
    "retrograd.compat.v1.layers",
    "retrograd.compat.v1.losses",
    "retrograd.compat.v1.math",
    "retrograd.compat.v1.logging",
    "retrograd.compat.v1.nn",
    "retrograd.compat.v1.summary",
    "retrograd.compat.v1.train",
    "retrograd.compat.tf_python",
    "retrograd.compat.tf_python.framework",
    "retrograd.compat.tf_python.eager",
    "retrograd.compat.tf_python.eager.backprop",
    "retrograd.compat.tf_python.eager.context",
    "retrograd.compat.tf_python.framework.constant_op",
    "retrograd.compat.tf_python.framework.dtypes",
    "retrograd.compat.tf_python.framework.errors",
    "retrograd.compat.tf_python.framework.ops",
    "retrograd.compat.tf_python.ops",
    "retrograd.compat.tf_python.ops.array_ops",
    "retrograd.compat.tf_python.ops.control_flow_util",
    "retrograd.compat.tf_python.ops.custom_gradient",
    "retrograd.compat.tf_python.ops.gen_array_ops",
    "retrograd.compat.tf_python.ops.gen_math_ops",
    "retrograd.compat.tf_python.ops.gen_nn_ops",
    "retrograd.compat.tf_python.ops.gradients_impl",
    "retrograd.compat.tf_python.ops.math_ops",
    "retrograd.compat.tf_python.ops.nn_ops",
    "retrograd.compat.tf_python.ops.variable_scope",
    "retrograd.compat.tf_python.tf2",
    "retrograd.compat.tf_python.util",
    "retrograd.compat.tf_python.util.nest",
    "retrograd.compat.tf_python.util.tf_inspect",
    "retrograd.config",
    "retrograd.config.experimental",
    "retrograd.config.optimizer",
    "retrograd.config.threading",
    "retrograd.data",
    "retrograd.data.experimental",
    "retrograd.debugging",
    "retrograd.distribute",
    "retrograd.dtypes",
    "retrograd.errors",
    "retrograd.functional",
    "retrograd.keras",
    "retrograd.keras.activations",
    "retrograd.keras.backend",
    "retrograd.keras.callbacks",
    "retrograd.keras.initializers",
    "retrograd.keras.layers",
    "retrograd.keras.losses",
    "retrograd.keras.metrics",
    "retrograd.keras.constraints",
    "retrograd.keras.mixed_precision",
    "retrograd.keras.models",
    "retrograd.keras.ops",
    "retrograd.keras.ops.image",
    "retrograd.keras.ops.linalg",
    "retrograd.keras.ops.nn",
    "retrograd.keras.ops.numpy",
    "retrograd.keras.optimizers",
    "retrograd.keras.optimizers.legacy",
    "retrograd.keras.optimizers.schedules",
    "retrograd.keras.regularizers",
    "retrograd.keras.utils",
    "retrograd.linalg",
    "retrograd.math",
    "retrograd.math.special",
    "retrograd.nn.experimental",
    "retrograd.random.experimental",
    "retrograd.nest",
    "retrograd.nn",
    "retrograd.optimizers",
    "retrograd.random",
    "retrograd.test",
    "retrograd.train",
]


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return TOP
    return LAYERS.get(parts[1], TOP)


def _modules() -> list[tuple[str, pathlib.Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return found


def _imports(path: pathlib.Path) -> list[tuple[int, str]]:
    """Every module of retrograd imported anywhere in the file (lazy imports included)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("retrograd"):
                names.append((node.lineno, node.module))
                names += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            names += [(node.lineno, a.name) for a in node.names if a.name.startswith("retrograd")]
    return [(line, name) for line, name in names if _is_module(name)]


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


@pytest.mark.parametrize("module, path", _modules(), ids=[m for m, _ in _modules()])
def test_imports_point_downwards(module, path):
    if module.split(".")[-1] in ("__main__",) or module == "retrograd":
        return
    upward = [
        f"line {line}: {name}"
        for line, name in _imports(path)
        if name != "retrograd" and _layer(name) > _layer(module)
    ]
    assert not upward, f"{module} (layer {_layer(module)}) imports from above: {upward}"


def test_the_top_level_holds_at_most_fifteen_files():
    files = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(files) <= 15, files


@pytest.mark.parametrize("module, path", _modules(), ids=[m for m, _ in _modules()])
def test_files_stay_readable(module, path):
    assert len(path.read_text().splitlines()) <= 520, f"{path} has grown past ~500 lines"


PACKAGES = [m for m, path in _modules() if path.name == "__init__.py"]


@pytest.mark.parametrize("name", sorted(set(PACKAGES + PUBLIC_NAMESPACES)))
def test_packages_and_namespaces_declare_all(name):
    assert "__all__" in vars(importlib.import_module(name)), f"{name} has no __all__"


@pytest.mark.parametrize("name", PUBLIC_NAMESPACES)
def test_public_namespaces_show_only_public_names(name):
    namespace = importlib.import_module(name)
    public = set(namespace.__all__)
    missing = [n for n in public if not hasattr(namespace, n)]
    assert not missing, f"{name}.__all__ names what it does not hold: {missing}"
    extra = {
        n
        for n, value in vars(namespace).items()
        if not n.startswith("_") and n not in public and not _is_subpackage(name, value)
    }
    assert not extra, f"dir({name}) shows names outside __all__: {sorted(extra)}"


def _is_subpackage(name: str, value: object) -> bool:
    """Submodules of a package are bound on it by Python's import system."""
    return getattr(value, "__name__", "").startswith(name + ".") and hasattr(value, "__file__")


# Mechanisms DESIGN.md rules out: behaviour decided from reference counts, the collector
# switched or frozen under the user, C calls through ctypes, process-wide warning filters.
_RULED_OUT = {
    "getrefcount": "reference counts",
    "gc.disable": "collector switching",
    "gc.freeze": "collector freezing",
    "gc.callbacks": "collector callbacks",
    "ctypes": "ctypes",
}


@pytest.mark.parametrize("module, path", _modules(), ids=[m for m, _ in _modules()])
def test_no_mechanism_the_design_rules_out(module, path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        text = ast.unparse(node) if isinstance(node, (ast.Attribute, ast.Name)) else ""
        for pattern, what in _RULED_OUT.items():
            assert pattern not in text.split("(")[0], f"{module}: {what} ({text})"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            assert not any(n.split(".")[0] == "ctypes" for n in names), f"{module}: ctypes"
    for statement in tree.body:  # module level: no warning filter for the whole process
        call = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(call, ast.Call):
            assert ast.unparse(call.func) not in (
                "warnings.filterwarnings",
                "warnings.simplefilter",
            ), f"{module}: a process-wide warning filter"


@pytest.mark.parametrize("module, path", _modules(), ids=[m for m, _ in _modules()])
def test_only_the_tape_reads_its_private_fields(module, path):
    # Other modules use the tape's public protocol (tracks, record, producer, producers...).
    if module == "retrograd.autodiff.tape":
        return
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            owner = ast.unparse(node.value)
            assert "tape" not in owner.split(".")[-1].lower() or node.attr.startswith("__"), (
                f"{module}: {owner}.{node.attr}"
            )
