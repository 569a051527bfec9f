"""Records which public names TensorFlow 2.21 has in each namespace retrograd answers, for
the API reference (``tensorflow_names.json``: a page of a name TensorFlow lacks says
"retrograd only").

    /work/tfenv/bin/python docs/hooks/make_tensorflow_names.py

TensorFlow is never a dependency of retrograd: only this script uses it. The namespaces are
read from retrograd's ``compat/runner.py`` (``MODULES``) as text, without importing
retrograd.
"""

import ast
import importlib
import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = pathlib.Path(__file__).parent
RUNNER = HERE.parents[1] / "src" / "retrograd" / "compat" / "runner.py"


def namespaces() -> list[str]:
    tree = ast.parse(RUNNER.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "MODULES":
            table = ast.literal_eval(node.value)
            return [n for n in table if n.startswith("tensorflow") and ".python" not in n]
    raise SystemExit("MODULES not found in compat/runner.py")


def main() -> None:
    import tensorflow as tf

    out = {}
    for name in namespaces():
        try:
            module = importlib.import_module(name)
        except ImportError:
            parts = name.split(".")[1:]
            module = tf
            for part in parts:
                module = getattr(module, part)
        out["tf" + name[len("tensorflow") :]] = sorted(
            n for n in dir(module) if not n.startswith("_")
        )
    (HERE / "tensorflow_names.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(
        f"{len(out)} namespaces, {sum(map(len, out.values()))} names, TensorFlow {tf.__version__}"
    )


if __name__ == "__main__":
    main()
