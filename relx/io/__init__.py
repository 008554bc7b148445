"""Readers and writers, one module per format."""

from relx.io.errors import ReaderError
from relx.io.jsonl import read_jsonl, write_jsonl
from relx.io.ppi_xml import PARSES, read_ppi_xml

__all__ = ["PARSES", "ReaderError", "read_jsonl", "read_ppi_xml", "write_jsonl"]
