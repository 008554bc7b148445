"""brat output (https://brat.nlplab.org): a collection folder per input, ready to open.

Each folder holds ``<doc>.txt``, ``<doc>.ann`` and the collection's ``annotation.conf`` (so
brat shows the types without configuration work); document-level gene relations (task
``gene-relations``) are written by :mod:`relx.io.brat_genes`:

- relations (:func:`write_brat`): ``T`` proteins (other entity types, e.g. ``Chemical``
  from a PubTator input, keep their type), ``R`` relations (``Interaction`` for untyped
  pairs, else their type), ``A`` ``Negated`` / ``Speculated`` attributes on relations, and
  ``#`` ``AnnotatorNotes`` holding each entity's namespaced ids, then its NCBI Gene ids
  (``HGNC:6001;NCBIGene:3558``; ``;``-joined, as in every relx output) and each relation's
  score;
- GENIA events (:func:`write_brat_events`): the predicted standoff's ``T`` proteins and
  triggers, ``E`` events, ``M`` modifications and ``*`` Equiv lines (the ``.a1`` + ``.a2``
  lines of :mod:`relx.io.standoff`, the BioNLP-ST format brat reads), and notes with each
  protein's ids (NCBI Gene ids last).

File names are the document ids made file-safe; a repeated id within one input gets
``-2``, ``-3``... Every file is written atomically.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from relx.ids import is_protein_type, join_ids, namespaced_ids
from relx.io.atomic import atomic_open

if TYPE_CHECKING:
    from relx.doc import Document, StandoffDocument

def ppi_conf(entity_types: Iterable[str] = (), relation_types: Iterable[str] = ()) -> str:
    """``annotation.conf`` of a relation collection: ``Protein`` and the other entity types
    used, ``Interaction`` and the other relation types used, the two relation attributes."""
    ents = ["Protein", *sorted(set(entity_types) - {"Protein"})]
    rels = ["Interaction", *sorted(set(relation_types) - {"Interaction"})]
    return "\n".join([
        "# brat annotation configuration written by relx (protein-protein interactions)",
        "[entities]", *ents, "[relations]", *(f"{r}\tArg1:Protein, Arg2:Protein" for r in rels),
        "[events]", "[attributes]", "Negated\tArg:<RELATION>", "Speculated\tArg:<RELATION>",
        ""])

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


def _conf(folder: Path, conf: str, name: str = "annotation.conf") -> None:
    with atomic_open(folder / name) as fh:
        fh.write(conf)


def _brat_type(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "Entity"


def _where(x: object) -> str:
    """`` section=RESULTS page=3`` of a sentence or record from a paper (empty otherwise)."""
    section, page = getattr(x, "section", None), getattr(x, "page", None)
    return ("" if section is None else f" section={section}") + \
        ("" if page is None else f" page={page}")


def _with_ncbi(ids: list[str], ncbi: list[str] | None) -> list[str]:
    """A mention's ids for its note: relx's, then its NCBI Gene ids (``HGNC:6001;NCBIGene:3558``)."""
    return list(dict.fromkeys([*ids, *(ncbi or ())]))


def write_brat(docs: Sequence[Document], folder: Path) -> None:
    """Relations: ``T`` entities, ``R`` relations with ``A`` ``Negated`` / ``Speculated``
    attributes, ``#`` notes with ids (relx's, then the NCBI Gene ids) and scores;
    ``annotation.conf`` names the types used."""
    ent_types: set[str] = set()
    rel_types: set[str] = set()
    for doc, stem in zip(docs, file_stems(d.id for d in docs), strict=True):
        lines, tid, notes, attrs = [], {}, 0, 0
        for s in doc.sentences:
            for e in s.entities:
                if e.id in tid:
                    continue
                tid[e.id] = f"T{len(tid) + 1}"
                typ = "Protein" if is_protein_type(e.type) else _brat_type(e.type)
                ent_types.add(typ)
                frag = ";".join(f"{sp.start} {sp.end}" for sp in e.spans)
                text = " ".join(doc.text[sp.start:sp.end] for sp in e.spans).replace("\n", " ")
                lines.append(f"{tid[e.id]}\t{typ} {frag}\t{text}")
                ids = _with_ncbi(namespaced_ids(e.norm_ids, e.type), e.ncbi_ids)
                if ids:
                    notes += 1
                    lines.append(f"#{notes}\tAnnotatorNotes {tid[e.id]}\t{join_ids(ids)}")
        for k, (sent, r) in enumerate(doc.relations(), 1):
            typ = "Interaction" if r.type in ("PPI", "Interaction") else _brat_type(r.type)
            rel_types.add(typ)
            first, second = ((r.arg2, r.arg1) if r.direction == "entity2->entity1"
                             else (r.arg1, r.arg2))   # Arg1 acts on Arg2
            lines.append(f"R{k}\t{typ} Arg1:{tid[first]} Arg2:{tid[second]}")
            for name, flag in (("Negated", r.negated), ("Speculated", r.speculated)):
                if flag:
                    attrs += 1
                    lines.append(f"A{attrs}\t{name} R{k}")
            if r.score is not None:
                notes += 1
                extra = "" if r.event_score is None else f" event_score={r.event_score:.4f}"
                lines.append(f"#{notes}\tAnnotatorNotes R{k}\tscore={r.score:.4f}{extra}"
                             f"{_where(sent)}")
        _write(folder, stem, doc.text, lines)
    _conf(folder, ppi_conf(ent_types, rel_types))


def write_brat_events(done: Sequence[tuple[Document, list, StandoffDocument]],
                      folder: Path) -> None:
    """GENIA events from ``(parsed document, events, predicted standoff)`` triples (what
    :meth:`relx.ge.extract.EventExtractor.annotate` yields): the standoff lines, and notes
    with the ids of each protein (the parsed document's entity of the same ``T`` id)."""
    from relx.io.standoff import format_a1, format_a2

    for (parsed, events, pred), stem in zip(done, file_stems(p.id for _, _, p in done),
                                            strict=True):
        lines = (format_a1(pred) + format_a2(pred)).splitlines()
        ids = {e.id: _with_ncbi(namespaced_ids(e.norm_ids, e.type), e.ncbi_ids)
               for s in parsed.sentences for e in s.entities if e.norm_ids}
        lines += [f"#{k}\tAnnotatorNotes {p.id}\t{join_ids(ids[p.id])}"
                  for k, p in enumerate((p for p in pred.proteins if p.id in ids), 1)]
        k = sum(p.id in ids for p in pred.proteins)
        for ev in events:             # where each event is in a paper
            note = _where(ev).strip()
            if note:
                k += 1
                lines.append(f"#{k}\tAnnotatorNotes {ev.event_id}\t{note}")
        _write(folder, stem, pred.text, lines)
    _conf(folder, EVENTS_CONF)


def join_brat(parts: list[Path], target: Path) -> None:
    """brat folders: every ``.txt``/``.ann`` pair (a stem met again gets ``-2``...) and one
    ``annotation.conf`` (and ``tools.conf``, when written), as one folder swapped in whole."""
    import os
    import shutil

    if not any(p.is_dir() for p in parts):
        return
    tmp = target.with_name(f".{target.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    used: set[str] = set()
    for p in parts:
        if not p.is_dir():
            continue
        for f in sorted(p.iterdir()):
            if f.suffix != ".ann":
                if f.name in ("annotation.conf", "tools.conf") and not (tmp / f.name).exists():
                    shutil.copy(f, tmp / f.name)
                continue
            stem, k = f.stem, 1
            while stem in used:
                k += 1
                stem = f"{f.stem}-{k}"
            used.add(stem)
            for ext in (".txt", ".ann"):
                if f.with_suffix(ext).exists():
                    shutil.copy(f.with_suffix(ext), tmp / f"{stem}{ext}")
    if target.exists():
        shutil.rmtree(target)
    os.replace(tmp, target)
