"""``keras.ops.image``: Keras' image functions (resizing, colour spaces, transforms,
patches, blur)."""

from retrograd.keras.src.ops.image import (
    crop_images,
    extract_patches,
    gaussian_blur,
    hsv_to_rgb,
    pad_images,
    resize,
    rgb_to_grayscale,
    rgb_to_hsv,
)
from retrograd.keras.src.ops.image_transform import affine_transform, map_coordinates

__all__ = [
    "affine_transform",
    "crop_images",
    "extract_patches",
    "gaussian_blur",
    "hsv_to_rgb",
    "map_coordinates",
    "pad_images",
    "resize",
    "rgb_to_grayscale",
    "rgb_to_hsv",
]
