"""Readers and writers, one module per format."""

from relx.io.errors import ReaderError
from relx.io.jsonl import read_jsonl, write_jsonl
from relx.io.ppi_xml import PARSES, read_ppi_xml
from relx.io.registry import FORMATS, detect_format, read, write

__all__ = ["FORMATS", "PARSES", "ReaderError", "detect_format", "read", "read_jsonl",
           "read_ppi_xml", "write", "write_jsonl"]
