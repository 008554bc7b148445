"""Stand-in PDFs of JATS papers, for measuring PDF reading where no real PDF of the same
paper is at hand (reportlab; ``pip install reportlab``). NOT publisher PDFs: every page
says "relx stand-in render".

Two layouts: ``one`` (A4, one column, bracketed citations ``[3]``) and ``two`` (US Letter,
title and abstract across the page, then two columns, superscript citations). Both have a
running header and a page-number footer, bold headings, smaller italic captions and
reference lists, so a reader has to remove what the JATS text does not have.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from relx.doc import Document
from relx.io.papers import section_at

_FONTS = {"": ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "Vera.ttf"),
          "-Bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "VeraBd.ttf"),
          "-Italic": ("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf", "VeraIt.ttf")}


def _fonts() -> str:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for suffix, (dejavu, vera) in _FONTS.items():
        path = dejavu if Path(dejavu).exists() else vera
        pdfmetrics.registerFont(TTFont("Body" + suffix, path))
    addMapping("Body", 0, 0, "Body")
    addMapping("Body", 1, 0, "Body-Bold")
    addMapping("Body", 0, 1, "Body-Italic")
    addMapping("Body", 1, 1, "Body-Bold")
    return "Body"


def _with_citations(text: str, k: int, style: str) -> str:
    """``text`` (escaped) with a citation after every second sentence."""
    parts = re.split(r"(?<=[a-z]\.)\s+(?=[A-Z])", text)
    out = []
    for i, s in enumerate(parts):
        s = escape(s)
        if i % 2 == 1 and s.endswith("."):
            n = k + i
            s = (s[:-1] + f" [{n}]." if style == "one" else s + f"<super>{n},{n + 1}</super>")
        out.append(s)
    return " ".join(out)


def paragraphs(doc: Document) -> list[tuple[str, str]]:
    """(kind, text) of each line of a JATS document: title, abstract, heading, body,
    caption, ref."""
    out = []
    pos = 0
    for line in doc.text.split("\n"):
        sec = section_at(doc, pos)
        typ = sec.type if sec else "OTHER"
        if sec is not None and sec.heading and line == sec.heading and sec.start == pos:
            kind = "heading"
        elif typ in ("TITLE", "ABSTRACT", "REF"):
            kind = typ.lower()
        elif typ in ("FIG", "TABLE", "SUPPL"):
            kind = "caption"
        else:
            kind = "body"
        out.append((kind, line))
        pos += len(line) + 1
    return out


def render(doc: Document, path: str | Path, layout: str = "two", repeat: int = 1) -> int:
    """Write a PDF of ``doc`` (its body ``repeat`` times, for a long PDF); the page count."""
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.pagesizes import A4, letter
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        BaseDocTemplate,
        Frame,
        FrameBreak,
        NextPageTemplate,
        PageTemplate,
        Paragraph,
    )

    font = _fonts()
    size = letter if layout == "two" else A4
    w, h = size
    margin = 18 * mm
    body_pt = 9.0 if layout == "two" else 10.5
    st = {
        "title": ParagraphStyle("t", fontName=font + "-Bold", fontSize=17, leading=21,
                                spaceAfter=10),
        "abstract": ParagraphStyle("a", fontName=font, fontSize=body_pt, leading=body_pt * 1.25,
                                   alignment=TA_JUSTIFY, spaceAfter=4),
        "heading": ParagraphStyle("h", fontName=font + "-Bold", fontSize=body_pt + 2,
                                  leading=(body_pt + 2) * 1.3, spaceBefore=8, spaceAfter=3),
        "body": ParagraphStyle("b", fontName=font, fontSize=body_pt, leading=body_pt * 1.25,
                               alignment=TA_JUSTIFY, firstLineIndent=10, spaceAfter=2),
        "caption": ParagraphStyle("c", fontName=font + "-Italic", fontSize=body_pt - 1,
                                  leading=(body_pt - 1) * 1.25, spaceBefore=6, spaceAfter=6),
        "ref": ParagraphStyle("r", fontName=font, fontSize=body_pt - 1.5,
                              leading=(body_pt - 1.5) * 1.25, spaceAfter=1),
    }
    journal = doc.meta.get("journal", "Journal")

    def decorate(canvas, d) -> None:   # running header and footer
        canvas.saveState()
        canvas.setFont(font, 7.5)
        canvas.drawString(margin, h - 11 * mm, f"{journal} (relx stand-in render of the JATS "
                                              f"text; not the publisher's PDF)")
        canvas.drawRightString(w - margin, h - 11 * mm, doc.meta.get("doi", doc.id))
        canvas.drawCentredString(w / 2, 9 * mm, str(d.page))
        canvas.restoreState()

    inner_h = h - 2 * margin
    pdf = BaseDocTemplate(str(path), pagesize=size, leftMargin=margin, rightMargin=margin,
                          topMargin=margin, bottomMargin=margin, title=doc.id)
    if layout == "two":
        gap = 6 * mm
        col = (w - 2 * margin - gap) / 2
        top_h = inner_h * 0.42
        first = [Frame(margin, margin + inner_h - top_h, w - 2 * margin, top_h, id="top"),
                 Frame(margin, margin, col, inner_h - top_h, id="l1"),
                 Frame(margin + col + gap, margin, col, inner_h - top_h, id="r1")]
        later = [Frame(margin, margin, col, inner_h, id="l"),
                 Frame(margin + col + gap, margin, col, inner_h, id="r")]
    else:
        first = [Frame(margin, margin, w - 2 * margin, inner_h, id="f")]
        later = [Frame(margin, margin, w - 2 * margin, inner_h, id="p")]
    pdf.addPageTemplates([PageTemplate("first", first, onPage=decorate),
                          PageTemplate("later", later, onPage=decorate)])
    story: list = [NextPageTemplate("later")]
    paras = paragraphs(doc)
    k = 1
    front_done = False
    for rep in range(repeat):
        for kind, text in paras:
            if rep and kind in ("title", "abstract"):
                continue
            if layout == "two" and not front_done and kind not in ("title", "abstract"):
                story.append(FrameBreak())
                front_done = True
            if kind == "body":
                story.append(Paragraph(_with_citations(text, k, layout), st["body"]))
                k += 2
            else:
                story.append(Paragraph(escape(text), st[kind]))
    pdf.build(story)
    return pdf.page
