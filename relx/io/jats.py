"""JATS / NLM XML full text (PMC OA ``.nxml``, Europe PMC, eLife, bioRxiv), and PMC OA
``.tar.gz`` packages, as sectioned documents.

One document per ``<article>`` (a ``<pmc-articleset>`` of several is read article by
article). Its text is built paragraph by paragraph, each on its own line:

- the title (``TITLE``), the abstracts (``ABSTRACT``, their section titles as lines);
- the body: each ``<sec>`` a :class:`relx.doc.Section` whose title is a line of its own,
  typed from ``sec-type`` or its title (:func:`relx.io.papers.section_type`), else the type
  of the section around it (``OTHER`` at the top); paragraphs, lists, quotes, formulas;
- figure and table captions (``FIG``, ``TABLE``) and supplementary material (``SUPPL``)
  after the paragraph that holds them; table cells as text when ``table_cells=True``
  (one line per row, cells separated by `` | ``);
- back matter: acknowledgements and funding (``ACK_FUND``), author contributions
  (``AUTH_AFF``), competing interests (``COMP_INT``), footnotes (``FOOTNOTE``), appendices
  (``SUPPL``), the reference list (``REF``, one line per reference).

Citation markers (``<xref ref-type="bibr">``: ``[1, 2]``, ``(Smith et al., 2001)``,
superscript numbers) and footnote markers are left out of the text, with the brackets
around them; a narrative citation (``as Smith et al. (2001) showed``) keeps its words.
Inline formatting contributes its text; MathML its ``alttext`` or its characters; the
text is cleaned by :func:`relx.io.papers.clean_text`. Every offset (sections) is into
the text built, which is the document's text.

``id``: the PMID, else the PMCID (``PMC...``), else the DOI, else the file stem; all
three are kept in ``meta``. XML is parsed safely: no DTD is loaded or fetched (a
``DOCTYPE`` naming an external DTD is fine), no network, no entity expansion; internal
DTD entity declarations are refused.

PMC OA packages (``.tar.gz``/``.tgz``): one article's package (``.nxml`` + ``.pdf`` +
figures: the ``.nxml`` is read; a package holding only a PDF is read as a PDF) or a bulk
``oa_*_xml.*.tar.gz`` archive of thousands of ``.nxml`` members, streamed member by
member; a member that cannot be read is one ``on_error`` and reading goes on.
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lxml import etree

from relx.doc import Document
from relx.io.errors import OnError, ReaderError, report
from relx.io.papers import TextBuilder, clean_text, section_type
from relx.io.source import LIMITS, open_binary

ROOTS = ("article", "pmc-articleset")

_CIT, _A, _B = "\ue000", "\ue001", "\ue002"   # numeric citation; author-year start, end
_SEP = r"[\s,;–—‐\-]"
_GROUP = rf"[\[(]\s*{_CIT}(?:{_SEP}*{_CIT})*{_SEP}*[\])]"
_BRACKETED = re.compile(rf"\s*{_GROUP}(?:{_SEP}*{_GROUP})*")
_LOOSE = re.compile(rf"\s*{_CIT}(?:{_SEP}*{_CIT})*")
_AUTHOR_YEAR = re.compile(
    rf"\s*\(\s*(?:(?:e\.g\.|see|cf\.|reviewed in|for review,?)\s*,?\s*)?"
    rf"{_A}[^{_B}]*{_B}(?:[\s,;]+(?:and\s+)?{_A}[^{_B}]*{_B})*\s*\)")
_MARKS = re.compile(f"[{_A}{_B}{_CIT}]")

_FLOATS = {"fig", "fig-group", "table-wrap", "table-wrap-group", "supplementary-material",
           "boxed-text", "chem-struct-wrap", "media"}
_SKIP = {"label", "object-id", "alt-text", "long-desc", "graphic", "inline-graphic",
         "permissions", "attrib"}
_BLOCKS = {"p", "sec", "list", "disp-quote", "def-list", "ref-list", "fig", "table-wrap",
           "boxed-text", "fn", "fn-group", "disp-formula", "statement", "glossary"}
_BACK = {"COMP_INT", "ACK_FUND", "AUTH_AFF", "REF", "SUPPL", "FOOTNOTE"}
_NUMERIC = re.compile(r"^[\s\d,;–—‐\-\[\]()a-z]{0,12}$")


def _tag(el: Any) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=True,
                           remove_pis=True)


def parse_xml(path: Path, data: bytes, where: str = "file") -> etree._Element:
    """The root of the XML ``data`` (read from ``path``), parsed safely."""
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        raise ReaderError(path, f"{where}: line {exc.lineno}",
                          f"not well-formed XML: {exc.msg}") from None
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and list(dtd.entities()):
        raise ReaderError(path, where, "DTD entity declarations are refused "
                                       "(relx never expands XML entities)")
    return root


# ------------------------------------------------------------------ inline text

def _math(el: etree._Element) -> str:
    alt = el.get("alttext")
    return alt if alt else " ".join("".join(el.itertext()).split())


def _inline(el: etree._Element, out: list[str], floats: list[etree._Element],
            top: bool = True) -> None:
    """The text of ``el``'s content (not its tail) onto ``out``; floats met on the way
    go to ``floats``."""
    if el.text:
        out.append(el.text)
    for child in el:
        tag = _tag(child)
        if not tag:   # an entity reference left unexpanded (its DTD is never read)
            pass
        elif tag in _FLOATS or (tag == "fn" and top) or tag == "table":
            floats.append(child)
        elif tag in _SKIP:
            pass
        elif tag == "xref":
            _xref(child, out)
        elif tag == "math":
            out.append(" " + _math(child) + " ")
        elif tag == "alternatives":
            pick = next((c for c in child if _tag(c) == "math"), None)
            if pick is not None:
                out.append(" " + _math(pick) + " ")
            elif len(child):
                _inline(child[0], out, floats, False)
        elif tag in ("inline-formula", "disp-formula"):
            out.append(" ")
            _inline(child, out, floats, False)
            out.append(" ")
        elif tag in ("break", "hr"):
            out.append(" ")
        elif tag in ("p", "list-item", "title", "def", "term"):
            out.append(" ")
            _inline(child, out, floats, False)
            out.append(" ")
        else:
            _inline(child, out, floats, False)
        if child.tail:
            out.append(child.tail)


def _xref(el: etree._Element, out: list[str]) -> None:
    kind = el.get("ref-type", "")
    text = "".join(el.itertext())
    if kind == "bibr":
        if _NUMERIC.match(text) and not re.search(r"[a-z]{2}", text):
            out.append(_CIT)
        else:
            out.append(_A + text + _B)
    elif kind in ("fn", "table-fn", "aff", "corresp", "author-notes"):
        return
    else:
        out.append(text)


def inline_text(el: etree._Element, floats: list[etree._Element] | None = None) -> str:
    """The text of an element's content, citation markers out, cleaned."""
    out: list[str] = []
    _inline(el, out, floats if floats is not None else [])
    return _strip_citations("".join(out))


def _strip_citations(text: str) -> str:
    text = _AUTHOR_YEAR.sub("", text)
    text = _BRACKETED.sub("", text)
    text = _LOOSE.sub("", text)
    return clean_text(_MARKS.sub("", text))


# ------------------------------------------------------------------ blocks

class _Walker:
    def __init__(self, table_cells: bool) -> None:
        self.b = TextBuilder()
        self.table_cells = table_cells

    def para(self, el: etree._Element) -> None:
        floats: list[etree._Element] = []
        self.b.add(inline_text(el, floats))
        for f in floats:
            self.float(f)

    def titled(self, el: etree._Element, typ: str, declared: str | None = None,
               nested: bool = False) -> None:
        """A section-like element: its title as a line, then its content. A nested
        section keeps the type of the one around it unless that is ``OTHER`` or its own
        title or type says back matter (competing interests, funding...)."""
        title_el = el.find("title")
        heading = inline_text(title_el) if title_el is not None else None
        own = section_type(heading, declared)
        if own is not None and (not nested or typ == "OTHER" or own in _BACK):
            typ = own
        self.b.open(typ, heading or None)
        if heading:
            self.b.add(heading)
        self.container(el, typ)
        self.b.close()

    def container(self, el: etree._Element, typ: str) -> None:
        for child in el:
            tag = _tag(child)
            if tag in ("title", "label", "sec-meta", "object-id") or tag in _SKIP:
                continue
            if tag == "sec":
                self.titled(child, typ, child.get("sec-type"), nested=self.b.current is not None)
            elif tag == "p":
                self.para(child)
            elif tag in _FLOATS and tag != "boxed-text":
                self.float(child)
            elif tag == "ref-list":
                self.refs(child)
            elif tag in ("ack",):
                self.titled(child, "ACK_FUND")
            elif tag in ("app-group", "app"):
                self.titled(child, "SUPPL")
            elif tag in ("fn-group",):
                self.titled(child, typ if typ in ("TABLE", "FIG") else "FOOTNOTE")
            elif tag == "fn":
                self.fn(child, typ)
            elif tag == "notes":
                self.titled(child, "FOOTNOTE", child.get("notes-type"))
            elif tag == "list":
                self.items(child, typ)
            elif tag in ("disp-formula",):
                self.b.add(inline_text(child))
            elif any(_tag(c) in _BLOCKS for c in child):
                self.container(child, typ)   # boxed-text, disp-quote, glossary, def-list...
            elif tag in ("def-item",):
                self.b.add(" ".join(inline_text(c) for c in child))
            else:
                self.para(child)

    def items(self, el: etree._Element, typ: str) -> None:
        for item in el:
            if _tag(item) != "list-item":
                continue
            if any(_tag(c) in _BLOCKS for c in item):
                self.container(item, typ)
            else:
                self.para(item)

    def fn(self, el: etree._Element, typ: str) -> None:
        kind = (el.get("fn-type") or "").lower()
        t = {"conflict": "COMP_INT", "coi-statement": "COMP_INT", "con": "AUTH_AFF",
             "financial-disclosure": "ACK_FUND", "supported-by": "ACK_FUND"}.get(kind)
        if t is None and typ in ("TABLE", "FIG", "COMP_INT", "ACK_FUND", "AUTH_AFF"):
            t = typ
        self.b.open(t or "FOOTNOTE")
        self.container(el, t or "FOOTNOTE")
        self.b.close()

    def caption(self, el: etree._Element) -> str:
        label = el.find("label")
        parts = [inline_text(label)] if label is not None else []
        cap = el.find("caption")
        if cap is not None:
            parts += [inline_text(c) for c in cap if _tag(c) in ("title", "p")]
        return clean_text(" ".join(p for p in parts if p))

    def float(self, el: etree._Element) -> None:
        tag = _tag(el)
        if tag == "boxed-text":
            self.container(el, self.b.current.type if self.b.current else "OTHER")
            return
        if tag == "fn":
            self.fn(el, self.b.current.type if self.b.current else "FOOTNOTE")
            return
        typ = {"fig": "FIG", "fig-group": "FIG", "table-wrap": "TABLE",
               "table-wrap-group": "TABLE", "table": "TABLE"}.get(tag, "SUPPL")
        label = el.find("label")
        self.b.open(typ, inline_text(label) if label is not None else None)
        self.b.add(self.caption(el))
        for child in el:
            ctag = _tag(child)
            if ctag in ("fig", "table-wrap"):
                self.float(child)
            elif ctag == "table" and self.table_cells:
                self.table(child)
            elif ctag == "alternatives" and self.table_cells:
                for t in child.iter("{*}table", "table"):
                    self.table(t)
                    break
            elif ctag == "table-wrap-foot":
                self.container(child, "TABLE")
        self.b.close()

    def table(self, table: etree._Element) -> None:
        for tr in table.iter("{*}tr", "tr"):
            cells = [inline_text(c) for c in tr if _tag(c) in ("td", "th")]
            self.b.add(" | ".join(cells))

    def refs(self, el: etree._Element) -> None:
        title = el.find("title")
        heading = inline_text(title) if title is not None else None
        self.b.open("REF", heading)
        if heading:
            self.b.add(heading)
        for child in el:
            tag = _tag(child)
            if tag == "ref":
                self.b.add(_reference(child))
            elif tag == "ref-list":
                self.refs(child)
        self.b.close()


def _reference(ref: etree._Element) -> str:
    cits = [c for c in ref if _tag(c) in ("mixed-citation", "element-citation", "citation",
                                          "nlm-citation")]
    texts = []
    for c in cits or [ref]:
        if _tag(c) == "mixed-citation":
            texts.append(inline_text(c))
        else:   # element-citation: fields without the punctuation between them
            texts.append(clean_text(" ".join(" ".join(x.itertext()) for x in c
                                              if isinstance(x.tag, str))))
    return clean_text(" ".join(texts))


# ------------------------------------------------------------------ articles

def _ids(meta_el: etree._Element | None) -> dict[str, str]:
    ids: dict[str, str] = {}
    if meta_el is None:
        return ids
    for aid in meta_el.iterfind("article-id"):
        kind = (aid.get("pub-id-type") or "").lower()
        value = " ".join((aid.text or "").split())
        if not value:
            continue
        if kind == "pmid":
            ids.setdefault("pmid", value)
        elif kind in ("pmc", "pmcid"):
            ids.setdefault("pmcid", value if value.upper().startswith("PMC") else f"PMC{value}")
        elif kind == "doi":
            ids.setdefault("doi", value)
    return ids


def article_document(path: Path, art: etree._Element, stem: str,
                     table_cells: bool = False) -> Document:
    """One ``<article>`` element as a sectioned document (``stem``: the id when it has
    none of PMID, PMCID, DOI)."""
    if _tag(art) != "article":
        raise ReaderError(path, f"<{_tag(art)}> at line {art.sourceline}",
                          "expected an <article> element")
    front = art.find("front")
    meta = front.find("article-meta") if front is not None else None
    ids = _ids(meta)
    journal = front.findtext("journal-meta/journal-title-group/journal-title") \
        if front is not None else None
    w = _Walker(table_cells)
    if meta is not None:
        title = meta.find("title-group/article-title")
        if title is not None:
            w.b.section("TITLE", inline_text(title))
        for ab in meta.iterfind("abstract"):
            if (ab.get("abstract-type") or "") in ("graphical", "toc", "teaser"):
                continue
            w.titled(ab, "ABSTRACT", nested=True)
    body = art.find("body")
    if body is not None:
        w.container(body, "OTHER")
    back = art.find("back")
    if meta is not None:
        for stmt in meta.iterfind("funding-group"):
            w.b.open("ACK_FUND")
            w.container(stmt, "ACK_FUND")
            w.b.close()
        notes = meta.find("author-notes")
        if notes is not None:
            for fn in notes.iterfind("fn"):
                w.fn(fn, "FOOTNOTE")
    if back is not None:
        w.container(back, "OTHER")
    floats = art.find("floats-group")
    if floats is not None:
        for f in floats:
            if _tag(f) in _FLOATS:
                w.float(f)
    if not w.b.length:
        raise ReaderError(path, f"article {ids.get('pmcid') or stem}", "no text in the article")
    doc_id = ids.get("pmid") or ids.get("pmcid") or ids.get("doi") or stem
    if journal:
        ids["journal"] = " ".join(journal.split())
    return w.b.build(doc_id, "jats", ids)


def _articles(root: etree._Element) -> list[etree._Element]:
    return [root] if _tag(root) == "article" else [a for a in root if _tag(a) == "article"]


def read_jats(path: str | Path, on_error: OnError = None, table_cells: bool = False
              ) -> Iterator[Document]:
    """The article(s) of a JATS/NLM XML file (``.nxml``/``.xml``, plain or ``.gz``; see
    the module docstring); ``on_error`` is called with the error of an article that cannot
    be read when the file holds several (then the next one is read)."""
    path = Path(path)
    with open_binary(path, whole=True) as fh:
        data = fh.read()
    root = parse_xml(path, data)
    if _tag(root) not in ROOTS:
        raise ReaderError(path, "root element", f"expected <article> or <pmc-articleset>, "
                                                f"found <{_tag(root)}>")
    stem = path.name.split(".")[0]
    arts = _articles(root)
    for i, art in enumerate(arts):
        try:
            doc = article_document(path, art, stem if len(arts) == 1 else f"{stem}-{i + 1}",
                                   table_cells)
        except ReaderError as exc:
            if len(arts) == 1:
                raise
            report(on_error, exc)
            continue
        yield doc


# ------------------------------------------------------------------ PMC OA packages

def read_pmc_package(path: str | Path, on_error: OnError = None, table_cells: bool = False,
                     **pdf_options: Any) -> Iterator[Document]:
    """The articles of a PMC OA ``.tar.gz`` package or bulk archive, streamed member by
    member (see the module docstring). ``pdf_options`` go to the PDF reader for a package
    holding a PDF and no ``.nxml``."""
    path = Path(path)
    cap = LIMITS.max_whole_file_bytes
    seen_xml = False
    pdf: tuple[str, bytes] | None = None
    try:
        with open_binary(path) as raw, tarfile.open(fileobj=raw, mode="r|*") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                name = member.name
                lower = name.lower()
                is_xml = lower.endswith((".nxml", ".xml"))
                if not (is_xml or (lower.endswith(".pdf") and not seen_xml and pdf is None)):
                    continue
                if member.size > cap:
                    report(on_error, ReaderError(path, f"member {name}", f"larger than the "
                                                 f"limit for files read whole ({cap >> 20} MiB)"))
                    continue
                fh = tar.extractfile(member)
                data = fh.read() if fh is not None else b""
                if not is_xml:
                    pdf = (name, data)
                    continue
                stem = Path(name).name.split(".")[0]
                try:
                    root = parse_xml(path, data, f"member {name}")
                    if _tag(root) not in ROOTS:   # e.g. a figure's metadata: not an article
                        continue
                    seen_xml = True
                    docs = [article_document(path, art, stem, table_cells)
                            for art in _articles(root)]
                except ReaderError as exc:
                    where = exc.where if exc.where.startswith("member") else \
                        f"member {name}: {exc.where}"
                    report(on_error, ReaderError(path, where, exc.reason, document=stem))
                    continue
                yield from docs
    except tarfile.TarError as exc:
        raise ReaderError(path, "archive", f"not a readable tar archive: {exc}") from None
    except (OSError, EOFError) as exc:
        raise ReaderError(path, "archive", f"cannot read: {exc}") from None
    if not seen_xml and pdf is not None:
        from relx.io.pdf import read_pdf_bytes

        name, data = pdf
        yield from read_pdf_bytes(data, path, Path(name).stem, **pdf_options)
    elif not seen_xml:
        raise ReaderError(path, "archive", "no JATS article (.nxml) or PDF in the archive")
