"""PDF papers with a text layer, as sectioned documents with page boxes (PDFium, through
``pypdfium2``: Apache-2.0/BSD-3; chosen by measurement, see ``benchmarks/bench_papers.py``).

Each page's characters (with their boxes, font size and weight, from PDFium) are grouped
into lines and the lines laid out in reading order:

- columns: a page whose lines leave a vertical gutter is read column by column, in bands
  between the lines that cross the gutter (title, wide figures); rotated text is dropped;
- running headers and footers (lines in the top or bottom margin that repeat on several
  pages, digits aside) and page numbers are dropped;
- superscript citation numbers (``disease.¹²``, ``²,³``, ``⁴⁻⁶``) and bracketed numeric
  citations (``[1, 2]``) are left out; a hyphen at a line end is removed when a
  lower-case word goes on after it (``pro-`` / ``tein``); ligatures, full-width forms and
  odd spaces are folded (:func:`relx.io.papers.clean_text`);
- paragraphs end at a vertical gap, an indent, or a change of font; a paragraph goes on
  across a column or page break when its last line does not end a sentence;
- headings (bold or larger short paragraphs, or a bare known heading) open sections typed
  by :func:`relx.io.papers.section_type` (an unknown heading is a subsection of the
  section around it); the title (largest type on page 1) is ``TITLE``; the front matter
  before the first heading is ``ABSTRACT`` for long paragraphs, else ``AUTH_AFF``;
  everything after a references heading is ``REF`` until the next heading; captions
  (``Figure 2.``, ``Table 1:``) are sections of their own (``FIG``, ``TABLE``), and so are
  table bodies (paragraphs of rows of three or more cells: ``TABLE``) and small-print
  notes about authors, correspondence or rights (``AUTH_AFF``).

Every printed line of the text has a :class:`relx.doc.LineBox` (page, character range,
``[x0, y0, x1, y1]`` in points from the top-left corner) in ``Document.layout``, so the
boxes of any span, e.g. a sentence, are :func:`relx.io.papers.boxes_for`.

A file that is not a PDF, an encrypted, truncated or damaged one, and one without a text
layer (scanned pages) raise :class:`ReaderError` with the reason. ``max_pages`` and
``max_seconds`` bound the work per file: a longer PDF is read up to there and the
document says so in ``meta["truncated"]`` (and a warning is logged).
"""

from __future__ import annotations

import logging
import re
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from relx.doc import Document
from relx.io.errors import OnError, ReaderError
from relx.io.papers import TextBuilder, section_type
from relx.io.pdf_text import TextLine, page_lines
from relx.io.source import open_binary

log = logging.getLogger(__name__)

#: default caps per file
MAX_PAGES = 300
MAX_SECONDS = 120.0

_CAPTION = re.compile(r"^(?:(Supplementary|Additional|Extended Data)\s+)?"
                      r"(Fig(?:ure)?s?|Table|Scheme|Plate)\.?\s*S?\d+[A-Za-z]?\b\s*[.:|—–-]?")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^[ivxlc]{1,6}$",
                          re.I)
_END = re.compile(r"[.!?:;)\]\"”]$")
_ITEM = re.compile(r"^(\[\d{1,3}\]|\d{1,3}\.)\s")   # a numbered reference or list item
_NOTE = re.compile(r"correspond|e-?mail|@|©|copyright|licen[cs]e|\buniversity\b|"
                   r"department|institut", re.I)   # small print about authors or rights
_NUMBERED = re.compile(r"^(\d+(\.\d+)*\.?|[IVX]+\.)\s+[A-Z]")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;)])")


@dataclass
class _Para:
    lines: list[TextLine] = field(default_factory=list)
    text: str = ""
    boxes: list[tuple[int, int, int, list[float]]] = field(default_factory=list)

    @property
    def size(self) -> float:
        return statistics.median(ln.size for ln in self.lines)

    @property
    def bold(self) -> bool:
        return sum(ln.bold for ln in self.lines) * 2 > len(self.lines)


# ------------------------------------------------------------------ opening

def _check_bytes(path: Path, data: bytes) -> None:
    head = data[:1024]
    if b"%PDF-" not in head:
        shown = head[:40].decode("latin-1").strip()
        hint = " (an HTML page?)" if shown.lower().startswith(("<!doctype html", "<html")) else ""
        raise ReaderError(path, "file", f"not a PDF: no %PDF- header; it starts with "
                                        f"{shown[:30]!r}{hint}")
    if b"%%EOF" not in data[-4096:]:
        raise ReaderError(path, "file", "truncated PDF: the file ends before its %%EOF "
                                        "marker (an interrupted download?)")


def _open(path: Path, data: bytes) -> Any:
    import pypdfium2 as pdfium

    _check_bytes(path, data)
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise ReaderError(path, "file", "encrypted PDF: it needs a password to be "
                                            "read") from None
        raise ReaderError(path, "file", f"damaged or truncated PDF ({msg})") from None


# ------------------------------------------------------------------ page layout

def _gutter(lines: list[TextLine], width: float, hint: float | None = None) -> float | None:
    """The x of a vertical gutter between two columns, or None (one column): the x in
    the middle of the page that (almost) no column-wide line crosses, with such lines
    on both sides of it. ``hint``: the gutter of the document's other pages, taken on a
    page with few lines when no line crosses it and lines stand on both sides."""
    narrow = [ln for ln in lines if 0.1 * width < ln.x1 - ln.x0 < 0.55 * width]
    if hint is not None:
        left = sum(1 for ln in narrow if ln.x1 <= hint + 1)
        right = sum(1 for ln in narrow if ln.x0 >= hint - 1)
        cross = any(ln.x0 < hint - 1 and ln.x1 > hint + 1 for ln in narrow)
        return hint if left and right and not cross else None
    if len(narrow) < 8:
        return None
    xs = []
    x = 0.3 * width
    while x <= 0.7 * width:   # every 2 pt across the middle of the page
        xs.append(x)
        x += 2.0
    if not xs:
        return None
    at = np.array(xs)[:, None]
    x0 = np.array([ln.x0 for ln in narrow])
    x1 = np.array([ln.x1 for ln in narrow])
    crossing = ((x0 < at - 1) & (x1 > at + 1)).sum(axis=1)   # (len(xs),) lines across x
    i = int(np.argmin(crossing))   # the first of the least crossed
    best, best_cross = xs[i], int(crossing[i])
    left = [ln for ln in narrow if ln.x1 <= best + 1]
    right = [ln for ln in narrow if ln.x0 >= best - 1]
    if best_cross <= 0.1 * len(narrow) and len(left) >= 4 and len(right) >= 4:
        # centre the gutter in the empty band around ``best``
        lo = max(ln.x1 for ln in left)
        hi = min(ln.x0 for ln in right)
        return (lo + hi) / 2 if lo < hi else best
    return None


def _merge_rows(lines: list[TextLine]) -> list[TextLine]:
    """Segments of one column on the same baseline as one line, left to right."""
    lines = sorted(lines, key=lambda ln: (round(ln.base, 0), ln.x0))
    out: list[TextLine] = []
    for ln in lines:
        if out and abs(out[-1].base - ln.base) < 0.4 * max(ln.size, out[-1].size) and \
                ln.x0 >= out[-1].x1 - 1:
            prev = out[-1]
            prev.text = f"{prev.text} {ln.text}"
            prev.clean = f"{prev.clean} {ln.clean}".strip()
            prev.x1 = max(prev.x1, ln.x1)
            prev.top, prev.bottom = min(prev.top, ln.top), max(prev.bottom, ln.bottom)
            prev.bold = prev.bold and ln.bold
            prev.segments += ln.segments
        else:
            out.append(ln)
    return sorted(out, key=lambda ln: (ln.top, ln.x0))


def _reading_order(lines: list[TextLine], g: float | None) -> list[list[TextLine]]:
    """The page's lines as blocks (a column within a band, or a wide line) in reading
    order; ``g``: the page's gutter (None: one column)."""
    if g is None:
        return [_merge_rows(lines)]
    wide = sorted((ln for ln in lines if ln.x0 < g - 2 and ln.x1 > g + 2), key=lambda ln: ln.top)
    narrow = [ln for ln in lines if not (ln.x0 < g - 2 and ln.x1 > g + 2)]
    blocks: list[list[TextLine]] = []
    cuts = [ln.top for ln in wide] + [float("inf")]
    start = float("-inf")
    wi = 0
    for cut in cuts:
        band = [ln for ln in narrow if start <= ln.top < cut]
        left = [ln for ln in band if ln.x1 <= g + 2]
        right = [ln for ln in band if ln.x1 > g + 2]
        for col in (left, right):
            if col:
                blocks.append(_merge_rows(col))
        # the wide lines at this cut, until the next narrow line starts
        while wi < len(wide) and wide[wi].top <= cut:
            blocks.append([wide[wi]])
            wi += 1
        start = cut
    # join consecutive one-line wide blocks
    merged: list[list[TextLine]] = []
    for blk in blocks:
        if merged and len(blk) == 1 and len(merged[-1]) >= 1 and \
                merged[-1][-1].x0 < g - 2 and merged[-1][-1].x1 > g + 2 and \
                blk[0].x0 < g - 2 and blk[0].x1 > g + 2:
            merged[-1].append(blk[0])
        else:
            merged.append(blk)
    return merged


def _rows(lines: list[TextLine]) -> list[list[TextLine]]:
    """The page's segments grouped by baseline, top to bottom."""
    rows: list[list[TextLine]] = []
    for ln in sorted(lines, key=lambda ln: ln.base):
        if rows and abs(rows[-1][0].base - ln.base) < 0.5 * max(ln.size, rows[-1][0].size):
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return [sorted(r, key=lambda ln: ln.x0) for r in rows]


def _margins(pages: list[list[TextLine]], heights: list[float]) -> set[int]:
    """ids of the segments of running headers and footers and of page numbers. Candidates
    are the first or last two rows of a page within its top or bottom 9 %; a row whose
    text (digits aside) is on another page too goes, and so does a longer piece of a row
    (three words or more) that is (``Journal 2010, 4:1`` beside a page's own ``Page 9``)."""
    drop: set[int] = set()
    counts: Counter[str] = Counter()
    keyed: list[tuple[list[TextLine], str]] = []
    for lines, h in zip(pages, heights, strict=True):
        rows = _rows(lines)
        edge = rows[:2] + rows[-2:] if len(rows) > 4 else rows
        seen = set()
        for row in edge:
            if not (all(ln.bottom < 0.09 * h for ln in row) or
                    all(ln.top > 0.91 * h for ln in row)):
                continue
            text = " ".join(ln.text.strip() for ln in row)
            if _PAGE_NUMBER.match(text):
                drop.update(id(ln) for ln in row)
                continue
            pieces = [(row, text)] + [([ln], ln.text.strip()) for ln in row
                                      if len(row) > 1 and len(ln.text.split()) >= 3]
            for group, t in pieces:
                if _PAGE_NUMBER.match(t):
                    drop.update(id(ln) for ln in group)
                    continue
                key = re.sub(r"\d+", "#", t.lower())
                keyed.append((group, key))
                if key not in seen:
                    seen.add(key)
                    counts[key] += 1
    if len(pages) >= 2:
        for group, key in keyed:
            if counts[key] >= 2:
                drop.update(id(ln) for ln in group)
    return drop


# ------------------------------------------------------------------ paragraphs

def _hyphen_join(prev: str, nxt: str) -> bool:
    """Remove the hyphen ending ``prev`` before ``nxt``: a lower-case word goes on."""
    # (the end only: a paragraph's text grows a line at a time)
    return bool(re.search(r"[a-z]{2}-$", prev[-4:])) and bool(re.match(r"[a-z]", nxt))


def _paragraphs(blocks: list[list[TextLine]], body_size: float, pitch: float) -> list[_Para]:
    paras: list[_Para] = []
    cur: _Para | None = None
    for blk in blocks:
        col_x0 = min(ln.x0 for ln in blk)
        col_x1 = max(ln.x1 for ln in blk)
        prev: TextLine | None = None
        for ln in blk:
            if not ln.clean:
                continue
            new = cur is None
            if not new and prev is None:   # first line of a column/page: go on?
                last = cur.lines[-1]
                new = bool(_END.search(last.clean)) or abs(ln.size - last.size) > 0.6 or \
                    ln.bold != last.bold or _CAPTION.match(ln.clean) is not None or \
                    not (ln.clean[:1].islower() or last.clean.endswith("-") or
                         not _END.search(last.clean))
            elif not new:
                gap = ln.top - prev.bottom
                last_short = prev.x1 < col_x1 - 2.5 * max(ln.size, 1)
                indented = ln.x0 > col_x0 + 0.8 * ln.size and prev.x0 <= col_x0 + 0.8 * ln.size
                new = (gap > max(0.55 * pitch, 0.45 * ln.size) + 0.3 * ln.size or
                       abs(ln.size - prev.size) > 0.6 or ln.bold != prev.bold or
                       (indented and (last_short or bool(_END.search(prev.clean)))) or
                       (last_short and bool(_END.search(prev.clean)) and
                        ln.size <= body_size + 0.5) or
                       _CAPTION.match(ln.clean) is not None or
                       (_ITEM.match(ln.clean) is not None and bool(_END.search(prev.clean))) or
                       (len(cur.lines) == 1 and last_short and _bare_heading(prev.clean)))
            if new:
                cur = _Para()
                paras.append(cur)
            cur.lines.append(ln)
            prev = ln
    for p in paras:
        _para_text(p)
    return [p for p in paras if p.text]


def _bare_heading(text: str) -> bool:
    """A line that is a known heading by its words alone (``Competing interests``)."""
    return len(text.split()) <= 5 and not text.endswith((".", ",", ";")) and \
        section_type(text) is not None


def _para_text(p: _Para) -> None:
    text = ""
    boxes: list[tuple[int, int, int, list[float]]] = []
    for ln in p.lines:
        t = ln.clean
        if not t:
            continue
        if text:
            if _hyphen_join(text, t):
                text = text[:-1]
                if boxes:
                    pg, a, b, bx = boxes[-1]
                    boxes[-1] = (pg, a, min(b, len(text)), bx)
            else:
                text += " "
        start = len(text)
        text += t
        boxes.append((ln.page, start, len(text),
                      [round(ln.x0, 2), round(ln.top, 2), round(ln.x1, 2), round(ln.bottom, 2)]))
    p.text, p.boxes = text, boxes


# ------------------------------------------------------------------ sections

def _heading(p: _Para, body_size: float) -> str | None:
    """The heading text when ``p`` is a heading."""
    words = p.text.split()
    if not words or len(p.lines) > 2 or len(words) > 14 or _CAPTION.match(p.text):
        return None
    styled = p.bold or p.size > body_size + 0.8
    known = section_type(p.text) is not None
    if styled and not p.text.endswith((".", ",", ";")) or \
            styled and re.match(r"^\d+(\.\d+)*\.?\s+\S", p.text):
        return p.text
    if known and len(words) <= 5 and not p.text.endswith((",", ";")):
        return p.text
    return None


def _tabular(p: _Para) -> bool:
    """Most of the paragraph's lines are rows of three or more cells."""
    return sum(ln.segments >= 3 for ln in p.lines) >= max(1, 0.6 * len(p.lines))


def _document(path: Path, stem: str, paras: list[_Para], body_size: float,
              pages: int, truncated: str | None) -> Document:
    b = TextBuilder()
    # the title: the largest type in the top half of page 1; what comes before it is
    # front matter, and so is what follows it up to the first heading
    first = [i for i, p in enumerate(paras) if p.lines[0].page == 1]
    title_i = max(first, key=lambda i: (round(paras[i].size * 2), len(paras[i].text)),
                  default=None)
    if title_i is not None and paras[title_i].size < body_size + 1.5:
        title_i = None
    # the body starts at the first heading of a known kind (or numbered) after the title:
    # styled lines before it (author names, article type) are front matter
    after = title_i + 1 if title_i is not None else 0
    first_heading = next((i for i in range(after, len(paras))
                          if (h := _heading(paras[i], body_size)) and
                          (section_type(h) is not None or _NUMBERED.match(h))), len(paras))
    top: str | None = None     # the type of the open top-level section
    abstract_seen = False
    for i, p in enumerate(paras):
        cap = _CAPTION.match(p.text)
        heading = _heading(p, body_size) if i >= first_heading else None
        if i == title_i:
            b.open("TITLE")
            b.add(p.text, p.boxes)
            b.close()
        elif i < first_heading and (title_i is None or i < title_i or
                                    paras[i].lines[0].page <= 2):
            words = len(p.text.split())
            # a long paragraph is the abstract; so is a shorter sentence after it (the
            # last part of a structured abstract), unless it is small print
            kind = "ABSTRACT" if words >= 40 or (
                abstract_seen and words >= 8 and p.text.rstrip().endswith(".")
                and not _NOTE.search(p.text)) else "AUTH_AFF"
            abstract_seen = abstract_seen or kind == "ABSTRACT"
            b.open(kind)
            b.add(p.text, p.boxes)
            b.close()
        elif cap:
            typ = "TABLE" if cap.group(2).lower().startswith("table") else "FIG"
            if cap.group(1) and cap.group(1).lower() in ("supplementary", "additional"):
                typ = "SUPPL"
            b.open(typ, cap.group(0).strip(" .:|—–-"))
            b.add(p.text, p.boxes)
            b.close()
        elif _tabular(p) or (p.size < body_size - 0.8 and _NOTE.search(p.text) and
                             (b.current is None or b.current.type != "REF")):
            b.open("TABLE" if _tabular(p) else "AUTH_AFF")   # table body; a page-1 note
            b.add(p.text, p.boxes)
            b.close()
        elif heading:
            typ = section_type(heading)
            sub = typ is None and top is not None   # in REF too: a reference list goes on
            while b.current is not None and (not sub or b.current.level >= 1):
                b.close()
            if sub:
                b.open(top or "OTHER", heading)
            else:
                top = typ or "OTHER"
                b.open(top, heading)
            b.add(p.text, p.boxes)
        else:
            if b.current is None:
                top = top or "OTHER"
                b.open(top)
            b.add(p.text, p.boxes)
    meta = {"pages": str(pages)}
    m = _DOI.search(" ".join(p.text for p in paras[:first_heading + 3]))
    if m:
        meta["doi"] = m.group(1)
    if truncated:
        meta["truncated"] = truncated
    return b.build(stem, "pdf", meta)


# ------------------------------------------------------------------ readers

def read_pdf_bytes(data: bytes, path: str | Path, stem: str | None = None,
                   max_pages: int = MAX_PAGES, max_seconds: float = MAX_SECONDS
                   ) -> Iterator[Document]:
    """The document of the PDF ``data`` (``path`` names it in errors; ``stem``: its id,
    default the file stem)."""
    path = Path(path)
    t0 = time.monotonic()
    pdf = _open(path, data)
    try:
        n = len(pdf)
        if n == 0:
            raise ReaderError(path, "file", "the PDF has no pages")
        pages: list[list[TextLine]] = []
        heights: list[float] = []
        widths: list[float] = []
        truncated = None
        for k in range(n):
            if k >= max_pages:
                truncated = f"read {k} of {n} pages (max_pages={max_pages})"
                break
            if k and time.monotonic() - t0 > max_seconds:   # at least one page
                truncated = f"read {k} of {n} pages (max_seconds={max_seconds:g})"
                break
            try:
                page = pdf[k]
                w, h = page.get_size()
                tp = page.get_textpage()
            except Exception as exc:   # PDFium's errors on a damaged page
                raise ReaderError(path, f"page {k + 1}", f"damaged or truncated PDF: the page "
                                                         f"cannot be read ({exc})") from None
            try:
                lines = page_lines(tp, k + 1, h)
            finally:
                tp.close()
                page.close()
            pages.append(lines)
            heights.append(h)
            widths.append(w)
    finally:
        pdf.close()
    n_chars = sum(len(ln.text.strip()) for lines in pages for ln in lines)
    if n_chars < 20 * max(1, min(len(pages), 3)) / 3:
        raise ReaderError(path, "file", f"no text layer: {len(pages)} page(s) with no text "
                                        "(a scanned or image-only PDF); OCR it first")
    drop = _margins(pages, heights)
    kept = [[ln for ln in lines if id(ln) not in drop] for lines in pages]
    gutters = [_gutter(lines, w) for lines, w in zip(kept, widths, strict=True)]
    found = sorted(g for g in gutters if g is not None)
    hint = found[len(found) // 2] if found else None
    blocks: list[list[TextLine]] = []
    for lines, w, g in zip(kept, widths, gutters, strict=True):
        if g is None and hint is not None:
            g = _gutter(lines, w, hint)
        blocks += [blk for blk in _reading_order(lines, g) if blk]
    all_lines = [ln for blk in blocks for ln in blk]
    sizes = Counter()
    for ln in all_lines:
        sizes[ln.size] += len(ln.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0
    pitches = [b2.top - b1.top for blk in blocks for b1, b2 in zip(blk, blk[1:], strict=False)
               if abs(b1.size - body_size) < 0.3 and abs(b2.size - body_size) < 0.3
               and 0 < b2.top - b1.top < 3 * body_size]
    pitch = statistics.median(pitches) if pitches else 1.2 * body_size
    paras = _paragraphs(blocks, body_size, pitch)
    if truncated:
        log.warning("%s: %s", path, truncated)
    yield _document(path, stem or path.name.rsplit(".", 1)[0], paras, body_size, len(pages),
                    truncated)


def read_pdf(path: str | Path, on_error: OnError = None, max_pages: int = MAX_PAGES,
             max_seconds: float = MAX_SECONDS) -> Iterator[Document]:
    """The document of a PDF file (see the module docstring). ``on_error`` is accepted
    like every reader's: one file is one document, so errors are raised."""
    path = Path(path)
    with open_binary(path, whole=True) as fh:
        data = fh.read()
    yield from read_pdf_bytes(data, path, None, max_pages, max_seconds)
