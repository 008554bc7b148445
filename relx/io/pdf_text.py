"""A PDF page's text layer as printed lines: PDFium's characters, with their boxes, type
size and weight, grouped into line segments (compiled with numba; see :mod:`relx.io.pdf`
for what is made of the lines).

PDFium answers one question per character (its code, its box); asked from Python each
costs ~2 us, most of a page's reading time. Here a compiled loop calls PDFium's C
functions directly (as numba first-class functions, so the loop is cached like relx's
other compiled code) and everything per character -- the runs of one size and weight,
the line breaks, each line's extent, type size, baseline, weight and spacing -- runs on
arrays. Python sees each line once, and each character only on the few lines with raised
small type (superscript citations, :func:`_line_text`).
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

import numba.experimental.function_type  # noqa: F401  (types first-class functions)
import numpy as np
from numba import types

from relx.io.papers import clean_text
from relx.numba_cache import cached_jit, ensure_numba_cache

ensure_numba_cache(__file__)   # before the @cached_jit() definitions

_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|[.,+-]b$|[.,+-]bd|bd$|[a-z]-b[a-z]?$")
_FORCE_BOLD = 1 << 18
_BRACKET_CIT = re.compile(r"\s*\[\d{1,4}(?:\s*[,–—‐-]\s*\d{1,4})*\]")
_SUP_CIT = re.compile(r"^[\d,\s–—‐−*†‡§¶-]*[\d*†‡§¶][\d,\s–—‐−*†‡§¶-]*$")
_SPACE_CODE = 32


@dataclass(slots=True)
class _Char:
    c: str
    x0: float
    x1: float
    top: float
    bottom: float
    base: float
    size: float
    bold: bool


_SPACE = _Char(" ", 0, 0, 0, 0, 0, 0, False)


@dataclass
class TextLine:
    """A printed line segment: its page, extent (points from the page's top-left corner),
    baseline, type size (the most common, to 0.1 pt), weight and text."""

    page: int
    x0: float = 0.0
    x1: float = 0.0
    top: float = 0.0
    bottom: float = 0.0
    base: float = 0.0
    size: float = 0.0
    bold: bool = False
    text: str = ""     # as printed
    clean: str = ""    # citations out, cleaned (:func:`_line_text`)
    segments: int = 1  # pieces separated by wide gaps (table cells)


# ------------------------------------------------------------------ PDFium from numba

class _CFunction(types.WrapperAddressProtocol):
    """A C function of PDFium as a numba first-class function (address and signature)."""

    def __init__(self, fn: Any, sig: Any) -> None:
        self._address = ctypes.cast(fn, ctypes.c_void_p).value
        self._sig = sig

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self) -> Any:
        return self._sig


_ULONG = types.uint64 if ctypes.sizeof(ctypes.c_ulong) == 8 else types.uint32
_PDFIUM: tuple[_CFunction, ...] | None = None


def _pdfium() -> tuple[_CFunction, ...]:
    """GetUnicode, GetLooseCharBox, GetCharAngle, GetFontWeight, GetFontInfo."""
    global _PDFIUM
    if _PDFIUM is None:
        import pypdfium2.raw as raw

        i64, i32 = types.int64, types.int32
        _PDFIUM = (
            _CFunction(raw.FPDFText_GetUnicode, types.uint32(i64, i32)),
            _CFunction(raw.FPDFText_GetLooseCharBox, i32(i64, i32, i64)),
            _CFunction(raw.FPDFText_GetCharAngle, types.float32(i64, i32)),
            _CFunction(raw.FPDFText_GetFontWeight, i32(i64, i32)),
            _CFunction(raw.FPDFText_GetFontInfo, _ULONG(i64, i32, i64, i64, i64)),
        )
    return _PDFIUM


@cached_jit(nogil=True)
def _fetch(tp, n, height, get_unicode, get_box, get_angle, get_weight, get_info,
           box, flags, code, x0, x1, top, bottom, size, run, run_char, run_key):
    """The page's characters in PDFium's order into ``code``, ``x0`` .. ``size``, ``run``
    (arrays of ``n``); a space (code 32, no box) stands for any run of whitespace; rotated
    characters, control characters and boxless glyphs are left out. A run is a stretch of
    one type size and line: its first character's index (``run_char``) and font key
    (``run_key``: weight, font-name length, flags). Returns (characters, runs)."""
    k = 0
    nrun = 0
    run_size = -1.0
    run_bottom = -1.0
    rotated = False
    box_at = np.int64(box.ctypes.data)
    flags_at = np.int64(flags.ctypes.data)
    for i in range(n):
        i32 = np.int32(i)
        u = np.int64(get_unicode(tp, i32))
        if u == 32 or u == 13 or u == 10 or u == 9:
            if k > 0 and code[k - 1] != 32:
                code[k] = 32
                x0[k] = x1[k] = top[k] = bottom[k] = size[k] = 0.0
                run[k] = -1
                k += 1
            continue
        if u == 2 or u == 0xFFFE:
            u = 45
        elif u < 32:
            continue
        elif 0xD800 <= u < 0xE000 or u > 0x10FFFF:
            u = 0xFFFD
        get_box(tp, i32, box_at)
        t = np.float64(box[1])
        b = np.float64(box[3])
        s = t - b
        if s <= 0:
            continue
        # the loose box spans the font's ascent to descent: its height is the type size
        # and its bottom stands for the baseline; a new size or line opens a run
        if abs(s - run_size) > 0.05 or abs(b - run_bottom) > 0.05:
            run_size = s
            run_bottom = b
            angle = np.float64(get_angle(tp, i32))
            rotated = 0.05 < angle < 6.23
            run_char[nrun] = i
            run_key[nrun, 0] = get_weight(tp, i32)
            run_key[nrun, 1] = np.int64(get_info(tp, i32, np.int64(0), np.int64(0), flags_at))
            run_key[nrun, 2] = flags[0]
            nrun += 1
        if rotated:
            continue   # a side stamp, an axis label
        code[k] = u
        x0[k] = np.float64(box[0])
        x1[k] = np.float64(box[2])
        top[k] = height - t
        bottom[k] = height - b
        size[k] = s
        run[k] = nrun - 1
        k += 1
    return k, nrun


@cached_jit(nogil=True)
def _segment(code, x0, x1, top, bottom, size, rsize, bold, line, out):
    """Characters (arrays of ``k``; ``rsize``: the size to 0.1 pt) into line segments: a
    new one at a baseline jump (a superscript is no jump), a move back to the left by
    more than two ems or a gap wider than an em (a column gutter). Per line, ``line``
    (rows of float64) gets: first and end character, x0, x1, top, bottom, baseline, size,
    bold, raised small type (0/1), first and end of its spaced text in ``out`` -- the
    characters with a space where a gap is wider than 0.2 em. Returns the line count."""
    k = code.shape[0]
    nl = 0
    n_out = 0
    first = -1
    last = -1
    seen = np.empty(k, np.float64)
    counts = np.empty(k, np.int64)
    bases = np.empty(k, np.float64)
    j = 0
    while j <= k:
        split = j == k
        if not split:
            if code[j] == 32:
                j += 1
                continue
            if last < 0:
                first = j
            else:
                a = size[last]
                c = size[j]
                big = a if a > c else c
                small = c if a > c else a
                if big < 1.0:
                    big = 1.0
                dy = abs(bottom[j] - bottom[last])
                gap = x0[j] - x1[last]
                lim = 0.75 if small < 0.85 * big else 0.45
                split = dy > lim * big or gap < -2.0 * big or gap > big
        if split and last >= 0:
            # the line first .. last (spaces inside it included)
            lx0 = x0[first]
            lx1 = x1[first]
            ltop = top[first]
            lbot = bottom[first]
            nd = 0
            nb = 0
            m = 0
            for c in range(first, last + 1):
                if code[c] == 32:
                    continue
                m += 1
                lx0 = min(lx0, x0[c])
                lx1 = max(lx1, x1[c])
                ltop = min(ltop, top[c])
                lbot = max(lbot, bottom[c])
                nb += bold[c]
                r = rsize[c]
                f = 0
                while f < nd and seen[f] != r:
                    f += 1
                if f == nd:
                    seen[nd] = r
                    counts[nd] = 0
                    nd += 1
                counts[f] += 1
            best = 0
            for f in range(1, nd):
                if counts[f] > counts[best]:
                    best = f
            lsize = seen[best]
            nbase = 0
            for c in range(first, last + 1):
                if code[c] != 32 and abs(size[c] - lsize) < 0.6:
                    bases[nbase] = bottom[c]
                    nbase += 1
            lbase = bottom[first]
            if nbase:
                lbase = np.sort(bases[:nbase])[nbase // 2]
            raised = 0
            o0 = n_out
            prev = -1
            for c in range(first, last + 1):
                if code[c] != 32 and size[c] < 0.8 * lsize and lbase - bottom[c] > 0.15 * lsize:
                    raised = 1
                if code[c] == 32:
                    if out[n_out - 1] != 32:
                        out[n_out] = 32
                        n_out += 1
                else:
                    if prev >= 0 and code[prev] != 32 and x0[c] - x1[prev] > 0.2 * lsize \
                            and out[n_out - 1] != 32:
                        out[n_out] = 32
                        n_out += 1
                    out[n_out] = code[c]
                    n_out += 1
                prev = c
            row = line[nl]
            row[0] = first
            row[1] = last + 1
            row[2] = lx0
            row[3] = lx1
            row[4] = ltop
            row[5] = lbot
            row[6] = lbase
            row[7] = lsize
            row[8] = 1.0 if nb > 0.6 * m else 0.0
            row[9] = raised
            row[10] = o0
            row[11] = n_out
            nl += 1
            last = -1
            if j < k:
                first = j
        if j == k:
            break
        last = j
        j += 1
    return nl


def _decode(codes: np.ndarray) -> str:
    return codes.astype("<u4").tobytes().decode("utf-32-le")


def page_lines(textpage: Any, page_no: int, height: float) -> list[TextLine]:
    """The line segments of one page (a ``pypdfium2`` text page; ``height`` in points),
    in PDFium's order, with ``text`` and ``clean`` set."""
    import pypdfium2.raw as raw

    tp = textpage.raw
    n = raw.FPDFText_CountChars(tp)
    if n <= 0:
        return []
    f64 = np.float64
    code = np.empty(n, np.int64)
    x0, x1, top, bottom, size = (np.empty(n, f64) for _ in range(5))
    run = np.empty(n, np.int64)
    run_char = np.empty(n, np.int64)
    run_key = np.empty((n, 3), np.int64)
    box = np.zeros(4, np.float32)
    flags = np.zeros(1, np.int32)
    address = ctypes.cast(tp, ctypes.c_void_p).value
    k, nrun = _fetch(address, n, float(height), *_pdfium(), box, flags, code, x0, x1, top,
                     bottom, size, run, run_char, run_key)
    if k == 0:
        return []
    # each font's weight, once per page: heavy, forced bold, or a bold name
    bold_of: dict[tuple[int, int, int], bool] = {}
    run_bold = np.zeros(nrun + 1, bool)    # index -1 (spaces): not bold
    buf = ctypes.create_string_buffer(256)
    cflags = ctypes.c_int()
    for r, (weight, length, fl) in enumerate(run_key[:nrun].tolist()):
        key = (weight, length, fl)
        b = bold_of.get(key)
        if b is None:
            raw.FPDFText_GetFontInfo(tp, int(run_char[r]), buf, len(buf), cflags)
            name = buf.value.decode("latin-1").lower()
            b = bold_of[key] = weight >= 600 or bool(fl & _FORCE_BOLD) or \
                _BOLD_NAME.search(name) is not None
        run_bold[r] = b
    code, x0, x1, top, bottom, size = (a[:k] for a in (code, x0, x1, top, bottom, size))
    bold = run_bold[run[:k]]
    uniq, inverse = np.unique(size, return_inverse=True)
    rsize = np.array([round(s, 1) for s in uniq.tolist()])[inverse]
    line = np.empty((k, 12), f64)
    out = np.empty(2 * k, np.int64)
    nl = _segment(code, x0, x1, top, bottom, size, rsize, bold, line, out)
    text, spaced = _decode(code), _decode(out[:int(line[nl - 1, 11])])
    lines: list[TextLine] = []
    for first, end, lx0, lx1, ltop, lbot, lbase, lsize, lbold, raised, o0, o1 in \
            line[:nl].tolist():
        a, b = int(first), int(end)
        ln = TextLine(page_no, lx0, lx1, ltop, lbot, lbase, lsize, lbold > 0, text[a:b])
        if raised:
            chars = [_SPACE if text[c] == " " else
                     _Char(text[c], float(x0[c]), float(x1[c]), float(top[c]),
                           float(bottom[c]), float(bottom[c]), float(size[c]), bool(bold[c]))
                     for c in range(a, b)]
            ln.clean = _line_text(ln, chars)
        else:
            ln.clean = clean_text(_BRACKET_CIT.sub("", spaced[int(o0):int(o1)]))
        lines.append(ln)
    return lines


def _line_text(ln: TextLine, cs: list[_Char]) -> str:
    """The text of a line of characters ``cs``: superscript citation numbers out, spaces
    where the gaps are."""
    out: list[str] = []
    i = 0
    prev: _Char | None = None
    while i < len(cs):
        ch = cs[i]
        if ch.c != " " and ch.size and ch.size < 0.8 * ln.size and \
                ln.base - ch.base > 0.15 * ln.size:
            j = i
            while j < len(cs) and (cs[j].c == " " or (cs[j].size < 0.8 * ln.size and
                                                       ln.base - cs[j].base > 0.1 * ln.size)):
                j += 1
            run = "".join(c.c for c in cs[i:j]).strip()
            before = "".join(out).rstrip()
            word = re.search(r"([A-Za-zµμ]+)$", before)
            unit = word is not None and word.group(1).islower() and len(word.group(1)) <= 3
            if _SUP_CIT.match(run) and (re.search(r"[,–—‐−-]", run) or len(run) >= 2 or
                                        not before or before[-1] in ".,;:)]" or
                                        (word is not None and not unit)):
                i = j
                prev = None
                continue
        if ch.c == " ":
            if out and out[-1] != " ":
                out.append(" ")
        else:
            if prev is not None and prev.c != " " and ch.x0 - prev.x1 > 0.2 * ln.size \
                    and out and out[-1] != " ":
                out.append(" ")
            out.append(ch.c)
        prev = ch
        i += 1
    text = _BRACKET_CIT.sub("", "".join(out))
    return clean_text(text)
