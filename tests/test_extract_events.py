"""``relx extract --task events``: GENIA events from standoff (``.a1`` proteins) and raw text
(relx NER proteins) with the shipped ``models/ge-events``; ``.txt``/``.a1``/``.a2`` and JSONL
outputs, errors, resume. The model is loaded once for the module (the batch's extractor
cache is shared by the in-process runs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, SHARED
from typer.testing import CliRunner

from relx.app.cli import app
from relx.ge.evaluate import evaluate_events
from relx.genes.ncbi_gene import ncbi_ids
from relx.io.standoff import read_standoff, read_standoff_dir
from relx.model_store import models_dir

GE_DEVEL = SHARED / "corpora" / "bionlp-st-ge" / "2011" / "devel"
REAL = ("PMC-1134658-00-TIAB", "PMC-1134658-01-Background")   # two short devel documents
RAW_TEXT = FIXTURES / "events-raw.txt"

if not (models_dir() / "ge-events" / "models.skops").is_file():
    pytest.skip("shipped event model models/ge-events missing", allow_module_level=True)
if not (models_dir() / "relx_bio_sm" / "meta.json").is_file():
    pytest.skip("shipped pipeline models/relx_bio_sm missing", allow_module_level=True)


def _inputs(folder: Path) -> dict[str, str]:
    """Input files; returns the expected kind of each document id."""
    folder.mkdir(parents=True)
    kinds = {}
    for ext in ("txt", "a1", "a2"):   # a gold .a2 beside the input is ignored
        shutil.copy(FIXTURES / f"ge-1.{ext}", folder / f"ge-1.{ext}")
    kinds["ge-1"] = "standoff"
    shutil.copy(RAW_TEXT, folder / "raw-1.txt")
    kinds["raw-1"] = "raw"
    (folder / "latin1.txt").write_bytes("Expression of \xe9lastase.".encode("latin-1"))
    (folder / "broken.txt").write_text("STAT3 is phosphorylated.\n")
    (folder / "broken.a1").write_text("T1\tProtein 0 5\tSTAT3\nT2\tProtein 90 99\tnowhere\n")
    if GE_DEVEL.is_dir():
        for name in REAL:
            for ext in ("txt", "a1", "a2"):
                shutil.copy(GE_DEVEL / f"{name}.{ext}", folder / f"{name}.{ext}")
            kinds[name] = "standoff"
    return kinds


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("events")
    kinds = _inputs(root / "in")
    out = root / "out"
    r = CliRunner().invoke(app, ["extract", "--task", "events", str(root / "in"),
                                 "--out", str(out), "--report", str(root / "report.html"),
                                 "--format", "brat", "--format", "bioc", "--quiet"])
    assert r.exit_code == 3, r.output    # 3: finished, two inputs failed
    return root / "in", out, kinds


def _events(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_outputs_and_summary(run) -> None:
    _, out, kinds = run
    summary = json.loads((out / "summary.json").read_text())
    assert summary["task"] == "events" and summary["inputs"] == len(kinds) + 2
    assert summary["documents"] == len(kinds) and summary["errors"] == 2
    assert summary["events"] == len(_events(out)) > 0 and summary["triggers"] > 0
    assert set(summary) >= {"documents", "sentences", "events", "errors", "seconds"}
    assert sorted(p.stem for p in (out / "standoff").glob("*.a2")) == sorted(kinds)


def test_bad_inputs_are_listed_and_skipped(run) -> None:
    _, out, _ = run
    errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert sorted(Path(e["input"]).name for e in errors) == ["broken.txt", "latin1.txt"]
    assert any("outside the text" in e["error"] for e in errors)
    assert any("UTF-8" in e["error"] for e in errors)


def test_a2_rereads_and_scores_one_against_itself(run) -> None:
    _, out, kinds = run
    docs = read_standoff_dir(out / "standoff")
    assert sorted(d.id for d in docs) == sorted(kinds)
    assert sum(len(d.events) for d in docs) == len(_events(out))
    for d in docs:
        prot = {int(p.id[1:]) for p in d.proteins}
        assert all(int(t.id[1:]) > max(prot, default=0) for t in d.triggers)   # no collisions
    r = evaluate_events(docs, docs, matching="approx-recursive")
    assert r["f1"] == pytest.approx(1.0)
    assert evaluate_events(docs, docs, matching="strict")["f1"] == pytest.approx(1.0)


def test_standoff_input_uses_its_a1_proteins(run) -> None:
    inp, out, kinds = run
    for name, kind in kinds.items():
        if kind != "standoff":
            continue
        given = read_standoff(inp / f"{name}.txt")
        written = read_standoff(out / "standoff" / f"{name}.txt")
        assert written.text == given.text
        assert [(p.id, p.spans, p.text) for p in written.proteins] == \
            [(p.id, p.spans, p.text) for p in given.proteins]
        assert (out / "standoff" / f"{name}.a1").read_text() == (inp / f"{name}.a1").read_text()
    fixture = read_standoff(out / "standoff" / "ge-1.txt")
    tbs = fixture.textbounds()
    found = {(e.type, tuple(sorted(tbs[r].text for r in e.refs("Theme") if r in tbs)))
             for e in fixture.events}
    assert ("Phosphorylation", ("STAT3",)) in found


def test_raw_text_uses_ner_proteins(run) -> None:
    from relx.parse.pipeline import Parser

    _, out, _ = run
    written = read_standoff(out / "standoff" / "raw-1.txt")
    text = RAW_TEXT.read_text()
    ner = [e for s in Parser().parse_text(text, "raw-1").sentences for e in s.entities]
    assert len(ner) >= 4
    assert [(p.start, p.end) for p in written.proteins] == [(e.start, e.end) for e in ner]
    assert [p.id for p in written.proteins] == [f"T{k}" for k in range(1, len(ner) + 1)]
    themes = {(e.type, written.textbounds()[e.refs("Theme")[0]].text) for e in written.events
              if e.refs("Theme")[0].startswith("T")}
    assert ("Phosphorylation", "STAT5") in themes


def test_jsonl_events(run) -> None:
    _, out, _ = run
    evs = _events(out)
    texts = {p.stem: p.read_text() for p in (out / "standoff").glob("*.txt")}
    by_doc: dict[str, set[str]] = {}
    for e in evs:
        by_doc.setdefault(e["document_id"], set()).add(e["event_id"])
    for e in evs:
        text = texts[e["document_id"]]
        t = e["trigger"]
        assert text[t["start"]:t["end"]] == t["text"] and t["id"].startswith("T")
        assert e["model"] == "ge-events" and e["model_version"]
        assert e["sentence_start"] <= t["start"] < e["sentence_end"]
        assert e["arguments"]
        assert set(e["modifications"]) <= {"Negation", "Speculation"}
        for a in e["arguments"]:
            assert a["role"].rstrip("0123456789") in ("Theme", "Cause")
            assert text[a["start"]:a["end"]] == a["text"]
            if a["kind"] == "event":
                assert a["id"] in by_doc[e["document_id"]]
            else:
                assert a["kind"] == "protein" and a["id"].startswith("T")
    assert any(a["kind"] == "event" for e in evs for a in e["arguments"])   # nested events


@pytest.mark.slow
def test_grounded_arguments_and_html_report(run) -> None:
    import lxml.html

    from relx.ge.extract import EventExtractor
    from relx.ge.report import protein_edges
    from relx.genes.lexicon import default_grounder
    from relx.ppi.report import node_key

    inp, out, _ = run
    evs = _events(out)
    proteins = [a for e in evs for a in e["arguments"] if a["kind"] == "protein"]
    grounder = default_grounder()
    for a in proteins:   # a mention that grounds is grounded (abbreviations may take
        # their long form's ids, so only the presence is compared)
        assert bool(a["norm_ids"]) >= bool(grounder.ground(a["text"])), a
    assert sum(bool(a["norm_ids"]) for a in proteins) >= len(proteins) // 2
    assert all("norm_ids" not in a or not a["norm_ids"]
               for e in evs for a in e["arguments"] if a["kind"] == "event")
    stat5 = [a for a in proteins if a["text"] == "STAT5"]
    # the family's learned member (relx.genes.members: STAT5A) first, the family second
    assert stat5 and stat5[0]["norm_ids"][:2] == ["HGNC:11366", "FPLX:STAT5"]
    assert stat5[0]["ncbi_ids"][0] == "NCBIGene:6776"
    page = lxml.html.fromstring((inp.parent / "report.html").read_text(encoding="utf-8"))
    assert len(page.xpath("//table[@id='relations']/tbody/tr")) == len(evs)
    edges = page.xpath("//svg//*[contains(concat(' ',@class,' '),' edge ')]")
    pairs = {tuple(sorted((node_key(e["entity1"]), node_key(e["entity2"]))))
             for e in protein_edges(evs) if not e["negated"]}   # negated: not drawn
    assert edges and {(e.get("data-source"), e.get("data-target")) for e in edges} == pairs
    # grounding off: the same events without ids
    plain = EventExtractor(ground=False).extract(RAW_TEXT)
    assert plain and all(not a.norm_ids for e in plain for a in e.arguments)


def test_brat_collections(run) -> None:
    """--format brat: per input a brat folder with annotation.conf; each .ann holds the
    standoff output's lines plus notes with the proteins' ids."""
    _, out, kinds = run
    folders = {p.name: p for p in (out / "brat").iterdir()}
    assert {"ge-1.txt", "raw-1.txt"} <= set(folders)
    for folder in folders.values():
        conf = (folder / "annotation.conf").read_text()
        assert "Binding\tTheme+:Protein" in conf and "[events]" in conf
    anns = {p.stem: p for f in folders.values() for p in f.glob("*.ann")}
    assert set(anns) == set(kinds)
    evs = _events(out)
    for name, ann in anns.items():
        lines = ann.read_text().splitlines()
        std = out / "standoff" / name
        assert ann.with_suffix(".txt").read_text() == std.with_suffix(".txt").read_text()
        body = [x for x in lines if not x.startswith("#")]
        assert body == (std.with_suffix(".a1").read_text() +
                        std.with_suffix(".a2").read_text()).splitlines()
        notes = {x.split("\t")[1].split()[1]: x.split("\t")[2].split(";") for x in lines
                 if x.startswith("#")}   # ids joined by ";" as in every format (relx.ids)
        for e in evs:
            for a in e["arguments"]:
                if e["document_id"] == name and a["kind"] == "protein":
                    assert notes.get(a["id"], []) == list(dict.fromkeys(
                        [*a["norm_ids"], *a.get("ncbi_ids", [])]))   # NCBI Gene ids last
                    assert a.get("ncbi_ids") == ncbi_ids(a["norm_ids"])


def test_bioc_events(run) -> None:
    """--format bioc: per input a BioC XML collection; proteins and triggers are annotations,
    each event a relation (Trigger node + argument roles), modifications as infons."""
    import bioc

    _, out, kinds = run
    docs = {}
    for f in (out / "bioc").glob("*.xml"):
        with open(f, encoding="utf-8") as fh:
            docs.update({d.id: d for d in bioc.biocxml.load(fh).documents})
    assert set(docs) == set(kinds)
    evs = _events(out)
    for name, d in docs.items():
        std = read_standoff(out / "standoff" / f"{name}.txt")
        anns = {a.id: a for p in d.passages for a in p.annotations}
        assert set(anns) == {t.id for t in [*std.proteins, *std.triggers]}
        rels = {r.id: r for r in d.relations}
        assert set(rels) == {e.id for e in std.events}
        for e in std.events:
            r = rels[e.id]
            assert r.infons["type"] == e.type
            assert [(n.role, n.refid) for n in r.nodes] == [("Trigger", e.trigger), *e.arguments]
        for e in (x for x in evs if x["document_id"] == name):
            assert {k for k in ("negation", "speculation") if k in rels[e["event_id"]].infons} \
                == {m.lower() for m in e["modifications"]}
            for a in e["arguments"]:
                if a["kind"] == "protein":
                    infons = anns[a["id"]].infons
                    if a.get("ncbi_ids"):   # PubTator's bare GeneIDs, relx's ids beside them
                        assert infons["identifier"] == ";".join(
                            i.partition(":")[2] for i in a["ncbi_ids"])
                        assert infons["relx_identifier"] == ";".join(a["norm_ids"])
                    else:
                        assert infons.get("identifier", "") == ";".join(a["norm_ids"])


def test_resume_skips_done_inputs(run, tmp_path) -> None:
    from relx.app.batch import BatchOptions, list_inputs, run_batch
    from relx.tasks import TASKS

    EVENT_FORMATS = TASKS["events"].formats()

    inp, out, _ = run
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    (copy / ".done" / "raw-1.txt.json").unlink()
    (copy / "events.jsonl").unlink()
    shutil.rmtree(copy / "standoff")
    seen: list[str] = []
    summary = run_batch(list_inputs([inp]), BatchOptions(out=str(copy), formats=EVENT_FORMATS,
                                                         task=TASKS["events"]),
                        on_done=lambda rec: seen.append(rec["key"]))
    assert seen == ["raw-1.txt"]
    assert summary["inputs_skipped_as_done"] == summary["inputs"] - 1
    assert (copy / "events.jsonl").read_text() == (out / "events.jsonl").read_text()
    assert [p.name for p in (copy / "standoff").iterdir()] and \
        sorted(p.name for p in (copy / "standoff").iterdir()) == \
        ["raw-1.a1", "raw-1.a2", "raw-1.txt"]


@pytest.mark.skipif(not GE_DEVEL.is_dir(), reason="GE 2011 devel not available")
def test_real_documents_against_gold(run) -> None:
    _, out, _ = run
    gold = [read_standoff(GE_DEVEL / f"{n}.txt") for n in REAL]
    pred = [read_standoff(out / "standoff" / f"{n}.txt") for n in REAL]
    r = evaluate_events(gold, pred, matching="approx-recursive")
    assert r["pred"] > 0 and r["f1"] > 0.2


def _events_by_mentions(inp: Path, out: Path, mentions: str | None) -> list[dict]:
    args = ["extract", "--task", "events", str(inp), "--out", str(out), "--quiet"]
    r = CliRunner().invoke(app, args + ([] if mentions is None else ["--mentions", mentions]))
    assert r.exit_code == 0, r.output
    return _events(out)


@pytest.mark.slow
def test_an_empty_a1_is_no_proteins_under_auto(tmp_path) -> None:
    """Issue 54: a standoff document whose ``.a1`` is empty names no protein (its annotators
    found none); ``--mentions auto`` must not run relx's tagger on it. Same events with and
    without ``--mentions input``, on the fixture (whose text the tagger would give IL-2 and
    STAT5 and a phosphorylation) and on GE 2011 devel's documents with an empty ``.a1``."""
    inp = tmp_path / "in"
    inp.mkdir()
    empty = ["ge-no-proteins"]
    for ext in ("txt", "a1"):
        shutil.copy(FIXTURES / f"ge-no-proteins.{ext}", inp / f"ge-no-proteins.{ext}")
        shutil.copy(FIXTURES / f"ge-1.{ext}", inp / f"ge-1.{ext}")
    if GE_DEVEL.is_dir():
        for a1 in sorted(GE_DEVEL.glob("*.a1")):
            if a1.stat().st_size == 0:
                shutil.copy(a1, inp / a1.name)
                shutil.copy(a1.with_suffix(".txt"), inp / f"{a1.stem}.txt")
                empty.append(a1.stem)
        assert len(empty) == 12          # the 11 of GE 2011 devel
    auto = _events_by_mentions(inp, tmp_path / "auto", None)
    given = _events_by_mentions(inp, tmp_path / "input", "input")
    assert auto == given and {e["document_id"] for e in auto} == {"ge-1"}
    for name in empty:
        assert (tmp_path / "auto" / "standoff" / f"{name}.a1").read_text() == ""
        assert read_standoff(tmp_path / "auto" / "standoff" / f"{name}.txt").events == []
    summary = json.loads((tmp_path / "auto" / "summary.json").read_text())
    assert summary["mentions"] == "auto" and summary["documents"] == len(empty) + 1


def test_models_lists_the_event_model_and_bad_options(tmp_path) -> None:
    from relx.model_store import installed_models

    m = {x["name"]: x for x in installed_models()}["ge-events"]
    assert m["kind"] == "event model" and m["task"] == "ge-events" and m["size_mb"] < 40
    meta = json.loads((models_dir() / "ge-events" / "meta.json").read_text())
    assert set(meta["modification_thresholds"]) == {"Negation", "Speculation"}
    r = CliRunner().invoke(app, ["models"])
    assert r.exit_code == 0 and "ge-events" in r.output
    r = CliRunner().invoke(app, ["extract", "--task", "events", str(RAW_TEXT),
                                 "--format", "tsv"])
    assert r.exit_code == 2
    r = CliRunner().invoke(app, ["extract", "--task", "events", str(RAW_TEXT),
                                 "--threshold", "0.5", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "--threshold is for --task ppi only" in r.output
    r = CliRunner().invoke(app, ["extract", "--task", "events", str(RAW_TEXT),
                                 "--model", "no-such-model", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "no event model 'no-such-model'" in r.output


def test_event_arguments_are_the_gene_types_pairs_are_made_of() -> None:
    from relx.doc import Entity, Span
    from relx.ge.extract import is_protein
    from relx.ids import PROTEIN_TYPES

    def ent(t: str) -> Entity:
        return Entity(id="T1", spans=[Span(start=0, end=3)], text="p53", type=t)

    for t in PROTEIN_TYPES:   # the pair types, in the spellings inputs use
        assert is_protein(ent(t)) and is_protein(ent(t.upper())) and is_protein(ent(t.title()))
    assert is_protein(ent("Protein_family_or_group")) and is_protein(ent("Complex"))
    assert not any(is_protein(ent(t)) for t in ("Entity", "Chemical", "Cell_line", ""))


@pytest.mark.skipif(not GE_DEVEL.is_dir(), reason="GE 2011 devel missing")
def test_edges_no_role_can_win_skip_the_kernel_and_the_rest_are_decided_as_before(tmp_path):
    import numpy as np

    from relx.ge.data import load_ge
    from relx.ge.edges import candidates, decide_edges
    from relx.ge.pipeline import GEExtractor
    from relx.ge.sentences import build_views
    from relx.model_store import find_model_dir

    for txt in sorted(GE_DEVEL.glob("*.txt"))[:8]:
        for ext in ("txt", "a1"):
            shutil.copy(txt.with_suffix(f".{ext}"), tmp_path / f"{txt.stem}.{ext}")
    model = GEExtractor.load(find_model_dir("ge-events"))
    views = [v for d in load_ge(tmp_path) for v in build_views(d, gold=False)]
    cands = candidates(views, model.triggers.predict(views))
    edges = model.edges
    sizes = [len(v) for v in (edges.encoder_.words, edges.encoder_.lemmas)]
    full = edges.proba(views, cands)
    for none_bias, cause_bias in ((edges.none_bias, edges.cause_bias), (0.7, 0.0)):
        new = edges.deciding_proba(views, cands, none_bias, cause_bias)
        settled = np.isnan(new[:, 0])
        np.testing.assert_array_equal(new[~settled], full[~settled])     # bit for bit
        assert (decide_edges(new, cands, none_bias, cause_bias)
                == decide_edges(full, cands, none_bias, cause_bias))
        if none_bias == edges.none_bias:   # the model's own bias settles most candidates
            assert settled.mean() > 0.3
    # predicting leaves the model's vocabularies as they were (a long run does not grow them)
    assert [len(v) for v in (edges.encoder_.words, edges.encoder_.lemmas)] == sizes
