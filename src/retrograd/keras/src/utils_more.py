"""More of ``tf.keras.utils``: ``pad_sequences``, ``normalize``, the ``(x, y,
sample_weight)`` packers, ``get_source_inputs``, ``timeseries_dataset_from_array``,
``split_dataset``, ``Config`` and the interactive-logging switch.

>>> import retrograd as rg
>>> rg.keras.utils.pad_sequences([[1, 2], [3]], maxlen=3).tolist()
[[0, 1, 2], [0, 0, 3]]
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from retrograd.core import nest
from retrograd.keras.src import progbar
from retrograd.keras.src.keras_tensor import KerasTensor

__all__ = [
    "Config",
    "Progbar",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_source_inputs",
    "is_interactive_logging_enabled",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "split_dataset",
    "timeseries_dataset_from_array",
    "unpack_x_y_sample_weight",
]


def pad_sequences(sequences: Any, maxlen: int | None = None, dtype: Any = "int32",
                  padding: str = "pre", truncating: str = "pre",
                  value: Any = 0.0) -> np.ndarray:  # fmt: skip
    """Sequences padded (or cut) to one length: ``maxlen`` or the longest; ``padding`` and
    ``truncating`` at the start ('pre') or end ('post').

    >>> import retrograd as rg
    >>> rg.keras.utils.pad_sequences([[1, 2, 3], [4]], maxlen=2, padding='post').tolist()
    [[2, 3], [4, 0]]
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for x in sequences:
        if not hasattr(x, "__len__"):
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x!r}")
        lengths.append(len(x))
        if not sample_shape and len(x):
            sample_shape = np.asarray(x).shape[1:]
    maxlen = max(lengths, default=0) if maxlen is None else maxlen
    is_text = np.issubdtype(np.dtype(dtype), np.str_) or np.issubdtype(np.dtype(dtype), np.object_)
    if isinstance(value, str) and not is_text:
        raise ValueError(
            f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou "
            "should set `dtype=object` for variable length strings."
        )
    out = np.full((len(sequences), maxlen, *sample_shape), value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else s[:0]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(
                f"Shape of sample {trunc.shape[1:]} of sequence at position {i} is different "
                f"from expected shape {sample_shape}"
            )
        if padding == "post":
            out[i, : len(trunc)] = trunc
        elif padding == "pre":
            out[i, maxlen - len(trunc) :] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """``x`` divided by its ``order``-norm along ``axis`` (NumPy in, NumPy out; zero norms
    left alone).

    >>> import retrograd as rg
    >>> rg.keras.utils.normalize(np.array([[3.0, 4.0]])).tolist()
    [[0.6, 0.8]]
    """
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis)
    from retrograd.keras.src.ops import nn_activations

    return nn_activations.normalize(x, axis=axis, order=order)


def pack_x_y_sample_weight(x: Any, y: Any = None, sample_weight: Any = None) -> tuple:
    """``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)`` as ``train_step`` receives data.

    >>> import retrograd as rg
    >>> rg.keras.utils.pack_x_y_sample_weight([1], [2])
    ([1], [2])
    """
    if y is None:  # Keras leaves a lone x alone unless it is a tuple
        return (x,) if isinstance(x, tuple) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data: Any) -> tuple:
    """``(x, y, sample_weight)`` from what ``train_step`` receives (missing parts None).

    >>> import retrograd as rg
    >>> rg.keras.utils.unpack_x_y_sample_weight(([1], [2]))
    ([1], [2], None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
        f"found: {data}"
    )


def get_source_inputs(tensor: Any) -> list:
    """The ``Input`` tensors a symbolic tensor was computed from.

    >>> import retrograd as rg
    >>> a = rg.keras.Input((2,))
    >>> b = rg.keras.layers.Dense(3)(a)
    >>> rg.keras.utils.get_source_inputs(b)[0] is a
    True
    """
    if not isinstance(tensor, KerasTensor):
        raise ValueError(f"`tensor` must be a KerasTensor. Received: {tensor!r}")
    found, stack, seen = [], [tensor], set()
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        node = getattr(t, "node", None)
        if node is None or getattr(t, "input_layer", None) is not None:
            found.append(t)
            continue
        inputs = [v for v in nest.flatten((node.args, node.kwargs)) if isinstance(v, KerasTensor)]
        if not inputs:
            found.append(t)
        stack.extend(reversed(inputs))
    return found


def timeseries_dataset_from_array(data: Any, targets: Any, sequence_length: int,
                                  sequence_stride: int = 1, sampling_rate: int = 1,
                                  batch_size: int | None = 128, shuffle: bool = False,
                                  seed: int | None = None, start_index: int | None = None,
                                  end_index: int | None = None,
                                  format: str = "tf") -> Any:  # fmt: skip
    """A dataset of sliding windows over ``data`` (with the target at each window's
    start), in batches.

    >>> import retrograd as rg
    >>> ds = rg.keras.utils.timeseries_dataset_from_array(np.arange(6), None, 3, batch_size=2)
    >>> [b.numpy().tolist() for b in ds]
    [[[0, 1, 2], [1, 2, 3]], [[2, 3, 4], [3, 4, 5]]]
    """
    from retrograd.data.dataset import Dataset

    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise ValueError(
            'timeseries_dataset_from_array: format="grain" makes a Grain dataset; Grain is not '
            'available to retrograd (format="tf" makes a tf.data dataset)'
        )
    data = np.asarray(data)
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    if start_index < 0 or start_index >= len(data):
        raise ValueError(
            f"`start_index` must be 0 or greater and lower than the length of `data`. "
            f"Received: start_index={start_index}"
        )
    span = (sequence_length - 1) * sampling_rate
    starts = np.arange(start_index, end_index - span, sequence_stride)
    if shuffle:  # Keras' shuffle: the windows' starts, then each batch's neighbourhood
        if seed is None:
            seed = np.random.randint(10**6)
        np.random.RandomState(seed).shuffle(starts)
    index = starts[:, None] + np.arange(0, span + 1, sampling_rate)[None, :]
    windows = data[index]
    parts: Any = windows if targets is None else (windows, np.asarray(targets)[starts])
    dataset = Dataset.from_tensor_slices(parts)
    if shuffle:
        dataset = dataset.shuffle(1024 if batch_size is None else batch_size * 8, seed=seed)
    return dataset if batch_size is None else dataset.batch(batch_size)


def split_dataset(dataset: Any, left_size: Any = None, right_size: Any = None,
                  shuffle: bool = False, seed: int | None = None,
                  preferred_backend: str | None = None) -> tuple:  # fmt: skip
    """Two datasets from arrays (or a tuple of arrays): ``left_size`` and ``right_size``
    as fractions or counts (the other is the rest).

    >>> import retrograd as rg
    >>> left, right = rg.keras.utils.split_dataset(np.arange(10), left_size=0.8)
    >>> len(list(left)), len(list(right))
    (8, 2)
    """
    from retrograd.data.dataset import Dataset

    if preferred_backend == "torch":  # (Keras makes tf.data datasets for any other value)
        raise ValueError(
            "split_dataset: preferred_backend='torch' asks for PyTorch datasets; retrograd "
            "makes tf.data datasets (leave preferred_backend=None)"
        )
    arrays = nest.map_structure(np.asarray, dataset)
    total = len(nest.flatten(arrays)[0])

    def count(size: Any) -> int | None:
        if size is None:
            return None
        if isinstance(size, float):
            if not 0 < size < 1:
                raise ValueError(f"A float size must be in (0, 1). Received: {size}")
            return int(round(size * total))
        return int(size)

    left, right = count(left_size), count(right_size)
    if left is None and right is None:
        raise ValueError("At least one of `left_size` or `right_size` must be specified.")
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sizes add up to more than the dataset's {total} samples.")
    order = list(range(total))
    if shuffle:  # Keras shuffles the samples with Python's random, seeded
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)
        random.shuffle(order)
    pick = lambda rows: nest.map_structure(lambda a: a[rows], arrays)  # noqa: E731
    return (
        Dataset.from_tensor_slices(pick(order[:left])),
        Dataset.from_tensor_slices(pick(order[total - right :])),
    )


def enable_interactive_logging() -> None:
    """Progress bars and messages go to standard output (the default).

    >>> import retrograd as rg
    >>> rg.keras.utils.enable_interactive_logging()
    >>> rg.keras.utils.is_interactive_logging_enabled()
    True
    """
    progbar.settings.interactive = True


def disable_interactive_logging() -> None:
    """Progress bars and messages go to the ``retrograd.keras`` logger instead of
    standard output.

    >>> import retrograd as rg
    >>> rg.keras.utils.disable_interactive_logging()
    >>> rg.keras.utils.is_interactive_logging_enabled()
    False
    >>> rg.keras.utils.enable_interactive_logging()
    """
    progbar.settings.interactive = False


def is_interactive_logging_enabled() -> bool:
    """Whether progress bars print to standard output.

    >>> import retrograd as rg
    >>> rg.keras.utils.is_interactive_logging_enabled()
    True
    """
    return progbar.settings.interactive


class Config:
    """A dict-like record whose entries are also attributes; ``freeze()`` makes it
    read-only.

    >>> import retrograd as rg
    >>> config = rg.keras.utils.Config(learning_rate=0.1)
    >>> config.epochs = 3
    >>> config.learning_rate, config["epochs"], sorted(config.keys())
    (0.1, 3, ['epochs', 'learning_rate'])
    """

    def __init__(self, **kwargs: Any) -> None:
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    def freeze(self) -> None:
        """Makes the config read-only."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self) -> None:
        """Makes the config writable again."""
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self) -> bool:
        return self._frozen

    def _check(self) -> None:
        if self._frozen:
            raise ValueError(
                "Cannot mutate attribute(s) because the config is frozen. Call "
                "`config.unfreeze()` first."
            )

    def __getattr__(self, name: str) -> Any:
        config = self.__dict__["_config"]
        if name in config:
            return config[name]
        raise AttributeError(f"Unknown attribute: '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        self._check()
        self._config[name] = value

    def __delattr__(self, name: str) -> None:
        self._check()
        if name not in self._config:
            raise AttributeError(f"Unknown attribute: '{name}'")
        del self._config[name]

    def __getitem__(self, key: str) -> Any:
        return self._config[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._check()
        self._config[key] = value

    def __delitem__(self, key: str) -> None:
        self._check()
        del self._config[key]

    def __contains__(self, key: str) -> bool:
        return key in self._config

    def __len__(self) -> int:
        return len(self._config)

    def __iter__(self) -> Any:
        return iter(self._config)

    def keys(self) -> Any:
        return self._config.keys()

    def values(self) -> Any:
        return self._config.values()

    def items(self) -> Any:
        return self._config.items()

    def get(self, key: str, default: Any = None) -> Any:
        return self._config.get(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        self._config.update(*args, **kwargs)

    def pop(self, *args: Any) -> Any:
        self._check()
        return self._config.pop(*args)

    def as_dict(self) -> dict:
        """A copy of the entries as a dict."""
        return dict(self._config)

    def to_json(self) -> str:
        """The entries as JSON."""
        import json

        return json.dumps(self._config)

    def __repr__(self) -> str:
        return f"<Config {self._config}>"


class Progbar(progbar.Progbar):
    """Keras' progress bar for your own loops: ``update(current, values)`` or
    ``add(steps, values)``. Values are averaged over the steps, except those named in
    ``stateful_metrics`` (shown as given); with ``stateless_metrics`` instead, only those
    are averaged. As Keras, the last update (``current`` reaching ``target``) shows each
    averaged value as given in that update.

    >>> import io, retrograd as rg
    >>> bar = rg.keras.utils.Progbar(2, verbose=2, stateful_metrics=["acc"])
    >>> bar.stream.stream = io.StringIO()
    >>> bar.add(1, [("loss", 1.0), ("acc", 0.5)]); bar.add(1, [("loss", 0.0), ("acc", 1.0)])
    >>> bar.stream.stream.getvalue().split(" - ")[-2:]
    ['loss: 0.0000e+00', 'acc: 1.0000\\n']
    """

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1,
                 interval: float = 0.05, stateful_metrics: Any = None,
                 stateless_metrics: Any = None, unit_name: str = "step") -> None:  # fmt: skip
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Only one of `stateful_metrics` or `stateless_metrics` can be provided. "
                "`stateful_metrics` is used to make metrics stateless by default (with an "
                "exclusion list), while `stateless_metrics` is used to make metrics stateful "
                "by default (with an exclusion list)."
            )
        super().__init__(target, width, verbose, interval, unit_name)
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        if stateless_metrics is None:
            self.stateful_metrics: set | None = set(stateful_metrics or ())
        else:
            self.stateful_metrics = None
        self._sums: dict[str, list[float]] = {}
        self._seen_so_far = 0

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        shown = []
        last = (
            finalize
            if finalize is not None
            else (self.target is not None and current >= self.target)
        )
        for name, value in values or []:
            if self.stateful_metrics is not None:
                stateless = name not in self.stateful_metrics
            else:
                stateless = name in (self.stateless_metrics or ())
            if not stateless or last:
                self._sums[name] = [float(value), 1]
                shown.append((name, value))
                continue
            base = max(current - self._seen_so_far, 1)
            total = self._sums.setdefault(name, [0.0, 0])
            total[0] += float(value) * base
            total[1] += base
            shown.append((name, total[0] / total[1]))
        self._seen_so_far = current
        super().update(current, shown, finalize)

    def add(self, n: int, values: Any = None) -> None:
        """Advances the bar by ``n`` steps."""
        self.update(self._seen_so_far + n, values)
