"""nn ops for the comparison with TensorFlow (tests/ops/test_against_tensorflow_nn.py;
goldens made by make_tf_comparison_goldens.py): losses, layers, convolution and pooling,
written once against a library namespace ``lib``; and the random ops' distributions and
seeding rules, whose streams differ but whose statistics and repeat patterns must agree.
Plain code: no TensorFlow or retrograd import here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Case:
    """``fn(lib)`` is the function compared on random inputs of ``shapes`` (uniform in
    [-2, 2], then ``transform``ed) to ``order``; ``reference(lib)``, where given, is what
    TensorFlow computes for the golden instead (TensorFlow's CPU kernels cannot
    differentiate dilated convolutions: the same convolution with a spread-out filter)."""

    fn: Callable[[Any], Callable]
    shapes: list
    dtype: Any = np.float64
    order: int = 2
    transform: Callable | None = None
    seed: int = 0
    reference: Callable[[Any], Callable] | None = None

    def arrays(self) -> list[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        arrays = [rng.uniform(-2, 2, s).astype(self.dtype) for s in self.shapes]
        return self.transform(arrays) if self.transform is not None else arrays

    @property
    def tolerance(self) -> float:
        return 1e-9 if self.dtype == np.float64 else 2e-4


def distribution(labels: np.ndarray, axis: int = -1) -> np.ndarray:
    """Random labels made into probability distributions along ``axis``."""
    e = np.exp(labels)
    return e / e.sum(axis=axis, keepdims=True)


def _spread(lib: Any, w: Any, dilations: Any) -> Any:
    """``w`` with ``d - 1`` zeros between taps: a dilated filter as an ordinary one."""
    dh, dw = (dilations, dilations) if isinstance(dilations, int) else dilations
    kh, kw = w.shape[:2]
    rows = np.eye((kh - 1) * dh + 1)[:, ::dh]
    cols = np.eye((kw - 1) * dw + 1)[:, ::dw]
    dtype = w.dtype.as_numpy_dtype
    return lib.einsum("ai,bj,ijco->abco", rows.astype(dtype), cols.astype(dtype), w)


CONV_CONFIGS = [
    ((2, 5, 5, 3), (3, 3, 3, 4), 1, "SAME", None),
    ((1, 5, 6, 2), (2, 3, 2, 2), [2, 3], "SAME", None),
    ((1, 6, 5, 1), (3, 2, 1, 2), 2, "VALID", None),
    ((1, 6, 6, 2), (2, 2, 2, 3), 1, "SAME", 2),
    ((1, 7, 6, 1), (2, 3, 1, 1), [1, 2], "VALID", [2, 1]),
    ((1, 4, 4, 1), (2, 2, 1, 2), 1, [[0, 0], [1, 2], [0, 1], [0, 0]], None),
]

POOL_CONFIGS = [
    ((2, 5, 5, 3), 2, 2, "VALID"),
    ((1, 5, 6, 2), 3, 2, "SAME"),
    ((1, 4, 5, 1), [2, 3], [1, 2], "SAME"),
    ((2, 7, 2), 3, 2, "SAME"),
    ((1, 4, 3, 4, 2), 2, [2, 1, 2], "SAME"),
]

_TIES = np.array(
    [[3.0, 3.0, 1.0, 2.0], [3.0, 0.0, 2.0, 2.0], [5.0, 5.0, 5.0, 5.0], [1.0, 5.0, 5.0, 0.0]]
).reshape(1, 4, 4, 1)


def _conv_cases() -> dict[str, Case]:
    out = {}
    for i, (x_shape, w_shape, strides, padding, dilations) in enumerate(CONV_CONFIGS):
        for dtype in (np.float32, np.float64):

            def conv(lib, s=strides, p=padding, d=dilations):
                return lambda x, w: lib.nn.conv2d(x, w, s, p, dilations=d)

            def spread(lib, s=strides, p=padding, d=dilations):
                return lambda x, w: lib.nn.conv2d(x, _spread(lib, w, d), s, p)

            name = f"conv2d[{i},{np.dtype(dtype).name}]"
            if dilations is None:
                out[name] = Case(conv, [x_shape, w_shape], dtype)
            else:  # values as they are, gradients against the spread-out filter's
                out[name + "/values"] = Case(conv, [x_shape, w_shape], dtype, order=0)
                out[name] = Case(conv, [x_shape, w_shape], dtype, reference=spread)
    return out


def _pool_cases() -> dict[str, Case]:
    out = {}
    for i, (shape, ksize, strides, padding) in enumerate(POOL_CONFIGS):
        for pool in ("max_pool", "avg_pool"):
            for dtype in (np.float32, np.float64):
                if len(shape) == 5 and dtype == np.float64:
                    continue  # TensorFlow has no float64 MaxPool3D/AvgPool3D kernels on CPU
                data_format = "NDHWC" if len(shape) == 5 else None

                def fn(lib, pool=pool, k=ksize, s=strides, p=padding, f=data_format):
                    return lambda x: getattr(lib.nn, pool)(x, k, s, p, data_format=f)

                out[f"{pool}[{i},{np.dtype(dtype).name}]"] = Case(fn, [shape], dtype)
    return out


def _loss_cases() -> dict[str, Case]:
    out = {}
    for dtype in (np.float32, np.float64):
        kind = np.dtype(dtype).name
        out[f"sigmoid_cross_entropy[{kind}]"] = Case(
            lambda lib: lib.nn.sigmoid_cross_entropy_with_logits, [(3, 4), (3, 4)], dtype
        )
        out[f"weighted_cross_entropy[{kind}]"] = Case(
            lambda lib: lambda z, x, w: lib.nn.weighted_cross_entropy_with_logits(z, x, w),
            [(3, 4), (3, 4), (4,)],
            dtype,
        )
    for axis, shape in [(-1, (3, 4)), (0, (4, 3)), (1, (2, 4, 3)), (-1, (5,))]:
        # Labels that sum to 1 (TensorFlow's logits gradient assumes it). TensorFlow's second
        # derivative through labels is zero (its rule drops that term); retrograd's is the
        # true one (checked against finite differences in test_nn_losses): order 1 there.
        def xent(lib, a=axis):
            return lambda labels, logits: lib.nn.softmax_cross_entropy_with_logits(
                labels, logits, axis=a
            )

        def through_logits(lib, a=axis, s=shape):
            labels = distribution(np.random.default_rng(1).uniform(-2, 2, s), a)
            return lambda x: lib.nn.softmax_cross_entropy_with_logits(labels, x, axis=a)

        normalized = lambda arrays, a=axis: [distribution(arrays[0], a), arrays[1]]  # noqa: E731
        out[f"softmax_cross_entropy[{axis},{shape}]"] = Case(
            xent, [shape, shape], transform=normalized, order=1
        )
        out[f"softmax_cross_entropy[logits,{axis},{shape}]"] = Case(through_logits, [shape])
    out["softmax_cross_entropy[large]"] = Case(
        lambda lib: lib.nn.softmax_cross_entropy_with_logits,
        [(2, 3), (2, 3)],
        transform=lambda a: [distribution(a[0]), a[1] * 500],
        order=1,
    )
    for shape in [(4, 3), (2, 2, 5), (3,)]:
        labels = np.random.default_rng(2).integers(0, shape[-1], shape[:-1])
        out[f"sparse_softmax_cross_entropy[{shape}]"] = Case(
            lambda lib, labels=labels: (
                lambda x: lib.nn.sparse_softmax_cross_entropy_with_logits(labels, x)
            ),
            [shape],
        )
    return out


def _layer_cases() -> dict[str, Case]:
    out = {}
    for data_format, shape in [(None, (2, 3, 4)), ("NCHW", (2, 3, 4, 2)), ("NHWC", (2, 3))]:
        channels = shape[1] if data_format == "NCHW" else shape[-1]
        out[f"bias_add[{data_format}]"] = Case(
            lambda lib, f=data_format: lambda v, b: lib.nn.bias_add(v, b, data_format=f),
            [shape, (channels,)],
        )
    out["batch_normalization"] = Case(
        lambda lib: lambda x, m, v, o, s: lib.nn.batch_normalization(x, m, v, o, s, 1e-3),
        [(4, 3), (3,), (3,), (3,), (3,)],
        transform=lambda a: [a[0], a[1], a[2] * a[2] + 0.5, a[3], a[4]],
    )
    ids = np.array([[0, 3], [3, 3], [1, 0]])
    for max_norm in (None, 1.5):
        out[f"embedding_lookup[{max_norm}]"] = Case(
            lambda lib, n=max_norm: lambda p: lib.nn.embedding_lookup(p, ids, max_norm=n),
            [(4, 3)],
        )
    out["conv1d"] = Case(
        lambda lib: lambda x, w: lib.nn.conv1d(x, w, 2, "SAME"), [(2, 7, 3), (3, 3, 4)]
    )
    for i, (dy_shape, output_shape, strides, padding) in enumerate(
        [
            ((1, 3, 3, 4), [1, 5, 5, 2], 2, "SAME"),
            ((1, 3, 3, 4), [1, 6, 6, 2], 2, "SAME"),
            ((2, 2, 3, 4), [2, 5, 7, 2], 2, "VALID"),
        ]
    ):
        out[f"conv2d_transpose[{i}]"] = Case(
            lambda lib, o=output_shape, s=strides, p=padding: (
                lambda dy, w: lib.nn.conv2d_transpose(dy, w, o, s, p)
            ),
            [dy_shape, (3, 3, 2, 4)],
        )
    for ksize, strides in ((2, 2), (3, 1), (2, 1)):
        out[f"max_pool[ties,{ksize},{strides}]"] = Case(
            lambda lib, k=ksize, s=strides: lambda t: lib.nn.max_pool(t, k, s, "VALID"),
            [_TIES.shape],
            transform=lambda _: [_TIES],
        )
    # Order 1: TensorFlow's MaxPoolGradGrad has no explicit padding.
    out["max_pool[explicit padding]"] = Case(
        lambda lib: lambda x: lib.nn.max_pool(x, 3, 1, [[0, 0], [1, 1], [0, 2], [0, 0]]),
        [(1, 4, 4, 2)],
        transform=lambda a: [a[0] - 10],
        order=1,
    )
    return out


CASES: dict[str, Case] = {**_loss_cases(), **_layer_cases(), **_conv_cases(), **_pool_cases()}


# --- random numbers: statistics and seeding rules -------------------------------------------


def moments(lib: Any) -> list[np.ndarray]:
    """Dtype-free statistics of large draws: [min, max, mean, std] per distribution, and the
    frequencies of a categorical draw."""
    n = 200_000
    draws = [
        lib.random.normal([n], 1.0, 2.0, seed=1),
        lib.random.uniform([n], -1.0, 3.0, seed=1),
        lib.random.truncated_normal([n], 0.0, 2.0, seed=1),
        lib.random.uniform([n], 0, 7, dtype=lib.int32, seed=1),
    ]
    stats = []
    for d in draws:
        a = d.numpy().astype(np.float64)
        stats.append(np.array([a.min(), a.max(), a.mean(), a.std()]))
    logits = np.log([[0.2, 0.3, 0.5]])
    picked = lib.random.categorical(logits, n, seed=1).numpy()
    stats.append(np.bincount(picked[0], minlength=3) / n)
    return stats


def _same(draws: list) -> np.ndarray:
    return np.array([[bool(np.array_equal(a, b)) for b in draws] for a in draws])


def seeding(lib: Any) -> np.ndarray:
    """Which of a sequence of draws repeat which (every seeding rule exercised)."""
    module, set_seed = lib.random, lib.random.set_seed
    draws = []
    set_seed(1)
    draws += [module.uniform([3], seed=5), module.uniform([3], seed=5)]
    set_seed(1)
    draws += [module.normal([3], seed=5), module.uniform([3], seed=5)]
    draws += [module.uniform([3], seed=6), module.uniform([3]), module.uniform([3])]
    set_seed(1)
    draws += [module.uniform([3], seed=9), module.uniform([3]), module.uniform([3], seed=5)]
    set_seed(2)
    draws += [module.uniform([3], seed=5), module.uniform([3])]
    set_seed(None)
    draws += [module.uniform([3], seed=5), module.uniform([3], seed=5)]
    set_seed(None)
    draws += [module.uniform([3], seed=5)]
    return _same([d.numpy() for d in draws])


def generators(lib: Any) -> np.ndarray:
    """Which of a sequence of Generator draws repeat which."""
    module = lib.random
    g = module.Generator.from_seed(3)
    draws = [g.normal([3]), g.normal([3])]
    copy = module.Generator(copy_from=g)
    draws += [copy.uniform([3]), g.uniform([3])]
    g.reset_from_seed(3)
    draws += [g.normal([3]), module.Generator.from_seed(3).normal([3])]
    module.set_seed(1)
    draws += [g.normal([3]), module.Generator.from_seed(3).normal([3])]
    module.set_seed(None)
    return _same([d.numpy() for d in draws])
