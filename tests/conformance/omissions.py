"""Deliberate differences from TensorFlow's API, each with its reason: the differences page
(docs/api-differences.md) shows them beside the names they cover. Keys are dotted names
as in the snapshot (``tf.compat.v1.train.Server``) or fnmatch patterns over them
(``*.bfloat16``). The test checks that every key still covers a name of the snapshot.

``OMITTED``: names retrograd leaves out on purpose. ``SIGNATURES``: present names whose
signature differs from TensorFlow's on purpose (they count as conformant). ``VALUES``:
names that take TensorFlow's parameters but refuse some of their values.
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
    "retrograd computes in one process, on the CPU or on a GPU through CuPy; TensorFlow's "
    "cluster servers, remote hosts and TPUs have nothing to connect to here"
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

_BFLOAT16 = "NumPy has no bfloat16; its arithmetic would be emulated and slow"
_BUILD = (
    "facts about TensorFlow's C++ build (compiler, ABI, git commit, GraphDef format "
    "versions); retrograd has no C++ build and no GraphDef format"
)
_SESSION_HANDLES = (
    "tensors the C++ runtime keeps in a session between run calls, named by string "
    "handles; retrograd's Session keeps no values between runs and has no string tensors"
)
_QUEUES = (
    "TensorFlow 1's queues and queue runners: stateful C++ kernels that a session's run "
    "blocks on while background threads fill them; retrograd's Session runs each plan to "
    "completion in the caller's thread, and tf.data is its input pipeline"
)
_PROFILER = (
    "writes the C++ runtime's per-kernel step statistics as Chrome traces; retrograd's "
    "runtime records none"
)

_KERAS_BACKENDS = (
    "wraps a module of another Keras backend (JAX, Flax, PyTorch); retrograd stands in "
    "for the TensorFlow backend only"
)
_KERAS_STRINGS = (
    "works on string tensors (vocabularies, tokenizing, FarmHash fingerprints of strings); "
    "retrograd's tensors are numeric"
)

OMITTED: dict[str, str] = {
    "*.bfloat16": _BFLOAT16,
    "tf.compat.v1.to_bfloat16": _BFLOAT16,
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
    # TensorFlow 1 names (issue 22, item 2)
    "tf.compat.v1.as_string": _STRINGS,
    "tf.compat.v1.fingerprint": _STRINGS,
    "tf.compat.v1.string": _STRINGS,
    "tf.compat.v1.decode_base64": _STRINGS,
    "tf.compat.v1.encode_base64": _STRINGS,
    "tf.compat.v1.decode_compressed": _STRINGS,
    "tf.compat.v1.decode_csv": _STRINGS,
    "tf.compat.v1.decode_json_example": _STRINGS,
    "tf.compat.v1.decode_raw": _STRINGS,
    "tf.compat.v1.read_file": _STRINGS,
    "tf.compat.v1.write_file": _STRINGS,
    "tf.compat.v1.matching_files": _STRINGS,
    "tf.compat.v1.reduce_join": _STRINGS,
    "tf.compat.v1.regex_replace": _STRINGS,
    "tf.compat.v1.string_join": _STRINGS,
    "tf.compat.v1.string_split": _STRINGS,
    "tf.compat.v1.string_strip": _STRINGS,
    "tf.compat.v1.string_to_hash_bucket*": _STRINGS,
    "tf.compat.v1.string_to_number": _STRINGS,
    "tf.compat.v1.substr": _STRINGS,
    "tf.compat.v1.parse_tensor": _STRINGS,
    "tf.compat.v1.serialize_tensor": _STRINGS,
    "tf.compat.v1.report_uninitialized_variables": _STRINGS,
    "tf.compat.v1.TextLineReader": _STRINGS,
    "tf.compat.v1.TFRecordReader": _STRINGS,
    "tf.compat.v1.FixedLengthRecordReader": _STRINGS,
    "tf.compat.v1.WholeFileReader": _STRINGS,
    "tf.compat.v1.IdentityReader": _STRINGS,
    "tf.compat.v1.LMDBReader": _STRINGS,
    "tf.compat.v1.ReaderBase": _STRINGS,
    "tf.compat.v1.train.match_filenames_once": _STRINGS,
    "tf.compat.v1.train.string_input_producer": _STRINGS,
    "tf.compat.v1.train.sdca_fprint": _STRINGS,
    "tf.compat.v1.edit_distance": _SPARSE,
    "tf.compat.v1.ragged_fill_empty_rows": _SPARSE,
    "tf.compat.v1.ragged_fill_empty_rows_grad": _SPARSE,
    "tf.compat.v1.nn.ctc_greedy_decoder": _SPARSE,
    "tf.compat.v1.nn.ctc_beam_search_decoder": _SPARSE,
    "tf.compat.v1.nn.ctc_beam_search_decoder_v2": _SPARSE,
    "tf.compat.v1.nn.embedding_lookup_sparse": _SPARSE,
    "tf.compat.v1.nn.safe_embedding_lookup_sparse": _SPARSE,
    "tf.compat.v1.sparse_add": _SPARSE,
    "tf.compat.v1.sparse_concat": _SPARSE,
    "tf.compat.v1.sparse_fill_empty_rows": _SPARSE,
    "tf.compat.v1.sparse_maximum": _SPARSE,
    "tf.compat.v1.sparse_merge": _SPARSE,
    "tf.compat.v1.sparse_minimum": _SPARSE,
    "tf.compat.v1.sparse_placeholder": _SPARSE,
    "tf.compat.v1.sparse_reduce_*": _SPARSE,
    "tf.compat.v1.sparse_reorder": _SPARSE,
    "tf.compat.v1.sparse_reset_shape": _SPARSE,
    "tf.compat.v1.sparse_reshape": _SPARSE,
    "tf.compat.v1.sparse_retain": _SPARSE,
    "tf.compat.v1.sparse_slice": _SPARSE,
    "tf.compat.v1.sparse_softmax": _SPARSE,
    "tf.compat.v1.sparse_split": _SPARSE,
    "tf.compat.v1.sparse_tensor_dense_matmul": _SPARSE,
    "tf.compat.v1.sparse_tensor_to_dense": _SPARSE,
    "tf.compat.v1.sparse_to_indicator": _SPARSE,
    "tf.compat.v1.sparse_transpose": _SPARSE,
    "tf.compat.v1.serialize_sparse": _SPARSE,
    "tf.compat.v1.serialize_many_sparse": _SPARSE,
    "tf.compat.v1.deserialize_many_sparse": _SPARSE,
    "tf.compat.v1.convert_to_tensor_or_sparse_tensor": _SPARSE,
    "tf.compat.v1.import_graph_def": _PROTOS,
    "tf.compat.v1.make_ndarray": _PROTOS,
    "tf.compat.v1.make_tensor_proto": _PROTOS,
    "tf.compat.v1.Event": _PROTOS,
    "tf.compat.v1.HistogramProto": _PROTOS,
    "tf.compat.v1.LogMessage": _PROTOS,
    "tf.compat.v1.NameAttrList": _PROTOS,
    "tf.compat.v1.train.summary_iterator": _PROTOS,
    "tf.compat.v1.train.export_meta_graph": _PROTOS,
    "tf.compat.v1.train.import_meta_graph": _PROTOS,
    "tf.compat.v1.train.write_graph": _PROTOS,
    "tf.compat.v1.train.generate_checkpoint_state_proto": _PROTOS,
    "tf.compat.v1.train.do_quantize_training_on_graphdef": _PROTOS,
    "tf.compat.v1.load_library": _KERNELS,
    "tf.compat.v1.load_op_library": _KERNELS,
    "tf.compat.v1.load_file_system_library": _KERNELS,
    "tf.compat.v1.train.BytesList": _EXAMPLES,
    "tf.compat.v1.train.Example": _EXAMPLES,
    "tf.compat.v1.train.Feature": _EXAMPLES,
    "tf.compat.v1.train.FeatureList": _EXAMPLES,
    "tf.compat.v1.train.FeatureLists": _EXAMPLES,
    "tf.compat.v1.train.Features": _EXAMPLES,
    "tf.compat.v1.train.FloatList": _EXAMPLES,
    "tf.compat.v1.train.Int64List": _EXAMPLES,
    "tf.compat.v1.train.SequenceExample": _EXAMPLES,
    "tf.compat.v1.parse_example": _EXAMPLES,
    "tf.compat.v1.parse_single_example": _EXAMPLES,
    "tf.compat.v1.parse_single_sequence_example": _EXAMPLES,
    "tf.compat.v1.FixedLenFeature": _EXAMPLES,
    "tf.compat.v1.FixedLenSequenceFeature": _EXAMPLES,
    "tf.compat.v1.VarLenFeature": _EXAMPLES,
    "tf.compat.v1.SparseFeature": _EXAMPLES,
    "tf.compat.v1.COMPILER_VERSION": _BUILD,
    "tf.compat.v1.CXX11_ABI_FLAG": _BUILD,
    "tf.compat.v1.CXX_VERSION": _BUILD,
    "tf.compat.v1.GIT_VERSION": _BUILD,
    "tf.compat.v1.MONOLITHIC_BUILD": _BUILD,
    "tf.compat.v1.GRAPH_DEF_VERSION*": _BUILD,
    "tf.compat.v1.quantize": _QUANTIZED,
    "tf.compat.v1.quantize_v2": _QUANTIZED,
    "tf.compat.v1.dequantize": _QUANTIZED,
    "tf.compat.v1.quantized_concat": _QUANTIZED,
    "tf.compat.v1.nn.quantized_*": _QUANTIZED,
    "tf.compat.v1.get_session_handle": _SESSION_HANDLES,
    "tf.compat.v1.get_session_tensor": _SESSION_HANDLES,
    "tf.compat.v1.delete_session_tensor": _SESSION_HANDLES,
    "tf.compat.v1.FIFOQueue": _QUEUES,
    "tf.compat.v1.PaddingFIFOQueue": _QUEUES,
    "tf.compat.v1.PriorityQueue": _QUEUES,
    "tf.compat.v1.RandomShuffleQueue": _QUEUES,
    "tf.compat.v1.QueueBase": _QUEUES,
    "tf.compat.v1.ConditionalAccumulator": _QUEUES,
    "tf.compat.v1.ConditionalAccumulatorBase": _QUEUES,
    "tf.compat.v1.train.QueueRunner": _QUEUES,
    "tf.compat.v1.train.add_queue_runner": _QUEUES,
    "tf.compat.v1.train.start_queue_runners": _QUEUES,
    "tf.compat.v1.train.batch": _QUEUES,
    "tf.compat.v1.train.batch_join": _QUEUES,
    "tf.compat.v1.train.shuffle_batch": _QUEUES,
    "tf.compat.v1.train.shuffle_batch_join": _QUEUES,
    "tf.compat.v1.train.maybe_*batch*": _QUEUES,
    "tf.compat.v1.train.input_producer": _QUEUES,
    "tf.compat.v1.train.range_input_producer": _QUEUES,
    "tf.compat.v1.train.slice_input_producer": _QUEUES,
    "tf.compat.v1.train.limit_epochs": _QUEUES,
    "tf.compat.v1.train.Server": _DEVICES,
    "tf.compat.v1.train.replica_device_setter": _DEVICES,
    "tf.compat.v1.train.SyncReplicasOptimizer": _DEVICES,
    "tf.compat.v1.train.WorkerSessionCreator": _DEVICES,
    "tf.compat.v1.train.ProfilerHook": _PROFILER,
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

_TENSOR_CLASS = (
    "programs never construct tf.Tensor (tf.constant and ops do); retrograd's Tensor "
    "takes the value it holds"
)

SIGNATURES: dict[str, str] = {
    "tf.Tensor": _TENSOR_CLASS,
    "tf.compat.v1.Tensor": _TENSOR_CLASS,
    "tf.data.Dataset": (
        "programs never construct tf.data.Dataset (from_tensor_slices, range and the other "
        "factories do, and subclasses call its constructor); TensorFlow's takes a variant "
        "tensor, a handle of its C++ runtime, retrograd's the Python iterator it wraps"
    ),
    "tf.compat.v1.nn.ctc_loss": (
        "TensorFlow 1's ctc_loss takes its labels as a SparseTensor, which retrograd does not "
        "have (sparse tensors are outside issue 22's scope); compat.v1.nn.ctc_loss is "
        "TensorFlow 2's (dense labels with label_length and logit_length)"
    ),
}


_ONE_REPLICA = (
    "synchronization and aggregation other than AUTO and NONE combine the copies of several "
    "replicas; retrograd runs one (ValueError naming the argument)"
)

# Present names that accept TensorFlow's parameter but refuse some of its values, with
# TensorFlow's error type naming the parameter: what a caller can pass and still not get.
VALUES: dict[str, str] = {
    "tf.Variable": (
        "validate_shape=False (a variable whose shape changes with each assignment) and "
        "variable_def/import_scope (a VariableDef protocol buffer) are refused with a "
        "ValueError"
    ),
    "tf.compat.v1.Variable": (
        "as tf.Variable, and a constraint on a variable of a TF1 graph (retrograd's graph "
        "optimizers apply none)"
    ),
    "tf.compat.v1.get_variable": _ONE_REPLICA,
    "tf.compat.v1.get_local_variable": _ONE_REPLICA,
    "tf.compat.v1.device": (
        "a device function (TensorFlow 1 calls it for each op of a graph) is refused with "
        "TensorFlow 2's eager RuntimeError; device names are accepted (ops run on the CPU)"
    ),
    "tf.compat.v1.train.Saver": "write_version=1 (TensorFlow 1's V1 checkpoint files)",
    "tf.keras.models.save_model": "zipped=False (an unzipped model directory)",
    "tf.keras.utils.timeseries_dataset_from_array": 'format="grain" (Grain is not available)',
    "tf.keras.utils.split_dataset": 'preferred_backend="torch" (PyTorch datasets)',
    "tf.keras.random.SeedGenerator": "backend= (another Keras backend's random ops)",
    "tf.keras.layers.Dense": "quantization_config (quantized weights: int8, int4, float8, GPTQ)",
    "tf.keras.layers.Embedding": "quantization_config (quantized weights)",
}


def reason(table: dict[str, str], dotted: str) -> str | None:
    """The reason ``table`` gives for ``dotted`` (exact keys first, then patterns)."""
    if dotted in table:
        return table[dotted]
    for key, why in table.items():
        if fnmatch.fnmatchcase(dotted, key):
            return why
    return None
