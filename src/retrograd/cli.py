"""The commands behind ``python -m retrograd``: ``demo``, ``run``, ``trace`` and ``check``.

``run [--tf1] script.py [ARGS...]`` runs an unmodified TensorFlow program on retrograd
(``import tensorflow`` gives retrograd; ``--tf1`` gives the TensorFlow 1 namespace in graph
mode).
``trace script.py [-o trace.html] [-- script args]`` runs a script with a trace recording
and writes the picture (``.html``, ``.svg`` or ``.dot`` by the output's extension), then
prints the backward table and the rules report. ``check module:function [ARG ...]``
runs ``check_gradients`` on a function from the shell; arguments are Python literals
(``1.5``, ``"[1.0, 2.0]"``) or random arrays of the shapes given with ``--shapes``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import runpy
import sys
import traceback
from typing import Any

import numpy as np

TABLE_ROWS = 40  # rows of the backward table printed by `trace`; the page has them all


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m retrograd",
        description="retrograd: TensorFlow's custom gradients on NumPy, checked and explained.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="walk through the seed programs: custom gradients explained")

    run = commands.add_parser(
        "run",
        help="run an unmodified TensorFlow program on retrograd",
        description="Runs SCRIPT with `import tensorflow` answered by retrograd; arguments after "
        "SCRIPT go to the script.",
    )
    run.add_argument(
        "--tf1",
        action="store_true",
        help="`tensorflow` is the TensorFlow 1 namespace (compat.v1), in graph mode",
    )
    run.add_argument("script", help="the Python script to run")
    run.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments for the script")

    trace = commands.add_parser(
        "trace",
        help="run a script, recording every backward pass; write it as a page",
        description="Runs SCRIPT with a trace recording (arguments for it go after --), "
        "writes the forward graph with its gradients to OUTPUT (.html, .svg or .dot) and prints "
        "the backward table and which rules fired or were bypassed.",
    )
    trace.add_argument("script", help="the Python script to run")
    trace.add_argument("script_args", nargs="*", help="arguments for the script (after --)")
    trace.add_argument("-o", "--output", default="trace.html", help="default: trace.html")
    trace.add_argument("--max-ops", type=int, default=20_000, help="ops recorded at most")

    check = commands.add_parser(
        "check",
        help="check a function's gradients against finite differences",
        description="Imports FUNCTION from MODULE (a module name or a .py path) and runs "
        "retrograd.check_gradients on it. Exit status 0: right; 1: wrong (the message says "
        "where).",
    )
    check.add_argument("target", metavar="MODULE:FUNCTION")
    check.add_argument("args", nargs="*", metavar="ARG", help="Python literals, one per argument")
    check.add_argument(
        "--shapes",
        nargs="+",
        metavar="SHAPE",
        help="random normal arguments of these shapes instead, e.g. 3,4 5 '' (scalar)",
    )
    check.add_argument("--order", type=int, default=2)
    check.add_argument("--modes", default=None, help="reverse, forward or reverse,forward")
    check.add_argument("--atol", type=float, default=1e-6)
    check.add_argument("--rtol", type=float, default=1e-5)
    check.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    passed_on: list[str] = []
    if argv[:1] == ["trace"] and "--" in argv:  # everything after -- belongs to the script
        cut = argv.index("--")
        argv, passed_on = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(argv)
    if args.command == "demo":
        from retrograd import demo

        demo.run()
        return 0
    if args.command == "run":
        from retrograd.compat.runner import run_script

        run_script(args.script, args.script_args, tf1=args.tf1)
        return 0
    if args.command == "trace":
        return run_trace(args.script, args.script_args + passed_on, args.output, args.max_ops)
    return run_check(parser, args)


def run_trace(script: str, script_args: list[str], output: str, max_ops: int) -> int:
    """Runs ``script`` as ``__main__`` under a trace; writes ``output``; 1 if the script failed."""
    from retrograd.checking.tracing import trace

    status = 0
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    with trace(max_ops) as tr:
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:
            status = 0 if e.code in (None, 0) else 1
        except Exception:  # the trace up to the failure is what one wants to see
            traceback.print_exc()
            status = 1
        finally:
            sys.argv, sys.path[:] = saved_argv, saved_path
    _write(tr, output)
    lines = tr.table().splitlines()
    print(f"\nBackward passes: {tr.passes}; gradient records: {len(tr.gradients)}")
    print("\n".join(lines[: TABLE_ROWS + 1]))
    if len(lines) > TABLE_ROWS + 1:
        print(f"... {len(lines) - TABLE_ROWS - 1} more rows in {output}")
    print(tr.rules())
    print(f"trace written to {output}")
    return status


def _write(tr: Any, output: str) -> None:
    extension = os.path.splitext(output)[1].lower()
    if extension in (".html", ".htm"):
        tr.to_html(output)
        return
    text = {".svg": tr.to_svg, ".dot": tr.to_dot, ".gv": tr.to_dot}.get(extension, tr.to_html)()
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


def load_function(target: str) -> Any:
    """``module:function`` (a module name importable from the current folder, or a .py path)."""
    module_name, sep, attribute = target.rpartition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"expected MODULE:FUNCTION, got {target!r}")
    if module_name.endswith(".py") or os.sep in module_name:
        spec = importlib.util.spec_from_file_location("_retrograd_check_target", module_name)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {module_name!r}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    value = module
    for part in attribute.split("."):
        value = getattr(value, part)
    if not callable(value):
        raise ValueError(f"{target!r} is not callable")
    return value


def _arguments(args: argparse.Namespace) -> list[Any]:
    if args.shapes:
        rng = np.random.default_rng(args.seed)
        shapes = [tuple(int(d) for d in s.split(",") if d.strip()) for s in args.shapes]
        return [rng.standard_normal(shape) for shape in shapes]
    return [ast.literal_eval(a) for a in args.args]


def run_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from retrograd.checking.gradcheck import GradientCheckError, check_gradients

    try:
        f = load_function(args.target)
        values = _arguments(args)
    except (ValueError, SyntaxError, ImportError, AttributeError, OSError) as e:
        parser.error(f"check: {e}")
    modes = None if args.modes is None else [m.strip() for m in args.modes.split(",")]
    try:
        check_gradients(
            f, *values, order=args.order, modes=modes, atol=args.atol, rtol=args.rtol,
            seed=args.seed,
        )  # fmt: skip
    except GradientCheckError as e:
        print(f"FAILED: {e}")
        return 1
    name = getattr(f, "__qualname__", args.target)
    print(
        f"ok: the gradients of '{name}' match finite differences up to order {args.order} "
        f"for {len(values)} argument(s)"
    )
    return 0
