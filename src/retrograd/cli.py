"""The ``retrograd`` command (or ``python -m retrograd``): ``demo``, ``run``, ``trace``, ``check``.

``run [--tf1] [--device KIND[:N]] script.py [ARGS...]`` runs an unmodified TensorFlow
program on retrograd (``import tensorflow`` gives retrograd; ``--tf1`` gives the TensorFlow 1
namespace in graph mode; ``--device GPU`` runs it inside ``tf.device("/device:GPU:0")``, so
its tensors live on the GPU through CuPy).
``trace script.py [-o trace.html] [-- script args]`` runs a script with a trace recording
and writes it (``.html``, ``.svg``, ``.dot`` or ``.txt`` by the output's suffix), then
prints the backward table and the rules report. ``check module:function [ARG ...]``
runs ``check_gradients`` on a function from the shell; arguments are Python literals
(``1.5``, ``"[1.0, 2.0]"``) or random arrays of the shapes given with ``--shapes``.

Exit status: 0 done; 1 the script failed or a gradient is wrong; 2 a usage error (one line
on stderr, nothing run, nothing written).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import os
import runpy
import shutil
import sys
from typing import Any, NoReturn

import numpy as np

TABLE_ROWS = 40  # rows of the backward table printed by `trace`; the page has them all


class UsageError(Exception):
    """A command line that cannot run: said in one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors in one line (``retrograd check: error: ...``), status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_positive_int.__name__ = "positive integer"  # how argparse names the type in its message


def _tolerance(text: str) -> float:
    value = float(text)
    if not np.isfinite(value) or value < 0:
        raise ValueError(text)
    return value


_tolerance.__name__ = "finite non-negative number"


def _device_name(text: str) -> str:
    """``KIND`` or ``KIND:N`` (``GPU``, ``gpu:1``) as TensorFlow's ``/device:KIND:N``."""
    kind, _, index = text.partition(":")
    if not kind.isidentifier() or (index and not index.isdigit()):
        raise ValueError(text)
    return f"/device:{kind.upper()}:{index or 0}"


_device_name.__name__ = "device (KIND or KIND:N, e.g. GPU or GPU:1)"


def build_parser() -> argparse.ArgumentParser:
    from retrograd import __version__

    parser = _Parser(
        prog="retrograd",
        description="retrograd: TensorFlow's custom gradients on NumPy, checked and explained.",
        epilog="Exit status: 0 success; 1 the script failed or a gradient is wrong; 2 usage "
        "error. Also runs as `python -m retrograd`.",
    )
    parser.add_argument("--version", action="version", version=f"retrograd {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "demo",
        help="walk through the seed programs: custom gradients explained",
        description="Runs the five seed programs with explanations of what each prints.",
    )

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
    run.add_argument(
        "--device",
        metavar="KIND[:N]",
        type=_device_name,
        default=None,
        help="run the whole script inside `tf.device('/device:KIND:N')`: its tensors and "
        "variables live on that device (GPU: CuPy arrays) unless it places them itself; a "
        "kind that is not present falls back to the CPU with a note on stderr, as "
        "TensorFlow's soft placement (default: the CPU)",
    )
    run.add_argument("script", help="the Python script to run")
    run.add_argument("script_args", nargs=argparse.REMAINDER, help="arguments for the script")

    trace = commands.add_parser(
        "trace",
        help="run a script, recording every backward pass; write it as a page",
        description="Runs SCRIPT as `run` does (`import tensorflow` gives retrograd) with a "
        "trace recording (arguments for it go after --), "
        "writes the forward graph with its gradients to OUTPUT and prints the backward table "
        "and which rules fired or were bypassed. OUTPUT's suffix says the format: "
        f"{', '.join(OUTPUT_FORMATS)}.",
    )
    trace.add_argument(
        "--tf1",
        action="store_true",
        help="as `run --tf1`: `tensorflow` is the TensorFlow 1 namespace, in graph mode",
    )
    trace.add_argument("script", help="the Python script to run")
    trace.add_argument("script_args", nargs="*", help="arguments for the script (after --)")
    trace.add_argument(
        "-o",
        "--output",
        default="trace.html",
        help="where to write the trace; its suffix chooses the format: .html (page with every "
        "backward pass), .svg (picture of the last pass), .dot (Graphviz source of it), .txt "
        "(table and rules) (default: trace.html)",
    )
    trace.add_argument(
        "--max-ops",
        type=_positive_int,
        default=20_000,
        help="record at most this many ops (default: 20000)",
    )

    check = commands.add_parser(
        "check",
        help="check a function's gradients against finite differences",
        description="Imports FUNCTION from MODULE (a module name or a .py path) and runs "
        "retrograd.check_gradients on it. Exit status 0: right; 1: wrong (the message says "
        "where); 2: usage error.",
    )
    check.add_argument(
        "target",
        metavar="MODULE:FUNCTION",
        help="the function to check: a module importable from the current folder, or a .py "
        "path, a colon, and the function's name",
    )
    check.add_argument("args", nargs="*", metavar="ARG", help="Python literals, one per argument")
    check.add_argument(
        "--shapes",
        nargs="+",
        metavar="SHAPE",
        help="random normal arguments of these shapes instead, e.g. 3,4 5 '' (scalar)",
    )
    check.add_argument(
        "--order",
        type=_positive_int,
        default=2,
        help=f"highest derivative order checked, 1 to {MAX_ORDER} (default: 2)",
    )
    check.add_argument(
        "--modes",
        default=None,
        help="reverse, forward or reverse,forward (default: both, forward on real values)",
    )
    check.add_argument(
        "--atol", type=_tolerance, default=1e-6, help="absolute tolerance (default: 1e-6)"
    )
    check.add_argument(
        "--rtol", type=_tolerance, default=1e-5, help="relative tolerance (default: 1e-5)"
    )
    check.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the random directions and --shapes arguments (default: 0)",
    )
    check.add_argument(
        "--progress",
        action="store_true",
        help="show the check's progress on stderr: steps done of the total and the time left "
        "(shown anyway on a terminal once a check lasts 2 seconds; RETROGRAD_PROGRESS=0 "
        "silences it)",
    )
    return parser


def console() -> None:
    """The ``retrograd`` console script: :func:`main`, with a closed pipe (``| head``) and
    Ctrl-C ending quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away: send what is left of stdout nowhere, exit as SIGPIPE would.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 128 + 13
    except KeyboardInterrupt:
        print("retrograd: interrupted", file=sys.stderr)
        status = 130
    sys.exit(status)


def main(argv: list[str] | None = None) -> int:
    """Runs one command; returns the exit status. Usage errors print one line and give 2."""
    try:
        return _main(argv)
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return 2


def _main(argv: list[str] | None) -> int:
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
        from retrograd.compat.runner import print_script_error, run_script

        _require_script("run", args.script)
        if args.device is not None:
            _note_absent_device(args.device)
        try:
            run_script(args.script, args.script_args, tf1=args.tf1, device=args.device)
        except BrokenPipeError:  # the reader left: console() ends quietly
            raise
        except Exception as error:  # the script's own failure, shown from its first line
            print_script_error(error, args.script)
            return 1
        return 0
    if args.command == "trace":
        return run_trace(
            args.script, args.script_args + passed_on, args.output, args.max_ops, args.tf1
        )
    return run_check(args)


# Output suffix -> what `trace` writes there.
OUTPUT_FORMATS = (".html", ".htm", ".svg", ".dot", ".gv", ".txt")
MAX_ORDER = 10  # finite differences of order k lose about k * 5 digits: beyond this, noise


def _note_absent_device(name: str) -> None:
    """One line on stderr when ``run --device`` names a device that is not present (the
    script then runs on the CPU, as TensorFlow's soft placement does)."""
    from retrograd.core import backends

    kind, index = name.rsplit(":", 2)[1:]
    if backends.device_count(kind) <= int(index):
        present = backends.device_count(kind)
        why = "is not a registered device kind" if kind not in backends.device_kinds() else (
            f"has {present} device{'s' if present != 1 else ''} here"
        )  # fmt: skip
        print(
            f"retrograd run: note: {kind} {why}; {name} falls back to the CPU",
            file=sys.stderr,
        )


def _require_script(command: str, script: str) -> None:
    if not os.path.isfile(script):
        what = "is a folder" if os.path.isdir(script) else "does not exist"
        raise UsageError(f"retrograd {command}: error: the script {script!r} {what}")


def _output_format(output: str) -> str:
    extension = os.path.splitext(output)[1].lower()
    if extension not in OUTPUT_FORMATS:
        raise UsageError(
            f"retrograd trace: error: cannot tell the format of {output!r} from its suffix "
            f"{extension or '(none)'!r}: use one of {', '.join(OUTPUT_FORMATS)}"
        )
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise UsageError(f"retrograd trace: error: the folder {folder!r} does not exist")
    if os.path.isdir(output):
        raise UsageError(f"retrograd trace: error: the output {output!r} is a folder")
    return extension


def run_trace(
    script: str, script_args: list[str], output: str, max_ops: int, tf1: bool = False
) -> int:
    """Runs ``script`` as ``__main__`` under a trace, as ``run`` runs it (``import
    tensorflow`` answered, ``tf1``); writes ``output``; returns the script's exit status.

    Usage errors (no such script, an output suffix that names no format) raise
    :class:`UsageError` before anything runs or is written. ``output`` is resolved before the
    script runs (a script may change the working folder); nothing is written when the
    script failed before any backward pass."""
    from retrograd.checking.tracing import trace
    from retrograd.compat.runner import exit_status, print_script_error, running

    extension = _output_format(output)
    _require_script("trace", script)
    output = os.path.abspath(output)
    status, failed = 0, False
    with trace(max_ops) as tr, running(script, script_args, tf1):
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:
            status = exit_status(e)
        except BrokenPipeError:
            raise
        except Exception as e:  # the trace up to the failure is what one wants to see
            print_script_error(e, script)
            status, failed = 1, True
    if failed and not tr.passes:
        print(
            f"retrograd trace: the script failed before any backward pass: nothing traced, "
            f"{output} not written",
            file=sys.stderr,
        )
        return status
    _write(tr, output, extension)
    width = shutil.get_terminal_size((100, 24)).columns
    lines = tr.table(width=width).splitlines()
    print(f"\nBackward passes: {tr.passes}; gradient records: {len(tr.gradients)}")
    print("\n".join(lines[: TABLE_ROWS + 1]))
    if len(lines) > TABLE_ROWS + 1:
        print(f"... {len(lines) - TABLE_ROWS - 1} more rows in {output}")
    for note in tr.notes():
        print(note)
    print(tr.rules())
    print(f"trace written to {output}")
    return status


def _write(tr: Any, output: str, extension: str) -> None:
    """Writes the trace in the format of ``extension``, atomically (no half-written file)."""
    from retrograd.core.atomic_files import write_text

    if extension in (".html", ".htm"):
        text = tr.to_html()
    elif extension == ".svg":  # one picture: the last backward pass (every op if none ran)
        text = tr.to_svg(tr.passes or None)
    elif extension == ".txt":
        text = f"{tr.table()}\n\n{tr.rules()}\n"
    else:
        text = tr.to_dot(tr.passes or None)
    write_text(output, text)


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


def _shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(d) for d in text.split(",") if d.strip())
    except ValueError:
        shape = (-1,)
    if any(d < 0 for d in shape):
        raise ValueError(f"a shape is sizes separated by commas, like 3,4 (or '' for a scalar), "
                         f"got {text!r}")  # fmt: skip
    return shape


def _literal(k: int, text: str) -> Any:
    """One ARG: a Python literal; a UsageError saying what a literal is otherwise."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise UsageError(
            f"retrograd check: error: argument {k + 1} ({text!r}) is not a Python literal: "
            f'give numbers or nested lists of numbers, like 1.5 or "[1.0, 2.0]" (or '
            f"random arrays with --shapes)"
        ) from None


def _arguments(args: argparse.Namespace) -> list[Any]:
    if args.shapes:
        rng = np.random.default_rng(args.seed)
        shapes = [_shape(s) for s in args.shapes]
        return [rng.standard_normal(shape) for shape in shapes]
    return [_literal(k, a) for k, a in enumerate(args.args)]


def _check_count(target: str, f: Any, values: list) -> None:
    """A UsageError when ``f`` cannot be called with ``len(values)`` arguments."""
    try:
        signature = inspect.signature(f)
    except (TypeError, ValueError):  # no signature to read (a builtin): let the call say
        return
    try:
        signature.bind(*values)
    except TypeError:
        wanted = [
            p.name
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        ]
        count = f"{len(wanted)} argument{'s' if len(wanted) != 1 else ''}"
        raise UsageError(
            f"retrograd check: error: {target!r} takes {count} ({', '.join(wanted) or 'none'}), "
            f"got {len(values)}: give one ARG (or --shapes entry) per argument"
        ) from None


def run_check(args: argparse.Namespace) -> int:
    from retrograd.checking.gradcheck import GradientCheckError, check_gradients

    usage = "retrograd check: error:"
    if args.order > MAX_ORDER:
        raise UsageError(f"{usage} argument --order: at most {MAX_ORDER}, got {args.order}")
    modes = None
    if args.modes is not None:
        modes = [m.strip() for m in args.modes.split(",")]
        unknown = [m for m in modes if m not in ("reverse", "forward")]
        if unknown or not modes:
            raise UsageError(
                f"{usage} argument --modes: expected reverse, forward or reverse,forward, "
                f"got {args.modes!r}"
            )
    if args.shapes and args.args:
        raise UsageError(f"{usage} give ARG values or --shapes, not both")
    try:
        values = _arguments(args)
    except (ValueError, MemoryError) as e:
        raise UsageError(f"{usage} cannot read the arguments: {e}") from None
    try:
        f = load_function(args.target)
    except Exception as e:  # a module that fails to import is the caller's to fix
        raise UsageError(f"{usage} cannot load {args.target!r}: {_one_line(e)}") from None
    _check_count(args.target, f, values)
    try:
        check_gradients(
            f, *values, order=args.order, modes=modes, atol=args.atol, rtol=args.rtol,
            seed=args.seed, progress=True if args.progress else None,
        )  # fmt: skip
    except GradientCheckError as e:
        print(f"FAILED: {e}")
        return 1
    except Exception as e:
        print(f"FAILED: checking '{args.target}' raised {_one_line(e)}")
        return 1
    name = getattr(f, "__qualname__", args.target)
    print(
        f"ok: the gradients of '{name}' match finite differences up to order {args.order} "
        f"for {len(values)} argument(s)"
    )
    return 0


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
