"""Readers and writers, one module per format.

The names below are imported from their modules when first used (PEP 562): importing one
format's module (``relx.io.atomic``, ``relx.io.registry``...) does not load every reader and
its dependencies (the PPI XML reader's lemmatizer takes ~0.5 s to import).
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "ReaderError": "relx.io.errors",
    "read_jsonl": "relx.io.jsonl", "write_jsonl": "relx.io.jsonl",
    "PARSES": "relx.io.ppi_xml", "read_ppi_xml": "relx.io.ppi_xml",
    "FORMATS": "relx.io.registry", "detect_format": "relx.io.registry",
    "read": "relx.io.registry", "write": "relx.io.registry", "scan": "relx.io.registry",
    "read_jats": "relx.io.jats", "read_pmc_package": "relx.io.jats", "read_pdf": "relx.io.pdf",
    "select_sections": "relx.io.papers", "boxes_for": "relx.io.papers",
    "locate_sentences": "relx.io.papers",
    "read_standoff": "relx.io.standoff", "read_standoff_dir": "relx.io.standoff",
    "write_a2": "relx.io.standoff",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'relx.io' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["FORMATS", "PARSES", "ReaderError", "boxes_for", "detect_format",
           "locate_sentences", "read", "read_jats", "read_jsonl", "read_pdf",
           "read_pmc_package", "read_ppi_xml", "read_standoff", "read_standoff_dir", "scan",
           "select_sections", "write", "write_a2", "write_jsonl"]
