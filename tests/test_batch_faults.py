"""Fault injection for `relx extract` batches: one test per fault class of issue 29.

Each test breaks one thing (a corrupt gzip, an id a format cannot hold, two inputs with
one name, a changed input, a second run, a killed worker, a decompression bomb, a huge
sentence, bad options) and checks that the batch still finishes with every good document's
relations in ``relations.jsonl`` exactly once: the same relations, one each, as the
extractor finds in those documents on its own.
"""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from relx.app.cli import app
from relx.doc import Document
from relx.io.registry import read
from relx.model_store import models_dir
from relx.ppi.model import DEFAULT_MODEL

if not (models_dir() / DEFAULT_MODEL / "meta.json").exists():
    pytest.skip("shipped model models/ppi-default missing", allow_module_level=True)

SAMPLES = sorted((ROOT / "corpora" / "abstracts").glob("*.txt"))
QUIET = ["--quiet", "--no-ground"]


@pytest.fixture(scope="module")
def extractor():
    import relx

    return relx.load(task="ppi", ground=False)   # typed, as relx extract


def _texts() -> list[tuple[str, str]]:
    """(title, abstract) of relx's sample abstracts."""
    out = []
    for f in SAMPLES:
        title, _, abstract = f.read_text(encoding="utf-8").strip().partition("\n")
        out.append((title.strip(), " ".join(abstract.split())))
    return out


def _pubtator(docs: list[tuple[str, str, str]]) -> str:
    return "".join(f"{i}|t|{t}\n{i}|a|{a}\n\n" for i, t, a in docs)


def _relations(out: Path) -> list[str]:
    """The merged relations, one JSON line each, sorted."""
    return sorted((out / "relations.jsonl").read_text(encoding="utf-8").splitlines())


def _expected(extractor, docs: list[Document]) -> list[str]:
    """What the extractor finds in ``docs`` on its own, sorted."""
    return sorted(r.model_dump_json() for r in extractor.extract(docs))


def _errors(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]


def _run(*args: str) -> object:
    return CliRunner().invoke(app, ["extract", "--task", "ppi", *args, *QUIET])


@pytest.mark.slow
def test_corrupt_gzip_costs_only_its_input(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    texts = _texts()
    (inp / "good.pubtator").write_text(_pubtator([(f"g{k}", *t) for k, t in
                                                  enumerate(texts[:3])]))
    data = bytearray(gzip.compress(_pubtator([(f"c{k}", *t) for k, t in
                                              enumerate(texts)]).encode()))
    data[12:40] = bytes(b ^ 0xFF for b in data[12:40])     # break the deflate stream
    (inp / "corrupt.pubtator.gz").write_bytes(bytes(data))
    with gzip.open(inp / "cut.jsonl.gz", "wb") as fh:        # truncated mid-stream
        fh.write(b'{"id": "x", "text": "JAK1 binds STAT5."}\n')
    (inp / "cut.jsonl.gz").write_bytes((inp / "cut.jsonl.gz").read_bytes()[:-12])
    out = tmp_path / "out"
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 3, r.output
    errors = _errors(out)
    assert {Path(e["input"]).name for e in errors} == {"corrupt.pubtator.gz", "cut.jsonl.gz"}
    assert all(e["stage"] == "read" for e in errors)
    assert _relations(out) == _expected(extractor, list(read(inp / "good.pubtator")))
    # the rerun does not abort either, and skips what is done
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 3 and _errors(out) == errors


@pytest.mark.slow
def test_ids_a_format_cannot_hold_are_written_safely(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    docs = [Document(id=i, text=f"{t}\n{a}") for i, (t, a) in
            zip(["pm|1", "pm\x012", "pm3"], _texts()[:3], strict=True)]
    (inp / "docs.jsonl").write_text("".join(d.model_dump_json() + "\n" for d in docs))
    out = tmp_path / "out"
    r = _run(str(inp), "--out", str(out), "--format", "pubtator", "--format", "bioc",
             "--format", "tsv")
    assert r.exit_code == 0, r.output
    assert _relations(out) == _expected(extractor, docs)
    assert {json.loads(x)["document_id"] for x in _relations(out)} <= {"pm|1", "pm\x012", "pm3"}
    heads = [x.split("|")[0] for x in (out / "pubtator" / "docs.jsonl.pubtator").read_text()
             .splitlines() if "|t|" in x]
    assert heads == ["pm_1", "pm\x012", "pm3"]      # PubTator: only | tab newline break it
    from relx.io.bioc import read_bioc

    bioc = list(read_bioc(out / "bioc" / "docs.jsonl.xml"))
    assert [d.id for d in bioc] == ["pm|1", "pm_2", "pm3"]
    assert '<infon key="original_id">pm\\u00012</infon>' in \
        (out / "bioc" / "docs.jsonl.xml").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["renamed_ids"] == 2 and summary["errors"] == 0


@pytest.mark.slow
def test_inputs_with_one_name_never_share_outputs(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    (inp / "a").mkdir(parents=True)
    texts = [f.read_text(encoding="utf-8") for f in SAMPLES[:2]]
    (inp / "a" / "b.txt").write_text(texts[0])
    (inp / "a__b.txt").write_text(texts[1])
    out = tmp_path / "out"
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (out / "jsonl").iterdir()) == ["a%2Fb.txt.jsonl",
                                                                "a__b.txt.jsonl"]
    docs = [d for p in (inp / "a" / "b.txt", inp / "a__b.txt") for d in read(p)]
    assert _relations(out) == _expected(extractor, docs)


@pytest.mark.slow
def test_changed_input_is_redone_and_its_old_error_cleared(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    a, b = inp / "a.txt", inp / "b.txt"
    a.write_text(SAMPLES[0].read_text(encoding="utf-8"))
    b.write_bytes("Prot\xe9ine kinase C binds p53.".encode("latin-1"))
    out = tmp_path / "out"
    assert _run(str(inp), "--out", str(out)).exit_code == 3
    assert [Path(e["input"]).name for e in _errors(out)] == ["b.txt"]
    b.write_text(SAMPLES[1].read_text(encoding="utf-8"))        # fixed
    os.utime(a)                                                # touched, same bytes
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["inputs_skipped_as_done"] == 1 and _errors(out) == []
    a.write_text(SAMPLES[2].read_text(encoding="utf-8"))        # same name, new text
    assert _run(str(inp), "--out", str(out)).exit_code == 0
    assert _relations(out) == _expected(extractor, [*read(a), *read(b)])


@pytest.mark.slow
def test_a_second_run_on_the_same_folder_is_refused(tmp_path: Path, extractor) -> None:
    from relx.app.batch import batch_lock

    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "a.txt").write_text(SAMPLES[0].read_text(encoding="utf-8"))
    out = tmp_path / "out"
    (out / "jsonl").mkdir(parents=True)
    (out / "jsonl" / ".a.txt.jsonl.x1y2.tmp").write_text("left by a killed run")
    with batch_lock(out):                        # another run holds the folder
        r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 2 and "in use by another relx extract" in " ".join(r.output.split())
    assert not (out / ".done").exists()
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert not list(out.rglob("*.tmp"))
    assert _relations(out) == _expected(extractor, list(read(inp / "a.txt")))


@pytest.mark.slow
def test_a_killed_worker_costs_only_its_chunk(tmp_path: Path, extractor) -> None:
    import psutil

    from relx.app.batch import BatchOptions, list_inputs, run_batch

    inp = tmp_path / "in"
    inp.mkdir()
    docs = [(f"d{k}", *t) for k, t in enumerate(_texts() * 2)]
    (inp / "docs.pubtator").write_text(_pubtator(docs))
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.time() + 300
        while time.time() < deadline and not killed:
            chunks = list((out / ".done").glob("*/*.json")) if (out / ".done").exists() else []
            workers = [c for c in psutil.Process().children() if "spawn_main" in
                       " ".join(c.cmdline())]
            if chunks and workers:
                workers[0].kill()
                killed.append(workers[0].pid)
            time.sleep(0.05)

    watcher = threading.Thread(target=kill_one_worker, daemon=True)
    watcher.start()
    summary = run_batch(list_inputs([inp]), BatchOptions(out=str(out), ground=False,
                                                         chunk_size=1), jobs=2)
    watcher.join()
    assert killed and not psutil.pid_exists(killed[0])
    assert summary["errors"] == 0 and summary["documents"] == len(docs)
    assert _relations(out) == _expected(extractor, list(read(inp / "docs.pubtator")))
    assert not list(out.rglob("*.tmp"))


@pytest.mark.slow
def test_a_chunk_whose_worker_dies_twice_is_recorded_failed(tmp_path: Path) -> None:
    """Both tries of the only chunk die (every worker is killed as it starts): the chunk is an
    error of stage ``worker``, the batch still finishes and merges, and a rerun redoes it."""
    import psutil

    from relx.app.batch import BatchOptions, list_inputs, run_batch

    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "docs.pubtator").write_text(_pubtator([("d0", *_texts()[0])]))
    out = tmp_path / "out"
    killed: set[int] = set()

    def kill_workers_twice() -> None:
        record = out / ".done" / "docs.pubtator" / "00000.json"
        deadline = time.time() + 120
        while not record.exists() and time.time() < deadline:   # every worker, at once
            for w in psutil.Process().children():
                if w.pid not in killed and "spawn_main" in " ".join(w.cmdline()):
                    w.kill()
                    killed.add(w.pid)
            time.sleep(0.1)

    watcher = threading.Thread(target=kill_workers_twice, daemon=True)
    watcher.start()
    opts = BatchOptions(out=str(out), ground=False)
    summary = run_batch(list_inputs([inp]), opts, jobs=2)
    watcher.join()
    (e,) = _errors(out)
    assert e["stage"] == "worker" and "died" in e["error"] and len(killed) >= 2
    assert summary["inputs_failed"] == [str(inp / "docs.pubtator")]
    assert (out / "relations.jsonl").read_text() == ""
    summary = run_batch(list_inputs([inp]), opts)           # the rerun redoes the chunk
    assert summary["errors"] == 0 and summary["documents"] == 1


@pytest.mark.slow
def test_a_decompression_bomb_stops_at_the_cap(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    title, abstract = _texts()[0]
    good = _pubtator([("ok", title, abstract)])
    with gzip.open(inp / "bomb.pubtator.gz", "wb", compresslevel=9) as fh:
        fh.write(good.encode())
        fh.write(b"2|t|")
        for _ in range(64):                      # 64 MiB of one line, 64 KiB compressed
            fh.write(b"A" * (1 << 20))
    assert (inp / "bomb.pubtator.gz").stat().st_size < 1 << 20
    (inp / "fine.pubtator").write_text(_pubtator([("fine", *_texts()[1])]))
    out = tmp_path / "out"
    r = _run(str(inp), "--out", str(out), "--max-input-mb", "4")
    assert r.exit_code == 3, r.output
    (e,) = _errors(out)
    assert Path(e["input"]).name == "bomb.pubtator.gz" and "input larger than" in e["error"]
    docs = [*read(inp / "fine.pubtator"), Document(id="ok", text=f"{title}\n{abstract}",
                                                   source="pubtator")]
    assert _relations(out) == _expected(extractor, docs)


@pytest.mark.slow
def test_a_huge_sentence_is_capped_not_fatal(tmp_path: Path, extractor) -> None:
    names = ["JAK1", "JAK2", "STAT1", "STAT3", "STAT5", "SOCS1", "SOCS3", "IL-2", "IL-6",
             "TNF", "p53", "MDM2", "EGFR", "HER2", "GRB2", "SOS1", "KRAS", "RAF1", "MEK1",
             "ERK2", "AKT1", "PTEN", "MTOR", "BCL2", "BAX", "CASP3", "CASP9", "APAF1",
             "NFKB1", "RELA", "IKBKB", "TRAF6", "MYD88", "IRAK4", "TLR4", "CD14", "LCK",
             "ZAP70", "LAT", "VAV1"]
    words = []
    while len(words) < 3000:
        words += [names[len(words) % len(names)], "and", "the", "other", "factor", "bind",
                  "with", "several", "partners", ","]
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "huge.txt").write_text(" ".join(words[:3000]) + " .\n")
    (inp / "fine.txt").write_text(SAMPLES[0].read_text(encoding="utf-8"))
    out = tmp_path / "out"
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["skipped_sentences"] >= 1 and summary["skipped_pairs"] >= 100
    rec = json.loads((out / ".done" / "huge.txt.json").read_text())
    assert rec["skipped_pairs"] >= 100 and rec["seconds"] < 30
    assert [x for x in _relations(out) if '"document_id":"fine"' in x] == \
        _expected(extractor, list(read(inp / "fine.txt")))


@pytest.mark.slow
def test_bad_options_are_refused_before_any_work(tmp_path: Path, extractor) -> None:
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "bom.txt").write_bytes(b"\xef\xbb\xbf" + SAMPLES[0].read_bytes())
    out = tmp_path / "out"
    for bad, says in ((["--input-format", "nonsense"], "not a format relx reads"),
                      (["--threshold", "nan"], "a number"), (["--threshold", "inf"], "a number"),
                      (["--jobs", "-3"], "--jobs"), (["--chunk-size", "0"], "--chunk-size"),
                      (["--engine", "dask"], "--scheduler")):
        r = _run(str(inp), "--out", str(out), *bad)
        assert r.exit_code == 2 and says in r.output, (bad, r.output)
        assert not out.exists()
    # a damaged model names its file and says what to do
    import shutil

    for name, damage in (("meta.json", b"{not json"), ("pipeline.skops", b"PK\x03\x04broken")):
        model = tmp_path / f"model-{name}"
        shutil.copytree(models_dir() / DEFAULT_MODEL, model)
        (model / name).write_bytes(damage)
        r = _run(str(inp), "--out", str(out), "--model", str(model))
        assert r.exit_code == 2 and name in r.output and "reinstall" in r.output, r.output
    # --quiet with a failed input: one line on stderr and exit code 3
    (inp / "latin1.txt").write_bytes("Prot\xe9ine kinase C binds p53.".encode("latin-1"))
    r = _run(str(inp), "--out", str(out), "--jobs", "0")
    assert r.exit_code == 3 and "1 errors in 1 of 2 inputs" in r.output
    # a byte-order mark is not text
    rels = [json.loads(x) for x in _relations(out)]
    assert rels and all("\ufeff" not in x["entity1"]["text"] + x["sentence"] for x in rels)
    assert _relations(out) == _expected(extractor, list(read(inp / "bom.txt")))


@pytest.mark.parametrize("exc", [
    pytest.param("UntrustedTypes", id="ModelError-subclass"),
    pytest.param("ReaderError", id="ReaderError"),
    pytest.param("RunAborted", id="RunAborted")])
def test_an_error_crosses_a_worker_pipe_as_its_own_class(exc: str) -> None:
    """What a worker process sends back (``("fatal", error)``) is the error itself: its
    class, message and fields survive the pipe."""
    import multiprocessing as mp

    from relx.errors import ReaderError, RunAborted
    from relx.skops_reader import UntrustedTypes

    error = {"UntrustedTypes": UntrustedTypes("model.skops: untrusted types ['os.system']"),
             "ReaderError": ReaderError("a.xml", "line 3", "not well-formed", document="d1"),
             "RunAborted": RunAborted("out/x: No space left on device")}[exc]
    a, b = mp.get_context("spawn").Pipe()
    a.send(("fatal", error))
    kind, back = b.recv()
    assert type(back) is type(error) and str(back) == str(error)
    assert vars(back) == vars(error)


@pytest.mark.slow
def test_a_model_error_in_a_worker_process_stops_the_batch_as_itself(tmp_path: Path) -> None:
    """A model that fails in a ``--jobs`` worker (past the check before any work) ends the
    batch with the worker's ModelError, not a chunk error."""
    from relx.app.batch import BatchOptions, Schedule, make_plan, run_schedule
    from relx.errors import ModelError

    inp = tmp_path / "docs.pubtator"
    inp.write_text(_pubtator([("d0", *_texts()[0])]))
    plan = make_plan(BatchOptions(out=str(tmp_path / "out"), ground=False,
                                  model=str(tmp_path / "no-such-model")))
    with pytest.raises(ModelError, match="no-such-model"):
        list(run_schedule(Schedule([(inp, "docs.pubtator")], plan), jobs=2))
