"""`relx extract` and the Python API with the shipped models, on relx's sample abstracts."""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, SHARED
from typer.testing import CliRunner

from relx.app.cli import app
from relx.doc import Entity, Sentence, Span
from relx.model_store import models_dir
from relx.ppi.model import DEFAULT_MODEL

if not (models_dir() / DEFAULT_MODEL / "meta.json").exists():
    pytest.skip("shipped model models/ppi-default missing", allow_module_level=True)

SAMPLES = ROOT / "corpora" / "abstracts"
TEXT = ("Interleukin-2 (IL-2) binds to the IL-2 receptor. Activated JAK1 phosphorylates STAT5, "
        "and SOCS3 inhibits JAK1.")


@pytest.fixture(scope="module")
def extractor():
    import relx

    return relx.load(task="ppi")


def test_candidate_pairs() -> None:
    from relx.ppi.extract import candidate_pairs

    ents = [Entity(id=i, spans=[Span(start=a, end=b)]) for i, a, b in
            [("c", 20, 25), ("a", 0, 5), ("b", 10, 15), ("ab", 3, 12)]]
    s = Sentence(id="s", start=0, end=30, text="x" * 30, entities=ents)
    pairs = [(r.arg1, r.arg2) for r in candidate_pairs(s)]
    # text order; overlapping mentions ("ab" with "a" and "b") are never paired
    assert pairs == [("a", "b"), ("a", "c"), ("ab", "c"), ("b", "c")]
    assert len({r.id for r in candidate_pairs(s)}) == 4
    from relx.doc import Abbreviation

    abbr = Abbreviation(short=Span(start=10, end=15), long=Span(start=0, end=5),
                        short_text="b", long_text="a")
    assert ("a", "b") not in [(r.arg1, r.arg2) for r in candidate_pairs(s, [abbr])]


def test_api_extracts_typed_relations(extractor) -> None:
    from relx.ppi.extract import ExtractedRelation

    rels = extractor.extract(TEXT)
    assert rels and all(isinstance(r, ExtractedRelation) for r in rels)
    for r in rels:
        for e in (r.entity1, r.entity2):
            assert TEXT[e.start:e.end] == e.text
            assert r.sentence_start <= e.start < e.end <= r.sentence_end
        assert TEXT[r.sentence_start:r.sentence_end] == r.sentence
        assert extractor.threshold < r.score <= 1 and r.model == DEFAULT_MODEL
    pairs = {frozenset((r.entity1.text, r.entity2.text)) for r in rels}
    assert frozenset(("SOCS3", "JAK1")) in pairs


def test_api_accepts_documents_and_paths(extractor) -> None:
    from relx.doc import Document

    by_text = extractor.extract(TEXT)
    by_doc = extractor.extract(Document(id="text", text=TEXT))
    assert [r.model_dump() for r in by_doc] == [r.model_dump() for r in by_text]
    by_path = extractor.extract(SAMPLES / "jak-stat.txt")
    assert by_path and {r.document_id for r in by_path} == {"jak-stat"}


@pytest.mark.slow
def test_given_entities_are_used(extractor) -> None:
    """Standoff input: the .a1 proteins are the entities (no NER)."""
    from relx.io.registry import read

    docs = list(read(FIXTURES / "st-mini.txt"))
    given = {e.id for s in docs[0].sentences for e in s.entities}
    parsed, _, _ = next(extractor.annotate(docs))
    assert {e.id for s in parsed.sentences for e in s.entities} == given


def _write_inputs(folder: Path, n_copies: int = 1) -> list[str]:
    """Sample abstracts in several formats plus deliberately broken files."""
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(n_copies):
        for f in sorted(SAMPLES.glob("*.txt")):
            shutil.copy(f, folder / f"{f.stem}-{k}.txt")
    shutil.copy(FIXTURES / "fmt-pubmed.xml", folder / "pubmed.xml")
    (folder / "empty.txt").write_text("")
    (folder / "latin1.txt").write_bytes("Prot\xe9ine kinase C binds p53.".encode("latin-1"))
    (folder / "broken.xml").write_text("<PubmedArticleSet><PubmedArticle><MedlineCitation>")
    with gzip.open(folder / "truncated.xml.gz", "wb") as fh:
        fh.write(b"<PubmedArticleSet><PubmedArticle>")
    return ["empty.txt", "latin1.txt", "broken.xml", "truncated.xml.gz"]


def _relations(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "relations.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_extract_command_outputs_and_errors(tmp_path: Path) -> None:
    bad = _write_inputs(tmp_path / "in")
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                 str(tmp_path / "in"), "--out", str(out),
                                 "--format", "tsv", "--format", "brat", "--format", "bioc",
                                 "--format", "pubtator", "--quiet"])
    assert r.exit_code == 3, r.output    # 3: finished, some inputs failed
    summary = json.loads((out / "summary.json").read_text())
    errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert sorted(Path(e["input"]).name for e in errors) == sorted(bad)
    assert summary["errors"] == len(bad) and summary["inputs"] == 10
    assert summary["documents"] >= 6 and summary["relations"] == len(_relations(out)) > 0
    assert summary["candidates"] >= summary["relations"]
    for rel in _relations(out):
        assert set(rel) >= {"document_id", "sentence", "entity1", "entity2", "score", "model",
                            "model_version"}
    tsv = (out / "tsv" / "jak-stat-0.txt.tsv").read_text().splitlines()
    assert tsv[0].startswith("document_id\tsentence_id\tentity1") and len(tsv) > 1
    ann = (out / "brat" / "jak-stat-0.txt" / "jak-stat-0.ann").read_text()
    rel_types = set(re.findall(r"^R\d+\t(\w+) Arg1:T\d+ Arg2:T\d+$", ann, re.M))
    assert rel_types and "\tProtein " in ann
    conf = (out / "brat" / "jak-stat-0.txt" / "annotation.conf").read_text()
    for typ in rel_types | {"Interaction"}:    # every type used (typed pass) is declared
        assert f"{typ}\tArg1:Protein, Arg2:Protein" in conf
    assert (out / "bioc" / "jak-stat-0.txt.xml").read_text().startswith("<?xml")
    assert "jak-stat-0|" in (out / "pubtator" / "jak-stat-0.txt.pubtator").read_text()


@pytest.mark.slow
def test_rerun_skips_finished_inputs(tmp_path: Path) -> None:
    _write_inputs(tmp_path / "in")
    out = tmp_path / "out"
    args = ["extract", "--task", "ppi", str(tmp_path / "in"), "--out", str(out), "--quiet"]
    assert CliRunner().invoke(app, args).exit_code == 3   # 3: some inputs failed
    first = (out / "relations.jsonl").read_text()
    assert CliRunner().invoke(app, args).exit_code == 3
    summary = json.loads((out / "summary.json").read_text())
    assert summary["inputs_skipped_as_done"] == summary["inputs"] == 10
    assert (out / "relations.jsonl").read_text() == first
    # resuming with other settings (here the threshold) would mix two runs' results: refused
    r = CliRunner().invoke(app, [*args, "--threshold", "0.9"])
    assert r.exit_code == 2 and "threshold" in r.output and "other settings" in r.output
    r = CliRunner().invoke(app, [*args, "--threshold", "in-domain"])
    assert r.exit_code == 2 and "other settings" in r.output
    r = CliRunner().invoke(app, [*args, "--threshold", "high"])
    assert r.exit_code == 2 and "a number or 'in-domain'" in r.output
    assert (out / "relations.jsonl").read_text() == first
    settings = json.loads((out / ".settings.json").read_text())
    assert settings["model"] == DEFAULT_MODEL and settings["model_version"]


@pytest.mark.slow
def test_killed_batch_resumes_to_the_same_output(tmp_path: Path) -> None:
    _write_inputs(tmp_path / "in", n_copies=3)
    cmd = [sys.executable, "-m", "relx.app.cli", "extract", "--task", "ppi",
           str(tmp_path / "in"), "--quiet"]
    full = tmp_path / "full"
    assert subprocess.run([*cmd, "--out", str(full)], timeout=600).returncode == 3
    part = tmp_path / "part"
    proc = subprocess.Popen([*cmd, "--out", str(part)], start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and len(list((part / ".done").glob("*.json"))
                                         if (part / ".done").exists() else []) < 4:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    n_done = len(list((part / ".done").glob("*.json")))
    assert 4 <= n_done < 19 and not (part / "summary.json").exists()
    assert subprocess.run([*cmd, "--out", str(part)], timeout=600).returncode == 3
    summary = json.loads((part / "summary.json").read_text())
    assert summary["inputs_skipped_as_done"] == n_done
    assert (part / "relations.jsonl").read_text() == (full / "relations.jsonl").read_text()
    assert (part / "errors.jsonl").read_text() == (full / "errors.jsonl").read_text()


@pytest.mark.slow
def test_jobs_and_dask_match_a_single_process(tmp_path: Path) -> None:
    from distributed import LocalCluster

    _write_inputs(tmp_path / "in")
    runner = CliRunner()
    base = ["extract", "--task", "ppi", str(tmp_path / "in"), "--quiet", "--out"]
    assert runner.invoke(app, [*base, str(tmp_path / "one")]).exit_code == 3   # bad inputs
    r = runner.invoke(app, [*base, str(tmp_path / "two"), "--jobs", "2"])
    assert r.exit_code == 3, r.output
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        r = runner.invoke(app, [*base, str(tmp_path / "dask"), "--engine", "dask",
                                "--scheduler", cluster.scheduler_address])
    assert r.exit_code == 3, r.output
    one = (tmp_path / "one" / "relations.jsonl").read_text()
    assert one and (tmp_path / "two" / "relations.jsonl").read_text() == one
    assert (tmp_path / "dask" / "relations.jsonl").read_text() == one
    for d in ("two", "dask"):
        assert (tmp_path / d / "errors.jsonl").read_text() == \
            (tmp_path / "one" / "errors.jsonl").read_text()


@pytest.mark.slow
def test_worker_processes_compute_on_one_thread() -> None:
    """Every thread pool of a batch worker is limited to one thread, including scikit-learn's
    OpenMP runtime (the boosted trees predict with it), which loads after the limit call."""
    code = ("from relx.app.batch import single_thread; single_thread(); "
            "import sklearn.ensemble, threadpoolctl; "
            "print([(i['internal_api'], i['num_threads']) "
            "for i in threadpoolctl.threadpool_info()])")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    pools = ast.literal_eval(out)
    assert ("openmp", 1) in pools and all(n == 1 for _, n in pools), pools


def test_models_command_lists_shipped_models() -> None:
    r = CliRunner().invoke(app, ["models"])
    assert r.exit_code == 0 and DEFAULT_MODEL in r.output and "relx_bio_sm" in r.output


def test_bad_model_name_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["extract", "--task", "ppi", str(SAMPLES), "--out", str(tmp_path),
                                 "--model", "no-such-model"])
    assert r.exit_code == 2 and "no relation model 'no-such-model'" in r.output


@pytest.mark.slow
def test_thousand_abstracts_with_corrupt_files(tmp_path: Path) -> None:
    """1,000+ real abstracts (GE texts, as plain text) plus injected corrupt files."""
    ge = SHARED / "corpora" / "bionlp-st-ge" / "2011"
    texts = sorted(ge.rglob("PMID-*.txt"))
    if len(texts) < 1000:
        pytest.skip("BioNLP-ST GE texts not available")
    inp = tmp_path / "in"
    inp.mkdir()
    for i in range(10):  # ten inputs of 100+ abstracts each, as PubTator files
        with open(inp / f"part{i}.pubtator", "w", encoding="utf-8") as fh:
            for t in texts[i::10]:
                title, _, abstract = t.read_text(encoding="utf-8").partition("\n")
                fh.write(f"{t.stem}|t|{title.strip()}\n{t.stem}|a|{abstract.strip()}\n\n")
    bad = _write_inputs(tmp_path / "in", n_copies=0)
    r = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                 str(inp), "--out", str(tmp_path / "out"),
                                 "--quiet", "--no-ground"])
    assert r.exit_code == 3, r.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    errors = [json.loads(x) for x in (tmp_path / "out" / "errors.jsonl").read_text().splitlines()]
    assert sorted(Path(e["input"]).name for e in errors) == sorted(bad)
    assert summary["documents"] >= len(texts) and summary["relations"] > 0


def test_shipped_model_is_current_format_and_compact(extractor) -> None:
    from relx.ppi.model import FORMAT_VERSION

    model_dir = models_dir() / DEFAULT_MODEL
    meta = json.loads((model_dir / "meta.json").read_text())
    assert meta["format_version"] == FORMAT_VERSION
    # format 3 keeps the forests as compact arrays: 20 MB, against 50 MB for the same
    # model stored as sklearn trees (format 2)
    assert (model_dir / "pipeline.skops").stat().st_size < 30e6
    forests = [e.steps[-1][1] for e in extractor.model.pipeline.steps[-1][1].estimators_
               if e is not None and hasattr(e.steps[-1][1], "node_is_leaf_")]
    assert len(forests) == 2 and not any(hasattr(f, "ensemble_") for f in forests)


@pytest.mark.slow
def test_in_domain_threshold_option_uses_the_models_in_domain_rule(extractor) -> None:
    from relx.ppi.extract import Extractor

    model = extractor.model
    inside = Extractor(model, threshold="in-domain")
    assert inside.threshold == model.in_domain_threshold
    assert extractor.threshold == model.threshold
    assert Extractor(model, threshold=0.25).threshold == 0.25
    # the shipped model stacks its members for in-domain text: other scores, not only
    # another threshold
    assert model.pipeline.steps[-1][1].in_domain_coef_ is not None
    text = ("JAK1 phosphorylates STAT5 and binds IL-2R beta, but not IL-4. "
            "Cdc42 and Rac1 associate with PAK1 in vitro.")
    scored = {}
    for name, ex in (("new", Extractor(model)), ("in", inside)):
        ex.threshold = -1.0  # report every candidate pair with its score
        scored[name] = {(r.entity1.text, r.entity2.text): r.score for r in ex.extract(text)}
    assert scored["new"].keys() == scored["in"].keys() and len(scored["new"]) >= 4
    assert scored["new"] != scored["in"]
    assert all(0.0 <= v <= 1.0 for v in scored["in"].values())


def test_help_paragraphs_reflow_to_the_terminal_and_name_the_options() -> None:
    import re

    from relx.app.cli import app

    r = CliRunner().invoke(app, ["extract", "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert r.exit_code == 0, r.output
    text = re.sub(r"\x1b\[[0-9;]*m", "", r.output)
    # one docstring paragraph is one line at this width, not broken where the source breaks
    assert ("Writes one output per input file under --out (atomically), then "
            "gene_relations.jsonl (one relation per line; relations.jsonl with --task ppi") in text
    assert "Extract document-level gene relations (with --task ppi" in text
    assert "**" not in text and "[bold]" not in text
    assert "NUMBER|in-domain" in text


@pytest.mark.slow
def test_given_gene_ids_stay_first_and_reach_pubtator_output(tmp_path: Path) -> None:
    """A PubTator input's own gene ids stay the entities' first ids, namespaced (the
    lexicon's follow), so PubTator output names relations by the input's concept ids."""
    inp = tmp_path / "in"
    inp.mkdir()
    shutil.copy(FIXTURES / "fmt-pubtator.txt", inp / "genes.pubtator")
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                 str(inp), "--out", str(out), "--format",
                                 "pubtator", "--threshold", "0", "--quiet"])
    assert r.exit_code == 0, r.output
    rels = _relations(out)
    ents = {e["text"]: e["norm_ids"] for rel in rels for e in (rel["entity1"], rel["entity2"])}
    assert ents["TP53"][:2] == ["NCBIGene:7157", "HGNC:11998"]
    assert ents["MDM2"][0] == "NCBIGene:4193"
    rows = [x.split("\t") for x in (out / "pubtator" / "genes.pubtator.pubtator").read_text()
            .splitlines() if x.count("\t") >= 3]
    lines = [r for r in rows if not r[1].isdigit()]   # relation lines (+ score, flags)
    # the NCBI Gene ids as PubTator writes them: bare GeneIDs
    assert lines and all(a.isdigit() and b.isdigit() for _, _, a, b, *_ in lines)
    from relx.ids import is_directed_type

    # once per pair and type (a directed type: once per direction, the agent first)
    keys = {(t, a, b) if is_directed_type(t) else (t, *sorted((a, b)))
            for _, t, a, b, *_ in lines}
    assert len(keys) == len(lines)


@pytest.mark.slow
def test_negated_pairs_are_flagged(extractor) -> None:
    """``negated``: the learnt cue-and-scope detector (relx.learn.hedging) - "not" off the
    path between the two proteins (which the path-only flag missed, issue 31); the score
    ignores it (the pair may still be reported), the flag tells the reader."""
    import relx

    text = ("In contrast, the phosphatase SHP-1 dephosphorylates JAK3. We did not detect any "
            "interaction between SHP-1 and STAT5.")
    ex = relx.load(task="ppi", threshold=0.0)
    got = {(r.entity1.text, r.entity2.text): r.negated for r in ex.extract(text)}
    assert got[("SHP-1", "STAT5")] is True and got[("SHP-1", "JAK3")] is False
    reported = {(r.entity1.text, r.entity2.text) for r in extractor.extract(text)}
    assert ("SHP-1", "STAT5") in reported   # flagged, not dropped: the score decides


def test_pairs_that_cannot_pass_skip_the_kernel_member_and_the_rest_score_as_before(
        extractor, monkeypatch) -> None:
    import numpy as np

    from relx.ppi.extract import Extractor
    from relx.ppi.model import _has_kernel

    model = extractor.model
    assert any(_has_kernel(e) for e in model.pipeline.steps[-1][1].estimators_)
    calls: list = []
    scores_above = model.scores_above
    monkeypatch.setattr(model, "scores_above", lambda inst, below: (
        calls.append((list(inst), below)) or scores_above(inst, below)))
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.txt"))]
    reported = [r for t in texts for r in Extractor(model).extract(t)]
    assert calls and reported
    n_settled = 0
    for inst, below in calls:
        assert below == model.threshold
        q, full = scores_above(inst, below), model.scores(inst)
        settled = np.isnan(q)
        n_settled += int(settled.sum())
        np.testing.assert_array_equal(q[~settled], full[~settled])   # bit for bit
        assert (full[settled] <= below).all()                        # none could be reported
    assert 0 < n_settled < sum(len(inst) for inst, _ in calls)
