"""Gamma, Poisson, binomial and parameterized truncated normal samples (stateful and
stateless) and the candidate samplers of sampled losses.

The samples are inverse-CDF draws of uniforms (SciPy's quantile functions): a stateful op
draws its uniforms as the other random ops do, a stateless one from its seed (the same
uniforms as ``stateless_uniform``; the samples are a function of the seed, not TensorFlow's
numbers, whose kernels draw by rejection). A gamma sample is then a smooth function of
``alpha``, and its gradient is TensorFlow's implicit one, ``-(dP/dalpha) / p`` (P the CDF,
p the density), which here equals the derivative of the sampler: it is checked against
finite differences, to second order.

>>> import retrograd as tf
>>> tf.random.stateless_gamma([3], seed=[1, 2], alpha=2.0).shape
TensorShape([3])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from retrograd.core import dtypes
from retrograd.core.annotations import DTypeLike, ShapeLike, TensorLike
from retrograd.core.backends import host_kernel
from retrograd.core.errors import InvalidArgumentError
from retrograd.core.execute import define_op, execute
from retrograd.core.registry import no_gradient, op_gradient
from retrograd.core.tensor import Tensor, convert_to_tensor
from retrograd.ops import (
    array_ops,
    math_ops,
    philox_random,
    random_ops,
    random_seeding,
    reduction_ops,
)
from retrograd.ops.special_ops import lgamma, scipy_special

__all__ = [
    "all_candidate_sampler", "fixed_unigram_candidate_sampler", "gamma",
    "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler", "poisson",
    "stateless_binomial", "stateless_gamma", "stateless_parameterized_truncated_normal",
    "stateless_poisson", "uniform_candidate_sampler",
]  # fmt: skip


def _stats() -> Any:
    scipy_special("RandomPoisson")  # SciPy present, or the error naming the extra
    import scipy.stats

    return scipy.stats


def _host(kernel):
    return host_kernel(kernel, makes_arrays=True)


def _uniforms(shape, key, rng):
    """Uniforms in (0, 1): from the seed pair ``key`` (stateless) or the generator ``rng``."""
    size = math.prod(shape)
    if key is not None:
        u = philox_random.standard("uniform", np.asarray(key), size, np.dtype(np.float64))
    else:
        u = rng.random(size)
    return np.clip(u, 1e-300, None).reshape(shape)


def _gamma_kernel(alpha, key=None, *, shape, dtype, rng=None, **_):
    special = scipy_special("RandomGamma")
    u = _uniforms(tuple(shape) + alpha.shape, key, rng)
    with np.errstate(all="ignore"):
        out = special.gammaincinv(alpha.astype(np.float64), u)
    return out.astype(dtype.as_numpy_dtype)


# Drawn on the host (Philox or NumPy's generator, SciPy's quantiles), then placed on the
# device of the parameters (or the current device).
_RandomGamma = define_op(
    "RandomGamma", _host(lambda alpha, **a: _gamma_kernel(alpha, **a)), stateful=True
)
_StatelessRandomGammaV3 = define_op(
    "StatelessRandomGammaV3", _host(lambda seed, alpha, **a: _gamma_kernel(alpha, seed, **a))
)


def _gamma_partial(alpha: Tensor, sample: Tensor) -> Tensor:
    """d sample / d alpha at a fixed uniform: -(dP/dalpha) / p, P the gamma CDF."""
    from retrograd.ops.special_functions import _IgammaGradA

    log_density = -sample + (alpha - 1.0) * math_ops.log(sample) - lgamma(alpha)
    return -execute(_IgammaGradA, (alpha, sample), None, None) / math_ops.exp(log_density)


def _gamma_grad(op, grad, alpha_index):
    alpha, sample = op.inputs[alpha_index], op.outputs[0]
    leading = len(op.get_attr("shape"))
    broadcast_alpha = array_ops.reshape(alpha, [1] * leading + list(alpha.shape))
    partial = _gamma_partial(broadcast_alpha, sample)
    total = reduction_ops.reduce_sum(grad * partial, axis=list(range(leading)))
    return (None,) * alpha_index + (total,)


@op_gradient("RandomGamma")
def _random_gamma_grad(op, grad):
    return _gamma_grad(op, grad, 0)


@op_gradient("StatelessRandomGammaV3")
def _stateless_random_gamma_grad(op, grad):
    return _gamma_grad(op, grad, 1)


def _shape_of(op_type: str, shape: Any) -> tuple:
    dims = random_ops._shape(op_type, shape)
    if isinstance(dims, random_ops._RunTimeShape):
        raise ValueError(f"{op_type}: shape must be known while the graph is built")
    return tuple(dims)


def _float(op_type: str, dtype: Any) -> dtypes.DType:
    return random_ops._dtype(op_type, dtype, (dtypes.float16, dtypes.float32, dtypes.float64))


def gamma(
    shape: ShapeLike,
    alpha: TensorLike,
    beta: TensorLike | None = None,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Gamma(``alpha``, rate ``beta``) samples of shape ``shape + broadcast(alpha, beta)``,
    differentiable in ``alpha`` and ``beta``.

    >>> import retrograd as tf
    >>> tf.random.gamma([2], [1.0, 5.0], seed=1).shape
    TensorShape([2, 2])
    """
    dtype = _float("RandomGamma", dtype)
    alpha = convert_to_tensor(alpha, dtype)
    if beta is not None:
        beta = convert_to_tensor(beta, dtype)
        alpha = alpha + array_ops.zeros_like(beta)
    rng, (seed1, seed2) = random_seeding.generator("RandomGamma", (dtype,), seed)
    attrs = {"shape": _shape_of("RandomGamma", shape), "dtype": dtype, "seed": seed1,
             "seed2": seed2, "rng": rng}  # fmt: skip
    sample = execute(_RandomGamma, (alpha,), attrs, None)
    return sample if beta is None else math_ops.divide(sample, beta, name=name)


def stateless_gamma(
    shape: ShapeLike,
    seed: TensorLike,
    alpha: TensorLike,
    beta: TensorLike | None = None,
    dtype: DTypeLike = dtypes.float32,
    name: str | None = None,
) -> Tensor:
    """Gamma(``alpha``, rate ``beta``) samples of ``shape`` (which ends with the broadcast
    shape of ``alpha`` and ``beta``), a function of ``seed``, differentiable in both.

    >>> import retrograd as tf
    >>> a = tf.random.stateless_gamma([2], seed=[1, 2], alpha=3.0)
    >>> bool(tf.reduce_all(a == tf.random.stateless_gamma([2], seed=[1, 2], alpha=3.0)))
    True
    """
    from retrograd.ops.stateless_random_ops import _seed

    dtype = _float("StatelessRandomGammaV3", dtype)
    dims = _shape_of("StatelessRandomGammaV3", shape)
    alpha = convert_to_tensor(alpha, dtype)
    if beta is not None:
        beta = convert_to_tensor(beta, dtype)
        alpha = alpha + array_ops.zeros_like(beta)
    tail = tuple(alpha.shape)
    if dims[len(dims) - len(tail) :] != tail:
        raise InvalidArgumentError(
            f"Shape passed in must end with broadcasted shape {list(tail)}, got {list(dims)}"
        )
    attrs = {"shape": dims[: len(dims) - len(tail)], "dtype": dtype}
    seed = _seed("StatelessRandomGammaV3", seed)
    sample = execute(_StatelessRandomGammaV3, (seed, alpha), attrs, None)
    return sample if beta is None else math_ops.divide(sample, beta, name=name)


def _quantile_kernel(distribution: str):
    def kernel(*params, key=None, shape, dtype, rng=None, **_):
        stats = _stats()
        params = np.broadcast_arrays(*(p.astype(np.float64) for p in params))
        u = _uniforms(tuple(shape) + params[0].shape, key, rng)
        with np.errstate(all="ignore"):
            if distribution == "poisson":
                out = stats.poisson.ppf(u, params[0])
            elif distribution == "binomial":
                out = stats.binom.ppf(u, params[0], params[1])
            else:  # truncated normal: means, stddevs, minvals, maxvals
                mean, sd, lo, hi = params
                a, b = stats.norm.cdf((lo - mean) / sd), stats.norm.cdf((hi - mean) / sd)
                out = mean + sd * stats.norm.ppf(a + u * (b - a))
        return out.astype(dtype.as_numpy_dtype)

    return kernel


_RandomPoissonV2 = define_op(
    "RandomPoissonV2", _host(lambda lam, **a: _quantile_kernel("poisson")(lam, **a)), stateful=True
)
_StatelessRandomPoisson = define_op(
    "StatelessRandomPoisson",
    _host(lambda seed, lam, **a: _quantile_kernel("poisson")(lam, key=seed, **a)),
)
_StatelessRandomBinomial = define_op(
    "StatelessRandomBinomial",
    _host(
        lambda seed, counts, probs, **a: _quantile_kernel("binomial")(counts, probs, key=seed, **a)
    ),
)
_StatelessParameterizedTruncatedNormal = define_op(
    "StatelessParameterizedTruncatedNormal",
    _host(lambda seed, *p, **a: _quantile_kernel("truncated")(*p, key=seed, **a)),
)
for _op_type in ("RandomPoissonV2", "StatelessRandomPoisson", "StatelessRandomBinomial",
                 "StatelessParameterizedTruncatedNormal"):  # fmt: skip
    no_gradient(_op_type)


def poisson(
    shape: ShapeLike,
    lam: TensorLike,
    dtype: DTypeLike = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Poisson(``lam``) samples of shape ``shape + lam.shape`` (float or integer dtype).

    >>> import retrograd as tf
    >>> tf.random.poisson([3], [0.5, 10.0], seed=1).shape
    TensorShape([3, 2])
    """
    dtype = dtypes.as_dtype(dtype)
    lam = convert_to_tensor(lam)
    rng, (seed1, seed2) = random_seeding.generator("RandomPoissonV2", (dtype,), seed)
    attrs = {"shape": _shape_of("RandomPoissonV2", shape), "dtype": dtype, "seed": seed1,
             "seed2": seed2, "rng": rng}  # fmt: skip
    return execute(_RandomPoissonV2, (lam,), attrs, name)


def _stateless(op, op_type, shape, seed, params, dtype, name):
    from retrograd.ops.stateless_random_ops import _seed

    dims = _shape_of(op_type, shape)
    tail = np.broadcast_shapes(*(tuple(p.shape) for p in params))
    if dims[len(dims) - len(tail) :] != tail:
        raise InvalidArgumentError(
            f"Shape passed in must end with broadcasted shape {list(tail)}, got {list(dims)}"
        )
    attrs = {"shape": dims[: len(dims) - len(tail)], "dtype": dtypes.as_dtype(dtype)}
    return execute(op, (_seed(op_type, seed), *params), attrs, name)


def stateless_poisson(
    shape: ShapeLike, seed: TensorLike, lam: TensorLike, dtype: DTypeLike = dtypes.int32,
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """Poisson(``lam``) samples of ``shape`` (ending with lam's shape), a function of ``seed``.

    >>> import retrograd as tf
    >>> tf.random.stateless_poisson([2], seed=[1, 2], lam=3.0).dtype.name
    'int32'
    """
    lam = convert_to_tensor(lam)
    return _stateless(_StatelessRandomPoisson, "StatelessRandomPoisson", shape, seed, (lam,),
                      dtype, name)  # fmt: skip


def stateless_binomial(
    shape: ShapeLike, seed: TensorLike, counts: TensorLike, probs: TensorLike,
    output_dtype: DTypeLike = dtypes.int32, name: str | None = None,
) -> Tensor:  # fmt: skip
    """Binomial(``counts``, ``probs``) samples of ``shape``, a function of ``seed``.

    >>> import retrograd as tf
    >>> int(tf.reduce_max(tf.random.stateless_binomial([5], [1, 2], counts=3.0, probs=0.5)))<=3
    True
    """
    counts, probs = convert_to_tensor(counts), convert_to_tensor(probs)
    return _stateless(_StatelessRandomBinomial, "StatelessRandomBinomial", shape, seed,
                      (counts, probs), output_dtype, name)  # fmt: skip


def stateless_parameterized_truncated_normal(
    shape: ShapeLike, seed: TensorLike, means: TensorLike = 0.0, stddevs: TensorLike = 1.0,
    minvals: TensorLike = -2.0, maxvals: TensorLike = 2.0, name: str | None = None,
) -> Tensor:  # fmt: skip
    """Normal(``means``, ``stddevs``) samples kept inside [``minvals``, ``maxvals``], of
    ``shape``, a function of ``seed``.

    >>> import retrograd as tf
    >>> x = tf.random.stateless_parameterized_truncated_normal([4], [1, 2], 0.0, 1.0, -0.5, 0.5)
    >>> bool(tf.reduce_all(tf.abs(x) <= 0.5))
    True
    """
    params = [convert_to_tensor(v) for v in (means, stddevs, minvals, maxvals)]
    dtype = params[0].dtype if params[0].dtype.is_floating else dtypes.float32
    params = [math_ops.cast(p, dtype) for p in params]
    return _stateless(_StatelessParameterizedTruncatedNormal,
                      "StatelessParameterizedTruncatedNormal", shape, seed, params, dtype,
                      name)  # fmt: skip


# -- candidate samplers ------------------------------------------------------------------------
class CandidateSample(NamedTuple):
    sampled_candidates: Tensor
    true_expected_count: Tensor
    sampled_expected_count: Tensor


_LEARNED: dict = {}


def _probabilities(kind: str, range_max: int, options: dict) -> np.ndarray:
    k = np.arange(range_max, dtype=np.float64)
    if kind == "uniform":
        return np.full(range_max, 1.0 / range_max)
    if kind == "log_uniform":
        return (np.log(k + 2.0) - np.log(k + 1.0)) / np.log(range_max + 1.0)
    if kind == "learned":
        counts = options["counts"]
        return counts / counts.sum()
    weights = np.zeros(range_max)
    unigrams = np.asarray(options["unigrams"], np.float64) ** options["distortion"]
    reserved = options["num_reserved_ids"]
    weights[reserved : reserved + len(unigrams)] = unigrams[: range_max - reserved]
    shard = np.arange(range_max) % options["num_shards"] == options["shard"]
    weights = np.where(shard, weights, 0.0)
    return weights / weights.sum()


def _candidates_kernel(true, kind, num_true, num_sampled, unique, range_max, options, rng,
                       **_):  # fmt: skip
    values = true.astype(np.int64)
    if values.ndim != 2 or values.shape[1] != num_true:
        raise InvalidArgumentError(
            f"true_classes must be a matrix of {num_true} columns, got shape {list(values.shape)}"
        )
    outside = (values < 0) | (values >= range_max)
    if outside.any():
        raise InvalidArgumentError(
            f"`true_candidate` out of range [0, {range_max}), received {int(values[outside][0])}"
        )
    options = dict(options)
    if kind == "learned":
        counts = _LEARNED.setdefault((range_max, id(rng)), np.ones(range_max))
        np.add.at(counts, values.reshape(-1), 1.0)
        options["counts"] = counts
    if kind == "all":
        ones = np.ones(num_sampled, np.float32)
        return np.arange(num_sampled, dtype=np.int64), np.ones(values.shape, np.float32), ones
    p = _probabilities(kind, range_max, options)
    if unique:
        if num_sampled > np.count_nonzero(p):
            raise InvalidArgumentError("Sampler's range is too small.")
        picked, tries = [], 0
        while len(picked) < num_sampled:
            c = int(rng.choice(range_max, p=p))
            tries += 1
            if c not in picked:
                picked.append(c)
        sampled = np.array(picked, np.int64)
    else:
        sampled = rng.choice(range_max, size=num_sampled, p=p).astype(np.int64)
        tries = num_sampled

    def expected(q):
        if tries == num_sampled:
            return (q * num_sampled).astype(np.float32)
        return (-np.expm1(tries * np.log1p(-q))).astype(np.float32)

    return sampled, expected(p[values]), expected(p[sampled])


def _candidates_shape(metas, num_true, num_sampled, **_):
    rows = None if metas[0].shape is None else metas[0].shape[0]
    return [((num_sampled,), np.int64), ((rows, num_true), np.float32),
            ((num_sampled,), np.float32)]  # fmt: skip


_CandidateSampler = define_op(
    "CandidateSampler", _host(_candidates_kernel), shape_fn=_candidates_shape, stateful=True,
    multi_output=True,
)  # fmt: skip
no_gradient("CandidateSampler")


def _sample_candidates(kind, true_classes, num_true, num_sampled, unique, range_max, seed,
                       name, **options):  # fmt: skip
    true = math_ops.cast(convert_to_tensor(true_classes), dtypes.int64)
    rng, (seed1, seed2) = random_seeding.generator(f"{kind}CandidateSampler", (), seed)
    attrs = {"kind": kind, "num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "range_max": int(range_max),
             "options": tuple(sorted(options.items())), "seed": seed1, "seed2": seed2,
             "rng": rng}  # fmt: skip
    return CandidateSample(*execute(_CandidateSampler, (true,), attrs, name))


def uniform_candidate_sampler(
    true_classes: TensorLike,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: int | None = None,
    name: str | None = None,
) -> CandidateSample:
    """``num_sampled`` classes drawn uniformly from [0, range_max) (without repeats when
    ``unique``), with the expected counts of the true and sampled classes.

    >>> import retrograd as tf
    >>> s = tf.random.uniform_candidate_sampler([[1, 2]], 2, 3, True, 10, seed=1)
    >>> s.sampled_candidates.shape, s.true_expected_count.shape
    (TensorShape([3]), TensorShape([1, 2]))
    """
    return _sample_candidates("uniform", true_classes, num_true, num_sampled, unique,
                              range_max, seed, name)  # fmt: skip


def log_uniform_candidate_sampler(
    true_classes: TensorLike,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: int | None = None,
    name: str | None = None,
) -> CandidateSample:
    """Classes drawn from Zipf's log-uniform distribution, P(k) = log((k+2)/(k+1)) /
    log(range_max+1).

    >>> import retrograd as tf
    >>> tf.random.log_uniform_candidate_sampler([[1]], 1, 2, False, 10)[0].dtype.name
    'int64'
    """
    return _sample_candidates("log_uniform", true_classes, num_true, num_sampled, unique,
                              range_max, seed, name)  # fmt: skip


def fixed_unigram_candidate_sampler(
    true_classes: TensorLike,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    vocab_file: str = "",
    distortion: float = 1.0,
    num_reserved_ids: int = 0,
    num_shards: int = 1,
    shard: int = 0,
    unigrams: Sequence[float] = (),
    seed: int | None = None,
    name: str | None = None,
) -> CandidateSample:
    """Classes drawn with probability proportional to ``unigrams`` ** ``distortion`` (after
    ``num_reserved_ids`` classes of probability 0; this ``shard`` of ``num_shards``).

    >>> import retrograd as tf
    >>> s = tf.random.fixed_unigram_candidate_sampler([[1]], 1, 2, True, 3, unigrams=[1, 2, 3])
    >>> s.sampled_expected_count.shape
    TensorShape([2])
    """
    if vocab_file:
        with open(vocab_file) as f:
            unigrams = [float(line.rsplit(",", 1)[-1]) for line in f if line.strip()]
    options = {"unigrams": tuple(unigrams), "distortion": distortion, "shard": shard,
               "num_reserved_ids": num_reserved_ids, "num_shards": num_shards}  # fmt: skip
    return _sample_candidates("unigram", true_classes, num_true, num_sampled, unique,
                              range_max, seed, name, **options)  # fmt: skip


def learned_unigram_candidate_sampler(
    true_classes: TensorLike,
    num_true: int,
    num_sampled: int,
    unique: bool,
    range_max: int,
    seed: int | None = None,
    name: str | None = None,
) -> CandidateSample:
    """Classes drawn by how often they have been seen as true classes (counted across calls,
    starting from one each).

    >>> import retrograd as tf
    >>> tf.random.learned_unigram_candidate_sampler([[1]], 1, 2, True, 4).sampled_candidates.shape
    TensorShape([2])
    """
    return _sample_candidates("learned", true_classes, num_true, num_sampled, unique,
                              range_max, seed, name)  # fmt: skip


def all_candidate_sampler(
    true_classes: TensorLike,
    num_true: int,
    num_sampled: int,
    unique: bool,
    seed: int | None = None,
    name: str | None = None,
) -> CandidateSample:
    """Every class in [0, num_sampled), each with expected count 1.

    >>> import retrograd as tf
    >>> tf.random.all_candidate_sampler([[1, 2]], 2, 3, True).sampled_candidates.numpy().tolist()
    [0, 1, 2]
    """
    return _sample_candidates("all", true_classes, num_true, num_sampled, True, num_sampled,
                              seed, name)  # fmt: skip
