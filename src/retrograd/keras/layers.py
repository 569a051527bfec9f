"""``tf.keras.layers``: Keras 3's layers (every family: core, convolution, pooling,
recurrent and wrappers, attention, normalisation, regularisation, reshaping, merging,
preprocessing), ``Layer`` to subclass, ``Input``."""

from retrograd.keras.src.layers.activation_layers import (
    ELU,
    LeakyReLU,
    PReLU,
    ReLU,
    Softmax,
    ThresholdedReLU,
)
from retrograd.keras.src.layers.attention import (
    AdditiveAttention,
    Attention,
)
from retrograd.keras.src.layers.base import (
    KerasTensor,
    Layer,
)
from retrograd.keras.src.layers.conv import (
    AveragePooling2D,
    Conv1D,
    Conv2D,
    GlobalAveragePooling2D,
    GlobalMaxPooling2D,
    MaxPooling2D,
)
from retrograd.keras.src.layers.conv import (
    AveragePooling2D as AvgPool2D,
)
from retrograd.keras.src.layers.conv import (
    Conv1D as Convolution1D,
)
from retrograd.keras.src.layers.conv import (
    Conv2D as Convolution2D,
)
from retrograd.keras.src.layers.conv import (
    GlobalAveragePooling2D as GlobalAvgPool2D,
)
from retrograd.keras.src.layers.conv import (
    GlobalMaxPooling2D as GlobalMaxPool2D,
)
from retrograd.keras.src.layers.conv import (
    MaxPooling2D as MaxPool2D,
)
from retrograd.keras.src.layers.conv_depthwise import (
    DepthwiseConv1D,
    DepthwiseConv2D,
    SeparableConv1D,
    SeparableConv2D,
)
from retrograd.keras.src.layers.conv_depthwise import (
    SeparableConv1D as SeparableConvolution1D,
)
from retrograd.keras.src.layers.conv_depthwise import (
    SeparableConv2D as SeparableConvolution2D,
)
from retrograd.keras.src.layers.conv_lstm import (
    ConvLSTM1D,
    ConvLSTM2D,
    ConvLSTM3D,
)
from retrograd.keras.src.layers.conv_more import (
    Conv1DTranspose,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
)
from retrograd.keras.src.layers.conv_more import (
    Conv1DTranspose as Convolution1DTranspose,
)
from retrograd.keras.src.layers.conv_more import (
    Conv2DTranspose as Convolution2DTranspose,
)
from retrograd.keras.src.layers.conv_more import (
    Conv3D as Convolution3D,
)
from retrograd.keras.src.layers.conv_more import (
    Conv3DTranspose as Convolution3DTranspose,
)
from retrograd.keras.src.layers.core import (
    Activation,
    Dense,
    Dropout,
    Embedding,
    Flatten,
    Lambda,
    Masking,
    Reshape,
)
from retrograd.keras.src.layers.einsum_dense import (
    EinsumDense,
    ReversibleEmbedding,
)
from retrograd.keras.src.layers.image_augmentation import (
    RandomHeight,
    RandomRotation,
    RandomShear,
    RandomTranslation,
    RandomWidth,
    RandomZoom,
)
from retrograd.keras.src.layers.image_color import (
    AutoContrast,
    RandomGrayscale,
    RandomInvert,
    RandomPosterization,
    Solarization,
)
from retrograd.keras.src.layers.image_preprocessing import (
    CenterCrop,
    RandomBrightness,
    RandomContrast,
    RandomCrop,
    RandomFlip,
    Resizing,
)
from retrograd.keras.src.layers.input_layer import (
    Input,
    InputLayer,
)
from retrograd.keras.src.layers.layer_config import (
    deserialize,
    serialize,
)
from retrograd.keras.src.layers.merge import (
    Add,
    Average,
    Concatenate,
    Dot,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from retrograd.keras.src.layers.multi_head_attention import (
    GroupQueryAttention,
    MultiHeadAttention,
)
from retrograd.keras.src.layers.normalization import (
    BatchNormalization,
    LayerNormalization,
)
from retrograd.keras.src.layers.normalization_more import (
    GroupNormalization,
    RMSNormalization,
    SpectralNormalization,
    UnitNormalization,
)
from retrograd.keras.src.layers.pooling import (
    AdaptiveAveragePooling1D,
    AdaptiveAveragePooling2D,
    AdaptiveAveragePooling3D,
    AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D,
    AdaptiveMaxPooling3D,
    AveragePooling3D,
    GlobalAveragePooling3D,
    GlobalMaxPooling3D,
    MaxPooling3D,
)
from retrograd.keras.src.layers.pooling import (
    AveragePooling3D as AvgPool3D,
)
from retrograd.keras.src.layers.pooling import (
    GlobalAveragePooling3D as GlobalAvgPool3D,
)
from retrograd.keras.src.layers.pooling import (
    GlobalMaxPooling3D as GlobalMaxPool3D,
)
from retrograd.keras.src.layers.pooling import (
    MaxPooling3D as MaxPool3D,
)
from retrograd.keras.src.layers.preprocessing import (
    CategoryEncoding,
    Discretization,
    Normalization,
    Pipeline,
    Rescaling,
)
from retrograd.keras.src.layers.recurrent import (
    GRU,
    LSTM,
    SimpleRNN,
)
from retrograd.keras.src.layers.regularization import (
    ActivityRegularization,
    AlphaDropout,
    GaussianDropout,
    GaussianNoise,
    SpatialDropout1D,
    SpatialDropout2D,
    SpatialDropout3D,
)
from retrograd.keras.src.layers.reshaping import (
    AveragePooling1D,
    GlobalAveragePooling1D,
    GlobalMaxPooling1D,
    MaxPooling1D,
    Permute,
    RepeatVector,
    UpSampling2D,
    ZeroPadding2D,
)
from retrograd.keras.src.layers.reshaping import (
    AveragePooling1D as AvgPool1D,
)
from retrograd.keras.src.layers.reshaping import (
    GlobalAveragePooling1D as GlobalAvgPool1D,
)
from retrograd.keras.src.layers.reshaping import (
    GlobalMaxPooling1D as GlobalMaxPool1D,
)
from retrograd.keras.src.layers.reshaping import (
    MaxPooling1D as MaxPool1D,
)
from retrograd.keras.src.layers.reshaping_more import (
    Cropping1D,
    Cropping2D,
    Cropping3D,
    Identity,
    UpSampling1D,
    UpSampling3D,
    ZeroPadding1D,
    ZeroPadding3D,
)
from retrograd.keras.src.layers.rnn import (
    GRUCell,
    LSTMCell,
    SimpleRNNCell,
)
from retrograd.keras.src.layers.rnn_layer import (
    RNN,
    StackedRNNCells,
)
from retrograd.keras.src.layers.wrappers import (
    Bidirectional,
    TimeDistributed,
    Wrapper,
)
from retrograd.keras.src.scopes import InputSpec

__all__ = [
    "Activation",
    "ActivityRegularization",
    "AdaptiveAveragePooling1D",
    "AdaptiveAveragePooling2D",
    "AdaptiveAveragePooling3D",
    "AdaptiveMaxPooling1D",
    "AdaptiveMaxPooling2D",
    "AdaptiveMaxPooling3D",
    "Add",
    "AdditiveAttention",
    "AlphaDropout",
    "Attention",
    "AutoContrast",
    "Average",
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "BatchNormalization",
    "Bidirectional",
    "CategoryEncoding",
    "CenterCrop",
    "Concatenate",
    "Conv1D",
    "Conv1DTranspose",
    "Conv2D",
    "Conv2DTranspose",
    "Conv3D",
    "Conv3DTranspose",
    "ConvLSTM1D",
    "ConvLSTM2D",
    "ConvLSTM3D",
    "Convolution1D",
    "Convolution1DTranspose",
    "Convolution2D",
    "Convolution2DTranspose",
    "Convolution3D",
    "Convolution3DTranspose",
    "Cropping1D",
    "Cropping2D",
    "Cropping3D",
    "Dense",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "Discretization",
    "Dot",
    "Dropout",
    "ELU",
    "EinsumDense",
    "Embedding",
    "Flatten",
    "GRU",
    "GRUCell",
    "GaussianDropout",
    "GaussianNoise",
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAveragePooling3D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalAvgPool3D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPool3D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "GlobalMaxPooling3D",
    "GroupNormalization",
    "GroupQueryAttention",
    "Identity",
    "Input",
    "InputLayer",
    "InputSpec",
    "KerasTensor",
    "LSTM",
    "LSTMCell",
    "Lambda",
    "Layer",
    "LayerNormalization",
    "LeakyReLU",
    "Masking",
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "Maximum",
    "Minimum",
    "MultiHeadAttention",
    "Multiply",
    "Normalization",
    "PReLU",
    "Permute",
    "Pipeline",
    "RMSNormalization",
    "RNN",
    "RandomBrightness",
    "RandomContrast",
    "RandomCrop",
    "RandomFlip",
    "RandomGrayscale",
    "RandomHeight",
    "RandomInvert",
    "RandomPosterization",
    "RandomRotation",
    "RandomShear",
    "RandomTranslation",
    "RandomWidth",
    "RandomZoom",
    "ReLU",
    "RepeatVector",
    "Rescaling",
    "Reshape",
    "Resizing",
    "ReversibleEmbedding",
    "SeparableConv1D",
    "SeparableConv2D",
    "SeparableConvolution1D",
    "SeparableConvolution2D",
    "SimpleRNN",
    "SimpleRNNCell",
    "Softmax",
    "Solarization",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "SpectralNormalization",
    "StackedRNNCells",
    "Subtract",
    "ThresholdedReLU",
    "TimeDistributed",
    "UnitNormalization",
    "UpSampling1D",
    "UpSampling2D",
    "UpSampling3D",
    "Wrapper",
    "ZeroPadding1D",
    "ZeroPadding2D",
    "ZeroPadding3D",
    "add",
    "average",
    "concatenate",
    "deserialize",
    "dot",
    "maximum",
    "minimum",
    "multiply",
    "serialize",
    "subtract",
]
