"""Readers and writers, one module per format."""

from relx.io.errors import ReaderError
from relx.io.jsonl import read_jsonl, write_jsonl
from relx.io.ppi_xml import PARSES, read_ppi_xml
from relx.io.registry import FORMATS, detect_format, read, write
from relx.io.standoff import read_standoff, read_standoff_dir, write_a2

__all__ = ["FORMATS", "PARSES", "ReaderError", "detect_format", "read", "read_jsonl",
           "read_ppi_xml", "read_standoff", "read_standoff_dir", "write", "write_a2",
           "write_jsonl"]
