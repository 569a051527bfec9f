"""Deliberate differences from TensorFlow's API, each with its reason: the differences page
(docs/api-differences.md) shows them beside the names they cover. Keys are dotted names
as in the snapshot (``tf.compat.v1.train.Server``) or fnmatch patterns over them
(``*.bfloat16``). The test checks that every key still covers a name of the snapshot.

``OMITTED``: names retrograd leaves out on purpose. ``SIGNATURES``: present names whose
signature differs from TensorFlow's on purpose (they count as conformant).
"""

from __future__ import annotations

import fnmatch

_QUANTIZED = (
    "quantized integer types exist for TensorFlow's quantized kernels (TPU/TFLite "
    "inference); NumPy has no such type and no retrograd kernel would use one"
)
_HANDLES = (
    "handles of resources and variants are TensorFlow's runtime internals; retrograd's "
    "variables and datasets are Python objects"
)
_DEVICES = (
    "retrograd runs on the CPU of one process; TensorFlow's device placement, TPUs and "
    "distribution strategies have nothing to place here"
)
_PROTOS = (
    "protocol-buffer messages of TensorFlow's runtime (session configuration, cluster "
    "and summary definitions); retrograd has no C++ runtime to configure"
)
_EXAMPLES = (
    "tf.Example protocol-buffer messages (the records of TFRecord files); retrograd reads "
    "no TFRecord files and has no protocol buffers"
)
_KERNELS = (
    "shared libraries of compiled TensorFlow kernels (custom ops); retrograd's ops are "
    "Python and NumPy and cannot run TensorFlow kernels"
)
_RNN_WRAPPERS = (
    "wrappers of Keras 2's RNN cells; the Keras 3 that TensorFlow 2.21 uses has no such "
    "cells to wrap (tf.keras is the api-keras helper's area)"
)
_STRINGS = (
    "file readers whose elements are strings (lines, records); retrograd's tensors hold "
    "numbers only (no string dtype)"
)
_SPARSE = "sparse and ragged tensors are outside this issue's scope (tf.sparse, tf.ragged)"

_KERAS_BACKENDS = (
    "wraps a module of another Keras backend (JAX, Flax, PyTorch); retrograd stands in "
    "for the TensorFlow backend only"
)
_KERAS_STRINGS = (
    "works on string tensors (vocabularies, tokenizing, FarmHash fingerprints of strings); "
    "retrograd's tensors are numeric"
)

OMITTED: dict[str, str] = {
    "*.bfloat16": "NumPy has no bfloat16; its arithmetic would be emulated and slow",
    "*.qint8": _QUANTIZED,
    "*.qint16": _QUANTIZED,
    "*.qint32": _QUANTIZED,
    "*.quint8": _QUANTIZED,
    "*.quint16": _QUANTIZED,
    "*.resource": _HANDLES,
    "tf.compat.v1.SessionLog": _PROTOS,
    "tf.compat.v1.Summary": _PROTOS,
    "tf.compat.v1.SummaryMetadata": _PROTOS,
    "tf.compat.v1.TensorInfo": _PROTOS,
    "tf.compat.v1.NodeDef": _PROTOS,
    "tf.compat.v1.AttrValue": _PROTOS,
    "tf.compat.v1.GraphDef": _PROTOS,
    "tf.compat.v1.MetaGraphDef": _PROTOS,
    "tf.compat.v1.train.ClusterDef": _PROTOS,
    "tf.train.ClusterDef": _PROTOS,
    "tf.train.JobDef": _PROTOS,
    "tf.train.ServerDef": _PROTOS,
    "tf.as_string": _STRINGS,
    "tf.string": _STRINGS,
    "tf.dtypes.string": _STRINGS,
    "tf.fingerprint": _STRINGS,
    "tf.edit_distance": _SPARSE,
    "tf.ragged_fill_empty_rows": _SPARSE,
    "tf.ragged_fill_empty_rows_grad": _SPARSE,
    "tf.nn.embedding_lookup_sparse": _SPARSE,
    "tf.nn.ctc_greedy_decoder": _SPARSE,
    "tf.nn.ctc_beam_search_decoder": _SPARSE,
    "tf.nn.safe_embedding_lookup_sparse": _SPARSE,
    "tf.make_ndarray": _PROTOS,
    "tf.make_tensor_proto": _PROTOS,
    "tf.import_graph_def": _PROTOS,
    "tf.load_library": _KERNELS,
    "tf.load_op_library": _KERNELS,
    "tf.config.experimental_connect_to_cluster": _DEVICES,
    "tf.config.experimental_connect_to_host": _DEVICES,
    "tf.nn.RNNCellDeviceWrapper": _RNN_WRAPPERS,
    "tf.nn.RNNCellDropoutWrapper": _RNN_WRAPPERS,
    "tf.nn.RNNCellResidualWrapper": _RNN_WRAPPERS,
    "tf.data.TFRecordDataset": _STRINGS,
    "tf.data.TextLineDataset": _STRINGS,
    "tf.data.FixedLengthRecordDataset": _STRINGS,
    "tf.train.Example": _EXAMPLES,
    "tf.train.SequenceExample": _EXAMPLES,
    "tf.train.Features": _EXAMPLES,
    "tf.train.Feature": _EXAMPLES,
    "tf.train.FeatureList": _EXAMPLES,
    "tf.train.FeatureLists": _EXAMPLES,
    "tf.train.BytesList": _EXAMPLES,
    "tf.train.FloatList": _EXAMPLES,
    "tf.train.Int64List": _EXAMPLES,
    "tf.compat.v1.train.JobDef": _PROTOS,
    "tf.compat.v1.train.ServerDef": _PROTOS,
    "tf.compat.v1.train.SaverDef": _PROTOS,
    "tf.SparseTensor": _SPARSE,
    "tf.SparseTensorSpec": _SPARSE,
    "tf.RaggedTensor": _SPARSE,
    "tf.RaggedTensorSpec": _SPARSE,
    "tf.compat.v1.SparseTensor": _SPARSE,
    "tf.compat.v1.SparseTensorValue": _SPARSE,
    "tf.compat.v1.SparseConditionalAccumulator": _SPARSE,
    "tf.compat.v1.SparseTensorSpec": _SPARSE,
    "tf.compat.v1.RaggedTensor": _SPARSE,
    "tf.compat.v1.RaggedTensorSpec": _SPARSE,
    # Keras (issue 22, the api-keras branch)
    "tf.keras.layers.FlaxLayer": _KERAS_BACKENDS,
    "tf.keras.layers.JaxLayer": _KERAS_BACKENDS,
    "tf.keras.layers.TorchModuleWrapper": _KERAS_BACKENDS,
    "tf.keras.layers.TFSMLayer": (
        "loads a TensorFlow SavedModel (a protocol-buffer graph of TensorFlow's runtime); "
        "retrograd has no SavedModel reader"
    ),
    "tf.keras.layers.StringLookup": _KERAS_STRINGS,
    "tf.keras.layers.TextVectorization": _KERAS_STRINGS,
    "tf.keras.layers.HashedCrossing": _KERAS_STRINGS,
    "tf.keras.layers.Hashing": _KERAS_STRINGS,
}

SIGNATURES: dict[str, str] = {
    "tf.Tensor": (
        "programs never construct tf.Tensor (tf.constant and ops do); retrograd's Tensor "
        "takes the value it holds"
    ),
}


def reason(table: dict[str, str], dotted: str) -> str | None:
    """The reason ``table`` gives for ``dotted`` (exact keys first, then patterns)."""
    if dotted in table:
        return table[dotted]
    for key, why in table.items():
        if fnmatch.fnmatchcase(dotted, key):
            return why
    return None
