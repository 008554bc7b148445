"""Reading papers: PDF libraries compared, relx's PDF reader's fidelity, speed and memory.

    python benchmarks/bench_papers.py [--data /work/shared/papers-bench] [--libs]
           [--render] [--memory] [--out results.json]

Data (``--data``, see its README.md): ``jats/*.nxml`` (real PMC OA articles),
``pdf-real/*.pdf`` (real publisher PDFs of other OA papers) and ``pdf-rendered/``
(stand-in PDFs of the JATS papers, one- and two-column, made by ``--render`` with
:mod:`papers_render`; they are not the publishers' PDFs).

- fidelity: the share of a JATS paper's body and abstract sentences (six words or more)
  found in the text read from the PDF of the same paper, both normalised (NFKC, lower
  case, letters and digits only), so reading order, joined hyphens, removed headers and
  citations all count; for each library's plain text (``--libs``) and relx's reader;
- speed: pages/s per library and for relx's reader (one process); JATS papers/s;
- memory (``--memory``): peak RSS of reading a 300-page stand-in PDF in a fresh process,
  and with ``max_pages=100``.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from relx.io.jats import read_jats  # noqa: E402
from relx.io.papers import SECTION_GROUPS  # noqa: E402

BODY = set(SECTION_GROUPS["body"]) | {"ABSTRACT"}


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", text).lower())


def body_sentences(doc) -> list[str]:
    """The JATS body and abstract sentences of six words or more, normalised."""
    from relx.io.papers import section_at

    out = []
    pos = 0
    for line in doc.text.split("\n"):
        sec = section_at(doc, pos)
        if sec is not None and sec.type in BODY and line != sec.heading:
            for s in re.split(r"(?<=[a-z0-9)][.!?])\s+(?=[A-Z])", line):
                if len(s.split()) >= 6:
                    out.append(norm(s))
        pos += len(line) + 1
    return out


def fidelity(sentences: list[str], text: str) -> float:
    flat = norm(text)
    return sum(s in flat for s in sentences) / max(1, len(sentences))


# ------------------------------------------------------------------ libraries

def text_pypdfium2(path: Path) -> tuple[str, int]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    out = []
    for page in pdf:
        tp = page.get_textpage()
        out.append(tp.get_text_range())
        tp.close()
        page.close()
    n = len(pdf)
    pdf.close()
    return "\n".join(out), n


def text_pdfminer(path: Path) -> tuple[str, int]:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage

    with open(path, "rb") as fh:
        n = sum(1 for _ in PDFPage.get_pages(fh))
    return extract_text(str(path)), n


def text_pypdf(path: Path) -> tuple[str, int]:
    from pypdf import PdfReader

    r = PdfReader(str(path))
    return "\n".join(p.extract_text() or "" for p in r.pages), len(r.pages)


def text_relx(path: Path) -> tuple[str, int]:
    from relx.io.pdf import read_pdf

    doc = next(read_pdf(path))
    return doc.text, int(doc.meta["pages"])


LIBS = {"pypdfium2": text_pypdfium2, "pdfminer.six": text_pdfminer, "pypdf": text_pypdf}


def measure(fn, pairs, real) -> dict:
    fid: dict[str, list[float]] = {"one": [], "two": []}
    pages, secs = 0, 0.0
    for sents, layout, pdf in pairs:
        t = time.perf_counter()
        text, n = fn(pdf)
        secs += time.perf_counter() - t
        pages += n
        fid[layout].append(fidelity(sents, text))
    for pdf in real:
        t = time.perf_counter()
        _, n = fn(pdf)
        secs += time.perf_counter() - t
        pages += n
    return {"fidelity_one_column": round(sum(fid["one"]) / max(1, len(fid["one"])), 4),
            "fidelity_two_column": round(sum(fid["two"]) / max(1, len(fid["two"])), 4),
            "pages": pages, "seconds": round(secs, 2),
            "pages_per_s": round(pages / secs, 1) if secs else None}


# ------------------------------------------------------------------ memory

_CHILD = """
import resource, sys, time
from relx.io.pdf import read_pdf
t = time.perf_counter()
doc = next(read_pdf(sys.argv[1], max_pages=int(sys.argv[2])))
print(doc.meta.get("pages"), doc.meta.get("truncated", ""), len(doc.text),
      round(time.perf_counter() - t, 2),
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, sep="\\t")
"""


def memory(data: Path, jats: list[Path]) -> dict:
    from papers_render import render

    long_pdf = data / "long-300.pdf"
    if not long_pdf.exists():
        doc = next(read_jats(max(jats, key=lambda p: p.stat().st_size)))
        n = 0
        repeat = 30
        while n < 300:
            n = render(doc, long_pdf, "two", repeat)
            repeat = int(repeat * 300 / max(n, 1)) + 1
    out = {}
    for cap in (1000, 100):
        r = subprocess.run([sys.executable, "-c", _CHILD, str(long_pdf), str(cap)],
                           capture_output=True, text=True, check=True)
        pages, truncated, chars, secs, rss = r.stdout.strip().split("\t")
        out[f"max_pages={cap}"] = {"pages_read": int(pages), "truncated": truncated,
                                   "chars": int(chars), "seconds": float(secs),
                                   "peak_rss_mib": int(rss)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("/work/shared/papers-bench"))
    ap.add_argument("--libs", action="store_true", help="compare the PDF libraries too")
    ap.add_argument("--render", action="store_true", help="(re)make the stand-in PDFs")
    ap.add_argument("--memory", action="store_true", help="the 300-page PDF")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    jats = sorted((a.data / "jats").glob("*.nxml"))
    rendered = a.data / "pdf-rendered"
    if a.render:
        from papers_render import render

        rendered.mkdir(exist_ok=True)
        for f in jats:
            doc = next(read_jats(f))
            for layout in ("one", "two"):
                render(doc, rendered / f"{f.stem}.{layout}.pdf", layout)
    results: dict = {}
    t = time.perf_counter()
    docs = {f.stem: next(read_jats(f)) for f in jats}
    secs = time.perf_counter() - t
    results["jats"] = {"papers": len(docs), "seconds": round(secs, 3),
                       "papers_per_s": round(len(docs) / secs, 1),
                       "chars_per_paper": sum(len(d.text) for d in docs.values()) // len(docs)}
    pairs = [(body_sentences(docs[stem]), layout, rendered / f"{stem}.{layout}.pdf")
             for stem in docs for layout in ("one", "two")
             if (rendered / f"{stem}.{layout}.pdf").exists()]
    real = sorted((a.data / "pdf-real").glob("*.pdf"))
    results["sentences"] = sum(len(s) for s, layout, _ in pairs if layout == "one")
    if a.libs:
        results["libraries"] = {name: measure(fn, pairs, real) for name, fn in LIBS.items()}
    results["relx"] = measure(text_relx, pairs, real)
    if a.memory:
        results["memory_300_pages"] = memory(a.data, jats)
    results["peak_rss_mib_this_process"] = resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss // 1024
    text = json.dumps(results, indent=2)
    print(text)
    if a.out:
        a.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
