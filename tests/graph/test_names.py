"""Names are data, never code: TensorFlow's rule is checked wherever a name enters a graph,
and the compiled plans that run graphs contain only text the library generated."""

from __future__ import annotations

import os

import pytest

import retrograd as rg
from retrograd.core.names import check_name, valid_name_from
from retrograd.graph.plan import Plan

MARK = "RETROGRAD_INJECTED"
# If any of these became code in a generated plan, the marker would be set.
PAYLOADS = [
    f"a'\n    __import__('os').environ.__setitem__('{MARK}', '1')\n    #",
    f'a"\n    __import__("os").environ["{MARK}"] = "1"\n#',
    f"a\n__import__('os').environ['{MARK}']='1'",
    f"a' ; __import__('os').environ['{MARK}']='1' ; '",
]


@pytest.fixture(autouse=True)
def _nothing_ran():
    os.environ.pop(MARK, None)
    yield
    assert MARK not in os.environ, "a name was run as code"


@pytest.fixture
def sources(monkeypatch):
    """The source of every plan generated during the test."""
    found: list[str] = []
    generate = Plan._generate

    def recording(self):
        found.append(generate(self))
        return found[-1]

    monkeypatch.setattr(Plan, "_generate", recording)
    return found


@pytest.mark.parametrize("payload", PAYLOADS)
def test_op_names_in_a_function_are_checked(payload):
    f = rg.function(lambda x: rg.exp(x, name=payload))
    with pytest.raises(ValueError, match="not a valid root scope name"):
        f(rg.constant(1.0))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_name_scopes_in_a_function_are_checked(payload):
    def body(x):
        with rg.name_scope(payload):
            return rg.exp(x)

    with pytest.raises(ValueError, match="not a valid root scope name"):
        rg.function(body)(rg.constant(1.0))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_session_graph_names_are_checked(payload):
    g = rg.Graph()
    with g.as_default():
        x = rg.compat.v1.placeholder(rg.float32, [], name="x")
        with pytest.raises(ValueError, match="not a valid root scope name"):
            rg.exp(x, name=payload)
        with pytest.raises(ValueError, match="not a valid root scope name"):
            rg.compat.v1.placeholder(rg.float32, [], name=payload)
        with rg.name_scope("outer"), pytest.raises(ValueError, match="not a valid scope name"):
            rg.exp(x, name=payload)
        y = rg.exp(x, name="y")
    with rg.compat.v1.Session(graph=g) as sess:
        assert sess.run(y, {x: 0.0}) == 1.0
        with pytest.raises((KeyError, ValueError, TypeError)):
            sess.run(payload, {x: 0.0})


@pytest.mark.parametrize("payload", PAYLOADS)
def test_custom_gradient_names_come_from_a_cleaned_dunder_name(payload, sources):
    @rg.custom_gradient
    def f(x):
        return rg.identity(x), lambda dy: dy * 3.0

    f.__name__ = f.__qualname__ = payload
    x = rg.constant(2.0)
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = rg.function(lambda v: f(v) * 1.0)(x)
    assert y.numpy() == 2.0 and tape.gradient(y, x).numpy() == 3.0
    assert sources and not any("environ" in s for s in sources)


def test_generated_code_contains_no_user_text(sources):
    """Every name below is valid; none appears in the code plans run."""
    user = "zzUserText"

    def body(x):
        with rg.name_scope(f"{user}Scope"):
            y = rg.exp(x, name=f"{user}Exp")
            z = rg.multiply(y, 2.0, name=f"{user}.Mul>1-a\\b")
        return rg.identity(z, name=f"{user}Out")

    f = rg.function(body, input_signature=[rg.TensorSpec([2], rg.float32, name=f"{user}In")])
    x = rg.constant([0.0, 1.0])
    with rg.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.gradient(y, x)
    g = rg.Graph()
    with g.as_default():
        p = rg.compat.v1.placeholder(rg.float32, [2], name=f"{user}P")
        out = body(p)
    with rg.compat.v1.Session(graph=g) as sess:
        sess.run(out, {p: [0.0, 1.0]})
    assert len(sources) >= 2
    assert [s for s in sources if user in s] == []
    assert [op.name for op in g.get_operations() if user in op.name]  # names were kept as data


@pytest.mark.parametrize(
    "name, nested, ok",
    [
        ("a", False, True),
        ("a/b", False, True),
        (".a", False, True),
        ("a>b-c\\d", False, True),
        ("_a", False, False),
        ("-a", False, False),
        ("a b", False, False),
        ("a:0", False, False),
        ("", False, False),
        ("_a", True, True),
        ("", True, True),
        ("a b", True, False),
        ("é", False, False),
    ],
)
def test_tensorflow_name_rule(name, nested, ok):
    if ok:
        assert check_name(name, "name", nested) == name
    else:
        with pytest.raises(ValueError, match="pattern"):
            check_name(name, "name", nested)


def test_check_name_wants_a_string():
    with pytest.raises(TypeError, match="must be a string, got int"):
        check_name(3, "name")


@pytest.mark.parametrize("text", ["<lambda>", "f'\nimport os", "__call__", "", "🙂", "a" * 500])
def test_valid_name_from_any_text(text):
    name = valid_name_from(text)
    assert check_name(name, "name") == name and len(name) <= 200


def test_eager_names_are_not_checked_as_in_tensorflow():
    # TensorFlow ignores names in eager mode (tf.exp(x, name="a b") runs).
    assert rg.exp(rg.constant(0.0), name="a b").numpy() == 1.0
    with rg.name_scope("a b") as scope:  # (TensorFlow 2.21: 'a b/', and variables 'a b/v:0')
        assert scope == "a b/"
        assert rg.Variable(1.0, name="v").name == "a b/v:0"


def test_variable_names_are_checked_in_graphs():
    with rg.Graph().as_default(), pytest.raises(ValueError, match="not a valid root scope name"):
        rg.Variable(1.0, name=PAYLOADS[0])
    assert rg.Variable(1.0, name="a b").name == "a b:0"  # eager: any name, as TensorFlow
