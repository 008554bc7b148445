"""relx: biomedical relation extraction with structured kernels."""

__version__ = "0.1.0"
