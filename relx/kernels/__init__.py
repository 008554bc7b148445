"""Structured kernels over encoded structures (compiled with numba)."""

from relx.kernels.path import PathKernelParams, path_gram, path_kernel, self_kernels

__all__ = ["PathKernelParams", "path_gram", "path_kernel", "self_kernels"]
