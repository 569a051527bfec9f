"""``keras.ops.image``: Keras' image functions (resizing, colour spaces, transforms,
patches, blur)."""

from retrograd.keras.src.ops.image import (
    affine_transform,
    crop_images,
    extract_patches,
    gaussian_blur,
    hsv_to_rgb,
    map_coordinates,
    pad_images,
    resize,
    rgb_to_grayscale,
    rgb_to_hsv,
)

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
