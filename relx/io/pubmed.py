"""PubMed/MEDLINE XML reader: ``PubmedArticleSet`` (the NLM baseline and update files,
E-utilities), ``PubmedBookArticleSet`` and the pre-2017 ``MedlineCitationSet``.

One document per ``PubmedArticle``, ``PubmedBookArticle`` and (bare) ``MedlineCitation``:
``id`` = PMID,
``text`` = ArticleTitle + ``"\\n"`` + the AbstractText parts joined by ``"\\n"``; a
structured-abstract part keeps its label as ``"LABEL: text"``. Sections: ``TITLE`` and
``ABSTRACT`` (a structured abstract's parts nested in it, headed by their labels); the
article's DOI and PMCID, when listed, are kept in ``meta``. Inline markup (``<i>``,
``<sup>``, MathML...) contributes its text content; runs of whitespace are collapsed. An
article without abstract is its title alone. ``DeleteCitation`` PMIDs are not documents:
they are passed to ``on_delete`` when given.

Files are streamed (plain or ``.gz``, through :mod:`relx.io.source`, so decompression
is bounded) with a safe ``iterparse``: no DTD loading, no
network, no entity expansion (DTD entity declarations are refused), and each article is
cleared once read, so a 30,000-article baseline file never sits in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from lxml import etree

from relx.doc import Document, Section
from relx.io.errors import DOCUMENT_ERRORS, OnError, ReaderError, document_error, report
from relx.io.source import open_binary

_ARTICLES = ("PubmedArticle", "PubmedBookArticle", "MedlineCitation", "DeleteCitation")
_ROOTS = ("PubmedArticleSet", "PubmedBookArticleSet", "MedlineCitationSet")


def _where(el: etree._Element, ident: str | None = None) -> str:
    return f"<{el.tag}> {ident} at line {el.sourceline}" if ident else f"<{el.tag}> at line {el.sourceline}"


def iter_xml(path: Path, roots: tuple[str, ...], tags: tuple[str, ...]) -> Iterator[etree._Element]:
    """Stream the complete ``tags`` elements of a safely parsed XML file (plain or ``.gz``).

    The root element must be one of ``roots``; only its children are yielded (a ``tags``
    element nested deeper is part of the one around it). Each element is cleared (with the already
    read siblings) when the consumer asks for the next one. Errors become ``ReaderError``.
    """
    try:
        with open_binary(path) as fh:
            events = etree.iterparse(
                fh, events=("start", "end"), tag=roots + tags, resolve_entities=False,
                no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False,
                remove_comments=True, remove_pis=True,
            )
            seen_root = False
            for event, el in events:
                if event == "start":
                    if not seen_root:
                        seen_root = True
                        dtd = el.getroottree().docinfo.internalDTD
                        if dtd is not None and list(dtd.entities()):
                            raise ReaderError(path, "DOCTYPE", "DTD entity declarations are refused "
                                                               "(relx never expands XML entities)")
                        if el.getparent() is not None or el.tag not in roots:
                            break
                    continue
                parent = el.getparent()
                if el.tag in roots or parent is None or parent.getparent() is not None:
                    continue
                yield el
                el.clear(keep_tail=False)
                parent = el.getparent()
                while parent is not None and el.getprevious() is not None:
                    del parent[0]
            root = events.root
    except etree.XMLSyntaxError as exc:
        raise ReaderError(path, f"line {exc.lineno}", f"not well-formed XML: {exc.msg}") from None
    except OSError as exc:
        raise ReaderError(path, "file", f"cannot read: {exc}") from None
    if root is None or root.tag not in roots:
        found = f"<{root.tag}>" if root is not None else "no element"
        raise ReaderError(path, "root element",
                          f"expected <{'> or <'.join(roots)}>, found {found}")


def _text(el: etree._Element | None) -> str:
    """Full text content of ``el`` (inline markup included), whitespace collapsed."""
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def _abstract(abstract: etree._Element | None) -> list[tuple[str, str]]:
    """(label, text) of each abstract part."""
    parts = []
    if abstract is None:
        return parts
    for part in abstract.iterfind("AbstractText"):
        body, label = _text(part), " ".join((part.get("Label") or "").split())
        text = f"{label}: {body}".strip() if label else body
        if text:
            parts.append((label, text))
    return parts


def _ids(el: etree._Element) -> dict[str, str]:
    ids = {}
    for aid in el.iterfind("PubmedData/ArticleIdList/ArticleId"):
        kind, value = (aid.get("IdType") or "").lower(), " ".join((aid.text or "").split())
        if kind in ("doi", "pmc") and value:
            ids.setdefault("pmcid" if kind == "pmc" else kind, value)
    return ids


def _document(pmid: str, title: str, parts: list[tuple[str, str]],
              meta: dict[str, str]) -> Document:
    """Title + abstract parts, one per line, with their sections."""
    sections, pieces, pos = [], [], 0
    if title:
        sections.append(Section(type="TITLE", start=0, end=len(title)))
        pieces.append(title)
        pos = len(title) + 1
    if parts:
        outer = len(sections)
        sections.append(Section(type="ABSTRACT", start=pos, end=pos))
        for label, text in parts:
            if label and len(parts) > 1:
                sections.append(Section(type="ABSTRACT", start=pos, end=pos + len(text),
                                        heading=label, level=1, parent=outer))
            pieces.append(text)
            pos += len(text) + 1
        sections[outer].end = pos - 1
    return Document(id=pmid, text="\n".join(pieces), source="pubmed", sections=sections,
                    meta=meta)


def _pmid(path: Path, el: etree._Element, xpath: str) -> str:
    pmid = (el.findtext(xpath) or "").strip()
    if not pmid:
        raise ReaderError(path, _where(el), "missing PMID")
    return pmid


def _article(path: Path, el: etree._Element) -> Document:
    if el.tag in ("PubmedArticle", "MedlineCitation"):
        cit = el.find("MedlineCitation") if el.tag == "PubmedArticle" else el
        pmid = _pmid(path, el, "PMID" if cit is el else "MedlineCitation/PMID")
        art = cit.find("Article") if cit is not None else None
        if art is None:
            raise ReaderError(path, _where(el, pmid), "missing <Article>")
        title = _text(art.find("ArticleTitle")) or _text(art.find("VernacularTitle"))
        parts = _abstract(art.find("Abstract"))
    else:  # PubmedBookArticle
        pmid = _pmid(path, el, "BookDocument/PMID")
        book = el.find("BookDocument")
        title = _text(book.find("ArticleTitle")) or _text(book.find("Book/BookTitle"))
        parts = _abstract(book.find("Abstract"))
    return _document(pmid, title, parts, _ids(el))


def read_pubmed(path: str | Path, on_delete: Callable[[str], None] | None = None,
                on_error: OnError = None) -> Iterator[Document]:
    """Stream the documents of a PubMed XML file (plain or ``.gz``).

    ``on_delete`` is called with every PMID listed in a ``DeleteCitation`` (update files);
    ``on_error`` with the error of an article that cannot be read (then the next one is
    read; without it the error is raised).
    """
    path = Path(path)
    for el in iter_xml(path, _ROOTS, _ARTICLES):
        if el.tag == "DeleteCitation":
            if on_delete is not None:
                for pmid in el.iterfind("PMID"):
                    on_delete((pmid.text or "").strip())
            continue
        try:
            doc = _article(path, el)
        except (ReaderError, *DOCUMENT_ERRORS) as exc:
            report(on_error, document_error(path, _where(el), exc,
                                            (el.findtext(".//PMID") or "").strip() or None))
            continue
        yield doc
