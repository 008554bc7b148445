"""Content tests of format detection: what a file's first bytes say of its format.

A :class:`Sample` reads a file's head, its first non-blank line and its XML root element
at most once each; the tests below (``Format.sniff`` of the rows of
:data:`relx.io.registry.FORMATS`) look at it. None imports a reader.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from relx.io.errors import ReaderError
from relx.io.source import open_binary

#: bytes of a file's head the tests look at (a JSON test: :data:`JSON_HEAD`)
HEAD = 1 << 16
#: bytes a JSON test looks at: a BioC collection's ``"documents"`` may follow large infons
JSON_HEAD = 1 << 20
_PUBTATOR = re.compile(rb"^[^|\t\r\n]+\|[ta]\|")


class Sample:
    """One file as format detection sees it (``.gz`` decompressed, reads capped)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._heads: dict[int, bytes] = {}
        self._root: str | None = None

    def head(self, n: int = HEAD) -> bytes:
        """The first ``n`` bytes (fewer when the file is shorter)."""
        if n not in self._heads:
            with open_binary(self.path) as fh:
                self._heads[n] = fh.read(n)
        return self._heads[n]

    def first_line(self) -> bytes:
        """The first line of :meth:`head` holding more than white space (b"" if none)."""
        return next((ln for ln in self.head().splitlines() if ln.strip()), b"")

    def starts_with(self, chars: bytes) -> bool:
        """Whether the first byte after leading white space is one of ``chars``."""
        first = self.head().lstrip()[:1]
        return bool(first) and first in chars

    def is_xml(self) -> bool:
        """Whether the content starts as XML does (``<`` after white space)."""
        return self.starts_with(b"<")

    def root(self) -> str:
        """The local name of the XML root element; a :class:`ReaderError` when the file is
        not well-formed XML (read up to its first element only, no entities expanded)."""
        if self._root is None:
            self._root = _xml_root(self.path)
        return self._root


def _xml_root(path: Path) -> str:
    try:
        with open_binary(path) as fh:
            for _, el in etree.iterparse(fh, events=("start",), resolve_entities=False,
                                         no_network=True, load_dtd=False, huge_tree=False):
                return etree.QName(el).localname
    except etree.XMLSyntaxError as exc:
        raise ReaderError(path, f"line {exc.lineno}", f"not well-formed XML: {exc.msg}") from None
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    raise ReaderError(path, "file", "no XML element found")


# ------------------------------------------------------------------ the rows' content tests

def is_pdf(s: Sample) -> bool:
    """PDF: the file starts with ``%PDF``."""
    return s.head().startswith(b"%PDF")


def is_bioc_json(s: Sample) -> bool:
    """BioC JSON: it is a JSON object or list naming ``"documents"`` or ``"passages"`` in
    its first MiB."""
    head = s.head(JSON_HEAD)
    return head.lstrip()[:1] in (b"{", b"[") and (b'"documents"' in head or
                                                  b'"passages"' in head)


def is_json(s: Sample) -> bool:
    """JSON lines: the content starts with ``{`` or ``[``."""
    return s.starts_with(b"{[")


def is_pubtator(s: Sample) -> bool:
    """PubTator: the first non-blank line is a title or abstract line (``PMID|t|``)."""
    return _PUBTATOR.match(s.first_line()) is not None


def is_text(s: Sample) -> bool:
    """UTF-8 text: its first 64 KiB are UTF-8 (but for a character cut at their end)."""
    head = s.head()
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return len(head) - exc.start <= 4
    return True
