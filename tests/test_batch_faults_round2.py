"""Fault injection, round 2 (issue 40): failures that are not the input's fault, output
keys, the report, the disk. Each test breaks one thing and checks the exit code, the
message and that every good document's relations end up in ``relations.jsonl`` exactly
once (as the extractor finds them on its own)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from relx.app.cli import app
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

    return relx.load(task="ppi", ground=False)


def _run(*args: str) -> object:
    return CliRunner().invoke(app, ["extract", "--task", "ppi", *args, *QUIET])


def _relations(out: Path) -> list[str]:
    return sorted((out / "relations.jsonl").read_text(encoding="utf-8").splitlines())


def _expected(extractor, paths) -> list[str]:
    docs = [d for p in paths for d in read(p)]
    return sorted(r.model_dump_json() for r in extractor.extract(docs))


def _inputs(tmp_path: Path, n: int = 2) -> Path:
    inp = tmp_path / "in"
    inp.mkdir()
    for f in SAMPLES[:n]:
        shutil.copy(f, inp / f.name)
    return inp


@pytest.mark.slow
def test_a_broken_spacy_model_stops_before_any_work(tmp_path: Path, extractor) -> None:
    """3, 13: a missing or damaged --spacy-model is exit 2 before work, nothing marked
    done; the rerun with a good pipeline does every input."""
    inp = _inputs(tmp_path)
    out = tmp_path / "out"
    broken = tmp_path / "broken-pipeline"
    shutil.copytree(models_dir() / "relx_bio_sm", broken)
    (broken / "config.cfg").write_text("[nlp\nbroken")
    for model in (str(tmp_path / "no-such-pipeline"), str(broken)):
        r = _run(str(inp), "--out", str(out), "--spacy-model", model)
        assert r.exit_code == 2, r.output
        assert "--spacy-model" in r.output and Path(model).name in r.output
        assert not (out / ".done").exists() or not any((out / ".done").iterdir())
    r = _run(str(inp), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert _relations(out) == _expected(extractor, sorted(inp.iterdir()))


def test_a_damaged_event_model_is_named_before_any_work(tmp_path: Path) -> None:
    """12: the typed pass's event model is checked up front; the message names it."""
    inp = _inputs(tmp_path, 1)
    model = tmp_path / "events"
    shutil.copytree(models_dir() / "ge-events", model)
    victim = sorted(model.glob("*.skops"))[0]
    victim.write_bytes(b"PK\x03\x04broken")
    r = _run(str(inp), "--out", str(tmp_path / "out"), "--event-model", str(model))
    assert r.exit_code == 2, r.output
    assert victim.name in r.output and "event model" in r.output and "--no-types" in r.output
    assert not (tmp_path / "out" / ".done").exists()


@pytest.mark.slow
def test_a_file_name_too_long_for_an_output_key(tmp_path: Path, extractor) -> None:
    """5: a legal 249-byte file name gets a bounded key; the batch and its rerun finish."""
    inp = _inputs(tmp_path, 1)
    long = inp / ("x" * 245 + ".txt")
    shutil.copy(SAMPLES[1], long)
    out = tmp_path / "out"
    for _ in range(2):
        r = _run(str(inp), "--out", str(out))
        assert r.exit_code == 0, r.output
    keys = [p.name for p in (out / "jsonl").iterdir()]
    assert all(len(k.encode()) <= 255 for k in keys) and len(keys) == 2
    assert _relations(out) == _expected(extractor, sorted(inp.iterdir()))


@pytest.mark.slow
def test_adding_an_input_from_another_folder_keeps_every_key(tmp_path: Path) -> None:
    """7: keys are relative to each input argument, so a rerun with one more input redoes
    nothing that was done."""
    inp = _inputs(tmp_path, 2)
    other = tmp_path / "elsewhere" / "deep"
    other.mkdir(parents=True)
    shutil.copy(SAMPLES[2], other / "extra.txt")
    out = tmp_path / "out"
    assert _run(str(inp), "--out", str(out)).exit_code == 0
    before = sorted(p.name for p in (out / "jsonl").iterdir())
    r = CliRunner().invoke(app, ["extract", "--task", "ppi",
                                 str(inp), str(other / "extra.txt"), "--out",
                                 str(out), "--no-ground"])
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["inputs_skipped_as_done"] == 2
    assert sorted(p.name for p in (out / "jsonl").iterdir()) == sorted([*before,
                                                                        "extra.txt.jsonl"])


def test_an_unwritable_report_is_refused_before_any_work(tmp_path: Path) -> None:
    """14: --report that cannot be written: exit 2 before the batch runs."""
    inp = _inputs(tmp_path, 1)
    out = tmp_path / "out"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for report in (tmp_path, blocker / "report.html"):     # a folder; under a file
        r = _run(str(inp), "--out", str(out), "--report", str(report))
        assert r.exit_code == 2 and "--report" in r.output, r.output
        assert not (out / ".done").exists()


def _limited(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # EFBIG instead of a kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.slow
def test_a_full_disk_mid_batch_names_the_file_and_resumes(tmp_path: Path, extractor) -> None:
    """11: a write that fails mid-run (the file-size limit stands in for a full disk):
    exit 1, the file named, how to resume; the rerun completes the batch exactly."""
    inp = _inputs(tmp_path, 3)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "relx.app.cli", "extract", "--task", "ppi", str(inp),
           "--out", str(out), *QUIET, "--format", "tsv"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600,
                         preexec_fn=_limited(1500))
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert "rerun the same command" in res.stderr and str(out) in res.stderr
    assert "Traceback" not in res.stderr
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert _relations(out) == _expected(extractor, sorted(inp.iterdir()))


def _cli(*args: str, stdin=None, pass_fds=(), timeout: int = 600):
    cmd = [sys.executable, "-m", "relx.app.cli", "extract", "--task", "ppi", *args, *QUIET]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(cmd, stdin=stdin, capture_output=True, text=True, env=env,
                          timeout=timeout, pass_fds=pass_fds)


@pytest.mark.slow
def test_piped_input_is_read_once(tmp_path: Path, extractor) -> None:
    """4: `cat a.txt | relx extract -` and process substitution (/dev/fd/N) read the
    stream once (spooled), format detected from its content."""
    sample = SAMPLES[0]
    with open(sample, "rb") as fh:
        res = _cli("-", "--out", str(tmp_path / "stdin"), stdin=fh)
    assert res.returncode == 0, res.stderr
    r, w = os.pipe()
    with os.fdopen(w, "wb") as writer:
        writer.write(sample.read_bytes())
    try:
        res = _cli(f"/dev/fd/{r}", "--out", str(tmp_path / "fd"), pass_fds=(r,))
    finally:
        os.close(r)
    assert res.returncode == 0, res.stderr
    want = [json.loads(x) for x in _expected(extractor, [sample])]
    for out in (tmp_path / "stdin", tmp_path / "fd"):
        got = [json.loads(x) for x in _relations(out)]
        strip = lambda rs: sorted((x["sentence_start"], x["entity1"]["start"],  # noqa: E731
                                   x["entity2"]["start"], x["score"]) for x in rs)
        assert strip(got) == strip(want) and got


def test_a_fifo_without_a_writer_is_refused_not_a_hang(tmp_path: Path, monkeypatch) -> None:
    """8: a named pipe no one writes to: exit 2 with a clear message within the wait."""
    from relx.io import source

    monkeypatch.setattr(source, "WRITER_WAIT_SECONDS", 1.0)
    fifo = tmp_path / "a.txt"
    os.mkfifo(fifo)
    r = _run(str(fifo), "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "pipe" in r.output, r.output
