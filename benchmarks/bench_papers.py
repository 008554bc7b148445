"""Reading papers: PDF libraries compared, relx's PDF reader's fidelity, speed and memory.

    python benchmarks/papers_data.py --snapshots <snapshots> --out runs/papers-bench
    python benchmarks/bench_papers.py [--data runs/papers-bench] [--libs]
           [--render] [--memory] [--relations] [--end-to-end] [--out results.json]

Data (``--data``, made by :mod:`papers_data`, see its README.md): ``jats/*.nxml`` (real PMC OA articles),
``pdf-real/*.pdf`` (real publisher PDFs of other OA papers) and ``pdf-rendered/``
(stand-in PDFs of the JATS papers, one- and two-column, made by ``--render`` with
:mod:`papers_render`; they are not the publishers' PDFs).

- fidelity: the share of a JATS paper's body and abstract sentences (six words or more)
  found in the text read from the PDF of the same paper, both normalised (NFKC, lower
  case, letters and digits only), so reading order, joined hyphens, removed headers and
  citations all count; for each library's plain text (``--libs``) and relx's reader;
- speed: pages/s per library and for relx's reader (one process); JATS papers/s;
- memory (``--memory``): peak RSS of reading a 300-page stand-in PDF in a fresh process,
  and with ``max_pages=100``;
- relations (``--relations``): the relations the shipped model (untyped: types do not
  change which pairs are reported) finds from each JATS paper, and the share of them also
  found from each stand-in PDF of the same paper (same two proteins, case-folded, in the
  same sentence, normalised as above -- or one sentence holding the other). The 18 JATS
  papers hold few protein interactions, so the ten GE 2011 full-text papers (train and
  devel, ``--ge``) are added: each paper's sections joined into the document a JATS
  reader would make (title, abstract, headed sections, ``Figure N.`` captions) and
  rendered as two stand-in PDFs like the others (in a temporary folder). And the
  relations found in reference lists (and acknowledgements, author blocks, competing
  interests) with the default sections, which must be 0, beside those ``--sections all``
  finds there;
- end to end (``--end-to-end``): a 10-page paper read and extracted (typed) on one core,
  and the share of that time spent reading the PDF (best of five runs each).
"""

from __future__ import annotations

import argparse
import json
import os
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


# ------------------------------------------------------------------ relations

BACK = {"REF", "ACK_FUND", "AUTH_AFF", "COMP_INT"}


def _key(r) -> tuple[str, str]:
    return tuple(sorted((r.entity1.text.lower(), r.entity2.text.lower())))


_CITATION = re.compile(r"\s*\[\d+(?:\s*[,\u2013-]\s*\d+)*\]")


def _same_sentence(a: str, b: str) -> bool:
    """The same sentence read two ways: equal once normalised and without bracketed
    numeric citations (the PDF reader removes them), or one holding the other (a heading
    run into it)."""
    a, b = norm(_CITATION.sub("", a)), norm(_CITATION.sub("", b))
    return a == b or (len(a) > 20 and a in b) or (len(b) > 20 and b in a)


def recovered(jats_rels: list, pdf_rels: list) -> int:
    """JATS relations with a PDF relation of the same two proteins in the same sentence
    (one to one)."""
    left = list(pdf_rels)
    n = 0
    for r in jats_rels:
        k = next((i for i, p in enumerate(left) if _key(p) == _key(r)
                  and _same_sentence(p.sentence, r.sentence)), None)
        if k is not None:
            n += 1
            left.pop(k)
    return n


def ge_papers(ge: Path) -> list:
    """The GE 2011 full-text papers (train, devel) as the documents a JATS reader makes."""
    from relx.io.papers import TextBuilder, section_type

    by_paper: dict[str, list[Path]] = {}
    for split in ("train", "devel"):
        for f in sorted((ge / split).glob("PMC-*.txt")):
            by_paper.setdefault("-".join(f.stem.split("-")[:2]), []).append(f)
    docs = []
    for paper, files in by_paper.items():
        b = TextBuilder()
        figure = 0
        for f in files:
            lines = [x for x in f.read_text("utf-8").split("\n") if x.strip()]
            name = "-".join(f.stem.split("-")[3:])
            if name == "TIAB":
                b.section("TITLE", lines[0])
                b.open("ABSTRACT")
                for x in lines[1:]:
                    b.add(x)
                b.close()
            elif name.startswith("caption"):
                figure += 1
                b.section("FIG", f"Figure {figure}. " + " ".join(lines), f"Figure {figure}")
            else:
                typ = section_type(lines[0]) or section_type(re.sub(r"[-_]?\d+$", "", name))
                b.open(typ or "OTHER", lines[0])
                for x in lines:
                    b.add(x)
                b.close()
        docs.append(b.build(paper, "jats", {"journal": "GE 2011 full text (stand-in)"}))
    return docs


def relations(data: Path, jats: list[Path], ge: Path) -> dict:
    import tempfile

    from papers_render import render

    import relx

    ex = relx.load(task="ppi", types=False)
    every = type(ex)(sections="all")
    rendered = data / "pdf-rendered"
    real = sorted((data / "pdf-real").glob("*.pdf"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-papers-"))
    sources: list[tuple[str, str, object, dict[str, Path]]] = [
        ("jats", f.stem, f, {k: rendered / f"{f.stem}.{k}.pdf" for k in ("one", "two")})
        for f in jats]
    if ge.is_dir():
        for doc in ge_papers(ge):
            pdfs = {k: tmp / f"{doc.id}.{k}.pdf" for k in ("one", "two")}
            for k, pdf in pdfs.items():
                render(doc, pdf, k)
            sources.append(("ge", doc.id, doc, pdfs))
    out: dict = {"papers": {}}
    counts = {g: {"jats": 0, "one": 0, "two": 0} for g in ("jats", "ge")}
    back, back_all = 0, 0
    t0 = time.perf_counter()
    for group, name, src, pdfs in sources:
        jr = ex.extract(src)
        row: dict = {"jats": len(jr)}
        counts[group]["jats"] += len(jr)
        back += sum(r.section in BACK for r in jr)
        if group == "jats":
            back_all += sum(r.section in BACK for r in every.extract(src))
        for layout, pdf in pdfs.items():
            if not pdf.exists():
                continue
            pr = ex.extract(pdf)
            back += sum(r.section in BACK for r in pr)
            k = recovered(jr, pr)
            counts[group][layout] += k
            row[layout] = [k, len(pr)]
        out["papers"][name] = row
    for pdf in real:
        back += sum(r.section in BACK for r in ex.extract(pdf))
        back_all += sum(r.section in BACK for r in every.extract(pdf))
    for group, c in counts.items():
        n = max(1, c["jats"])
        out[group] = {"relations": c["jats"], "recovered_one_column": round(c["one"] / n, 4),
                      "recovered_two_column": round(c["two"] / n, 4)}
    total = sum(c["jats"] for c in counts.values())
    out["recovered"] = round(sum(c["one"] + c["two"] for c in counts.values())
                             / max(1, 2 * total), 4)
    out["relations_in_back_matter_default_sections"] = back
    out["relations_in_back_matter_sections_all"] = back_all
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def end_to_end(data: Path) -> dict:
    """Read + extract (typed) of 10-page papers on one core; the reading's share."""
    import relx
    from relx.api import limited_threads
    from relx.io.pdf import read_pdf

    ex = relx.load(task="ppi")
    out = {}
    for pdf in (data / "pdf-real" / "agyemanduah2014-bmchsr.pdf",
                data / "pdf-rendered" / "1471-2180-11-174.two.pdf",
                data / "pdf-rendered" / "pone.0046493.two.pdf"):
        if not pdf.exists():
            continue
        reads, extracts, n = [], [], 0
        with limited_threads(1):
            for _ in range(5):
                t = time.perf_counter()
                doc = next(read_pdf(pdf))
                reads.append(time.perf_counter() - t)
                t = time.perf_counter()
                n = len(ex.extract(doc))
                extracts.append(time.perf_counter() - t)
        r, e = min(reads), min(extracts)
        out[pdf.name] = {"pages": int(doc.meta["pages"]), "chars": len(doc.text),
                         "relations": n, "read_s": round(r, 3), "extract_s": round(e, 2),
                         "end_to_end_s": round(r + e, 2), "read_share": round(r / (r + e), 4)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("runs/papers-bench"),
                    help="the benchmark data (benchmarks/papers_data.py)")
    ap.add_argument("--libs", action="store_true", help="compare the PDF libraries too")
    ap.add_argument("--render", action="store_true", help="(re)make the stand-in PDFs")
    ap.add_argument("--memory", action="store_true", help="the 300-page PDF")
    ap.add_argument("--relations", action="store_true",
                    help="relations from the JATS vs from the PDFs; none from references")
    ap.add_argument("--end-to-end", action="store_true",
                    help="a 10-page paper read + extracted on one core")
    ap.add_argument("--papers", nargs="*", help="only these JATS papers (stems)")
    ap.add_argument("--ge", type=Path, default=Path(__file__).resolve().parents[2] / "shared"
                    / "corpora" / "bionlp-st-ge" / "2011",
                    help="GE 2011 (its full-text papers join --relations)")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    if not (a.data / "jats").is_dir():
        ap.error(f"no {a.data}/jats: make it with benchmarks/papers_data.py")
    jats = sorted(f for f in (a.data / "jats").glob("*.nxml")
                  if not a.papers or f.stem in a.papers)
    rendered = a.data / "pdf-rendered"
    if a.render:
        from papers_render import render

        rendered.mkdir(exist_ok=True)
        for f in jats:
            doc = next(read_jats(f))
            for layout in ("one", "two"):
                render(doc, rendered / f"{f.stem}.{layout}.pdf", layout)
    results: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    t = time.perf_counter()
    docs = {f.stem: next(read_jats(f)) for f in jats}
    secs = time.perf_counter() - t
    results["jats"] = {"papers": len(docs), "seconds": round(secs, 3),
                       "papers_per_s": round(len(docs) / secs, 1),
                       "chars_per_paper": sum(len(d.text) for d in docs.values())
                       // max(1, len(docs))}
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
    if a.relations:
        results["relations"] = relations(a.data, jats, a.ge)
    if a.end_to_end:
        results["end_to_end"] = end_to_end(a.data)
    results["peak_rss_mib_this_process"] = resource.getrusage(
        resource.RUSAGE_SELF).ru_maxrss // 1024
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(results, indent=2)
    print(text)
    if a.out:
        a.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
