"""brat output (https://brat.nlplab.org): a collection folder per input, ready to open.

Each folder holds ``<doc>.txt``, ``<doc>.ann`` and the collection's ``annotation.conf`` (so
brat shows the types without configuration work):

- relations (:func:`write_brat`): ``T`` proteins, ``R`` ``Interaction`` relations and ``#``
  ``AnnotatorNotes`` holding each protein's ids and each relation's score;
- GENIA events (:func:`write_brat_events`): the predicted standoff's ``T`` proteins and
  triggers, ``E`` events, ``M`` modifications and ``*`` Equiv lines (the ``.a1`` + ``.a2``
  lines of :mod:`relx.io.standoff`, the BioNLP-ST format brat reads), and notes with each
  protein's ids.

File names are the document ids made file-safe; a repeated id within one input gets
``-2``, ``-3``... Every file is written atomically.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from relx.io.atomic import atomic_open

if TYPE_CHECKING:
    from relx.doc import Document, StandoffDocument

PPI_CONF = """# brat annotation configuration written by relx (protein-protein interactions)
[entities]
Protein
[relations]
Interaction\tArg1:Protein, Arg2:Protein
[events]
[attributes]
"""

_SIMPLE = ("Gene_expression", "Transcription", "Protein_catabolism", "Phosphorylation",
           "Localization")
_REGULATION = ("Regulation", "Positive_regulation", "Negative_regulation")
EVENTS_CONF = "\n".join([
    "# brat annotation configuration written by relx (BioNLP-ST GENIA events, task 1)",
    "[entities]", "Protein", "Entity",
    "[relations]", "Equiv\tArg1:Protein, Arg2:Protein, <REL-TYPE>:symmetric-transitive",
    "[events]",
    *(f"{t}\tTheme:Protein" for t in _SIMPLE),
    "Binding\tTheme+:Protein",
    *(f"{t}\tTheme:<EVENT>|Protein, Cause?:<EVENT>|Protein" for t in _REGULATION),
    "[attributes]", "Negation\tArg:<EVENT>", "Speculation\tArg:<EVENT>", ""])


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).lstrip(".") or "doc"


def file_stems(ids: Iterable[str]) -> list[str]:
    """File-safe names for document ids; a repeated one gets ``-2``, ``-3``..."""
    used: set[str] = set()
    out = []
    for i in ids:
        stem, k = _safe(i), 1
        while stem in used:
            k += 1
            stem = f"{_safe(i)}-{k}"
        used.add(stem)
        out.append(stem)
    return out


def _write(folder: Path, stem: str, text: str, lines: list[str]) -> None:
    with atomic_open(folder / f"{stem}.txt") as fh:
        fh.write(text)
    with atomic_open(folder / f"{stem}.ann") as fh:
        fh.write("\n".join(lines) + ("\n" if lines else ""))


def _conf(folder: Path, conf: str) -> None:
    with atomic_open(folder / "annotation.conf") as fh:
        fh.write(conf)


def write_brat(docs: Sequence[Document], folder: Path) -> None:
    """Relations: ``T`` proteins, ``R`` interactions, ``#`` notes with ids and scores."""
    for doc, stem in zip(docs, file_stems(d.id for d in docs), strict=True):
        lines, tid, notes = [], {}, 0
        for s in doc.sentences:
            for e in s.entities:
                tid[e.id] = f"T{len(tid) + 1}"
                frag = ";".join(f"{sp.start} {sp.end}" for sp in e.spans)
                text = " ".join(doc.text[sp.start:sp.end] for sp in e.spans).replace("\n", " ")
                lines.append(f"{tid[e.id]}\tProtein {frag}\t{text}")
                if e.norm_ids:
                    notes += 1
                    lines.append(f"#{notes}\tAnnotatorNotes {tid[e.id]}\t{' '.join(e.norm_ids)}")
        for k, (_, r) in enumerate(doc.relations(), 1):
            lines.append(f"R{k}\tInteraction Arg1:{tid[r.arg1]} Arg2:{tid[r.arg2]}")
            notes += 1
            lines.append(f"#{notes}\tAnnotatorNotes R{k}\tscore={r.score:.4f}")
        _write(folder, stem, doc.text, lines)
    _conf(folder, PPI_CONF)


def write_brat_events(done: Sequence[tuple[Document, list, StandoffDocument]],
                      folder: Path) -> None:
    """GENIA events from ``(parsed document, events, predicted standoff)`` triples (what
    :meth:`relx.ge.extract.EventExtractor.annotate` yields): the standoff lines, and notes
    with the ids of each protein (the parsed document's entity of the same ``T`` id)."""
    from relx.io.standoff import format_a1, format_a2

    for (parsed, _, pred), stem in zip(done, file_stems(p.id for _, _, p in done), strict=True):
        lines = (format_a1(pred) + format_a2(pred)).splitlines()
        ids = {e.id: e.norm_ids for s in parsed.sentences for e in s.entities if e.norm_ids}
        lines += [f"#{k}\tAnnotatorNotes {p.id}\t{' '.join(ids[p.id])}"
                  for k, p in enumerate((p for p in pred.proteins if p.id in ids), 1)]
        _write(folder, stem, pred.text, lines)
    _conf(folder, EVENTS_CONF)
