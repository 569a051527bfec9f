"""``tf.config``, ``tf.device`` and ``tf.DeviceSpec`` on a machine without GPUs (TensorFlow
ran with CUDA_VISIBLE_DEVICES empty). Plain code: no TensorFlow import here."""

CASES = {
    "devices": """
c = tf.config
result = [str(d) for d in c.list_physical_devices()] + [
    len(c.list_physical_devices("GPU")), str(c.list_physical_devices("CPU")),
    str(c.get_visible_devices()), str(c.get_visible_devices("GPU")),
    c.list_physical_devices("CPU")[0].name, c.list_physical_devices("CPU")[0].device_type,
]
""",
    "logical_devices": """
c = tf.config
cpu = c.list_physical_devices("CPU")[0]
before = c.get_logical_device_configuration(cpu)
result = [before, str(c.list_logical_devices()), str(c.list_logical_devices("GPU"))]
""",
    "gpu_setup_loop": """
gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
result = [len(gpus), str(tf.config.experimental.get_device_details(
    tf.config.list_physical_devices("CPU")[0]))]
""",
    "memory_growth_on_cpu": """
tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("CPU")[0], True)
""",
    "memory_limit_on_cpu": """
c = tf.config
c.set_logical_device_configuration(
    c.list_physical_devices("CPU")[0], [c.LogicalDeviceConfiguration(memory_limit=10)])
""",
    "configuration_repr": """
result = [repr(tf.config.LogicalDeviceConfiguration()),
          repr(tf.config.experimental.VirtualDeviceConfiguration(memory_limit=5))]
""",
    "unknown_device": "tf.config.set_visible_devices('x')",
    "settings": """
c = tf.config
result = [c.get_soft_device_placement(), c.functions_run_eagerly(),
          c.threading.get_inter_op_parallelism_threads(),
          c.threading.get_intra_op_parallelism_threads(), c.optimizer.get_jit(),
          c.optimizer.get_experimental_options(), c.experimental.get_device_policy(),
          c.experimental.get_synchronous_execution(),
          c.experimental.tensor_float_32_execution_enabled()]
c.optimizer.set_jit(True)
c.optimizer.set_experimental_options({"layout_optimizer": False})
result += [c.optimizer.get_jit(), c.optimizer.get_experimental_options()]
c.optimizer.set_jit(False)
""",
    "run_functions_eagerly": """
traced = []
@tf.function
def f(x):
    traced.append(tf.executing_eagerly())
    return x * 2.0
tf.config.run_functions_eagerly(True)
a = f(tf.constant(1.0))
on = tf.config.functions_run_eagerly()
tf.config.run_functions_eagerly(False)
b = f(tf.constant(2.0))
result = [a, b, traced, on, tf.config.functions_run_eagerly()]
""",
    "memory_info_on_cpu": "tf.config.experimental.get_memory_info('CPU:0')",
    "device_blocks": """
with tf.device("/GPU:0"):
    a = tf.constant([1.0, 2.0]) * 3.0
with tf.device("/cpu:0"):
    b = a + 1.0
with tf.device(None):
    c = b * 2.0
with tf.device(tf.DeviceSpec(device_type="GPU", device_index=1)):
    d = c - 1.0
result = [a, b, c, d]
""",
    "device_bad_name": "\nwith tf.device('nonsense'):\n    pass\n",
    "device_spec": """
s = tf.DeviceSpec.from_string("/job:worker/replica:0/task:1/device:GPU:2")
result = [s.to_string(), repr(s), s.job, s.replica, s.task, s.device_type, s.device_index,
          tf.DeviceSpec(device_type="CPU", device_index=0).to_string(),
          s.replace(job="ps").to_string(),
          s.make_merged_spec(tf.DeviceSpec(job="x")).to_string(),
          tf.DeviceSpec.from_string("/cpu:0").to_string(),
          tf.DeviceSpec.from_string("gpu:*").to_string(),
          tf.DeviceSpec.from_string("/GPU:1").to_string(),
          s == tf.DeviceSpec.from_string(s.to_string()),
          tf.DeviceSpec(job="a").parse_from_string("/task:3").to_string()]
""",
    "device_spec_errors": "tf.DeviceSpec.from_string('/foo:bar')",
    "device_spec_two_types": "tf.DeviceSpec.from_string('/CPU:0/GPU:0')",
}
