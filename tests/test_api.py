"""The public API: ``relx.load(task=...)``, every input kind ``extract`` and ``pipe`` take,
ids kept, results streamed in input order (also over worker processes), thread limits, the
lazily imported names of ``relx``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES

import relx
from relx.api import as_documents, limited_threads
from relx.doc import Document
from relx.model_store import models_dir

SAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "abstracts"
TEXTS = ["Activated JAK1 phosphorylates STAT5, and SOCS3 inhibits JAK1.",
         "No proteins are named here.",
         "IL-2 induces the phosphorylation of STAT5 in T cells, and STAT5 binds CIS."]

needs_models = pytest.mark.skipif(
    not all((models_dir() / m / "meta.json").exists()
            for m in ("ppi-default", "ge-events", "relx_bio_sm")),
    reason="shipped models missing")


# --- inputs (no models needed) --------------------------------------------------------------
def test_every_input_kind_becomes_documents_with_ids(tmp_path: Path) -> None:
    assert [d.id for d in as_documents("one text")] == ["text"]
    assert [(d.id, d.text) for d in as_documents(["a b", "c d"])] == [("text-1", "a b"),
                                                                      ("text-2", "c d")]
    assert [(d.id, d.text) for d in as_documents(("pmid-7", "x y"))] == [("pmid-7", "x y")]
    assert [d.id for d in as_documents([("p1", "x"), ("p2", "y")])] == ["p1", "p2"]
    doc = Document(id="mine", text="JAK1.")
    assert list(as_documents(doc)) == [doc] and list(as_documents([doc, doc])) == [doc, doc]
    # strings count among themselves; other items keep their own ids
    assert [d.id for d in as_documents(["x", ("p", "y"), "z", doc])] == \
        ["text-1", "p", "text-2", "mine"]
    (tmp_path / "abs-1.txt").write_text("JAK1 binds STAT5.", encoding="utf-8")
    assert [d.id for d in as_documents(tmp_path / "abs-1.txt")] == ["abs-1"]
    assert [d.id for d in as_documents(iter([tmp_path / "abs-1.txt", "t"]))] == \
        ["abs-1", "text-1"]


def test_a_string_is_text_even_when_a_file_of_that_name_exists(tmp_path: Path,
                                                               monkeypatch) -> None:
    (tmp_path / "abs.txt").write_text("JAK1 binds STAT5.", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert [(d.id, d.text) for d in as_documents("abs.txt")] == [("text", "abs.txt")]


def test_unusable_inputs_are_refused_with_their_type() -> None:
    with pytest.raises(TypeError, match="int"):
        list(as_documents(3))
    with pytest.raises(TypeError, match="int"):
        list(as_documents(["text", 3]))


@pytest.mark.parametrize(("source", "says"), [
    (b"JAK1 binds STAT5.", r"bytes: decode it"),
    (bytearray(b"JAK1"), r"bytearray: decode it"),
    ({"p1": "JAK1 binds STAT5."}, r"dict: give its \(id, text\) pairs"),
    ({"JAK1 binds STAT5."}, r"set: a set has no order"),
    (None, r"NoneType"),
    (["JAK1.", "STAT5.", b"SOCS3."], r"^input item 2 \(counting from 0\): .*bytes"),
    ([("p1", "JAK1."), ("p2", 7)], r"^input item 1 .*tuple of 2 items"),
    (iter(["JAK1.", None]), r"^input item 1 .*NoneType"),
])
def test_each_unusable_input_says_what_to_give_and_where(source, says) -> None:
    with pytest.raises(TypeError, match=says):
        list(as_documents(source))


def test_limited_threads_sets_and_restores_numba_and_blas() -> None:
    import numba
    from threadpoolctl import threadpool_info

    before = numba.get_num_threads()
    with limited_threads(1):
        assert numba.get_num_threads() == 1
        assert all(p["num_threads"] == 1 for p in threadpool_info())
    assert numba.get_num_threads() == before


def test_settle_heap_exempts_what_is_alive_and_still_collects_new_cycles() -> None:
    """In a fresh process (it changes the process's collector): objects alive at the call
    leave the collector's generations; cyclic garbage made afterwards is still freed."""
    import subprocess
    import sys

    code = """
import gc, weakref
from relx.api import GC_YOUNG_THRESHOLD, settle_heap
kept = [[i] for i in range(1000)]
settle_heap()
assert gc.get_freeze_count() >= 1000, gc.get_freeze_count()
assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
gone = weakref.ref(a)
del a, b
gc.collect()
assert gone() is None, "a cycle made after settle_heap was not collected"
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.slow
def test_a_worker_settles_its_heap_and_warms_up_only_for_a_second_chunk(tmp_path: Path
                                                                        ) -> None:
    """In a fresh process: a batch worker's heap settles once its extractor is loaded; a
    one-chunk run of a human sentence loads no other species' lexicon (no warm-up); before
    the process's second chunk the warm-up loads the other species' lexicons and the
    ortholog table, so the collector's full collections skip them too."""
    import subprocess
    import sys

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.txt").write_text("Activated JAK1 phosphorylates STAT5.\n")
    code = f"""
import gc
from pathlib import Path
from relx.app.batch import run_batch
from relx.app.batch.plan import BatchOptions
from relx.genes.document import default_grounder
from relx.genes.orthologs import default_orthologs
tmp = Path({str(tmp_path)!r})
run_batch([tmp / "a.txt"], BatchOptions(out=str(tmp / "one")))
assert gc.get_freeze_count() > 100_000, gc.get_freeze_count()
assert default_grounder()._species is None
assert default_orthologs()._from_human is None
run_batch([tmp / "b.txt", tmp / "c.txt"], BatchOptions(out=str(tmp / "two")))
assert default_grounder()._species is not None
assert default_orthologs()._from_human is not None
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "ok"


def test_warm_up_leaves_an_object_without_extract_alone() -> None:
    from relx.api import WARM_UP_TEXT, warm_up

    seen: list[str] = []

    class Runs:
        def extract(self, text: str) -> None:
            seen.append(text)

    warm_up(object())
    warm_up(Runs())
    assert seen == [WARM_UP_TEXT]


def test_lazy_names_and_all() -> None:
    assert relx.Document is Document
    from relx.ge.extract import EventExtractor
    from relx.io.registry import read, write
    from relx.ppi.extract import Extractor
    from relx.ppi.gene_relations import GeneRelation, GeneRelationExtractor

    assert (relx.Extractor, relx.EventExtractor, relx.read, relx.write) == \
        (Extractor, EventExtractor, read, write)
    assert (relx.GeneRelationExtractor, relx.GeneRelation) == (GeneRelationExtractor,
                                                               GeneRelation)
    assert set(relx.__all__) <= set(dir(relx)) | {"__version__"}
    assert all(hasattr(relx, n) for n in relx.__all__)
    with pytest.raises(AttributeError):
        relx.no_such_name  # noqa: B018
    with pytest.raises(ValueError, match="task"):
        relx.load(task="ner")


# --- the shipped models ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def ppi():
    return relx.load(task="ppi")


@pytest.fixture(scope="module")
def events():
    return relx.load(task="events")


def _dump(results) -> list[dict]:
    return [r.model_dump() for r in results]


def _renamed(results, doc_id: str) -> list[dict]:
    """The results as if their document were called "text" (sentence and entity ids start
    with the document id)."""
    text = json.dumps(_dump(results)).replace(f'"{doc_id}"', '"text"')
    return json.loads(text.replace(f'"{doc_id}.', '"text.'))


@pytest.fixture(scope="module")
def genes():
    return relx.load()


@pytest.mark.slow
@needs_models
def test_load_gives_gene_relations_by_default_with_the_jsonl_records_shape(genes) -> None:
    """``relx.load()`` is task gene-relations (:data:`relx.tasks.DEFAULT_TASK`, as ``relx
    extract``): on a bundled sample abstract, the records ``gene_relations.jsonl`` has."""
    from relx.errors import ConfigError
    from relx.tasks import DEFAULT_TASK

    assert DEFAULT_TASK == "gene-relations"
    assert isinstance(genes, relx.GeneRelationExtractor)
    text = (SAMPLES / "p53-mdm2.txt").read_text(encoding="utf-8")
    found = genes.extract(("p53-mdm2", text))
    assert found and all(isinstance(r, relx.GeneRelation) for r in found)
    pairs = {frozenset((r.gene1.id, r.gene2.id)): r for r in found}
    mdm2_p53 = pairs[frozenset(("4193", "7157"))]           # MDM2 binds p53
    assert mdm2_p53.document_id == "p53-mdm2" and mdm2_p53.type_scheme == "BioRED"
    assert mdm2_p53.probability >= mdm2_p53.threshold and len(mdm2_p53.evidence) > 1
    assert "NCBIGene:4193" in (mdm2_p53.gene1.ids + mdm2_p53.gene2.ids)
    best = mdm2_p53.evidence[0]
    assert best.sentence == text[best.start:best.end] and best.gene1_mention
    rec = json.loads(mdm2_p53.model_dump_json())
    assert {"document_id", "gene1", "gene2", "probability", "threshold", "type", "novel",
            "novel_probability", "type_probability", "evidence", "event_type", "direction",
            "model", "model_version"} <= set(rec)
    assert [r.model_dump() for r in genes.extract(Document(id="p53-mdm2", text=text))] == \
        [r.model_dump() for r in found]
    with pytest.raises(ConfigError, match="task ppi"):   # ppi's options are refused, not lost
        relx.load(threshold=0.5, warm_up=False)


@pytest.mark.slow
@needs_models
def test_load_task_gives_each_tasks_extractor(ppi, events) -> None:
    assert isinstance(ppi, relx.Extractor) and isinstance(events, relx.EventExtractor)
    assert ppi.parser._nlp is not None    # warmed up: the parse pipeline is loaded


@needs_models
@pytest.mark.parametrize("task", ["ppi", "events"])
def test_every_input_kind_gives_the_same_results_under_its_id(task, ppi, events,
                                                              tmp_path: Path) -> None:
    ex = ppi if task == "ppi" else events
    text = TEXTS[0] if task == "ppi" else TEXTS[2]
    one = ex.extract(text)
    assert one and {r.document_id for r in one} == {"text"}

    def same_as_one(results, doc_id: str) -> None:
        assert {r.document_id for r in results} == {doc_id}
        assert _renamed(results, doc_id) == _dump(one)

    same_as_one(ex.extract(Document(id="d-9", text=text)), "d-9")
    same_as_one(ex.extract(("pmid-1", text)), "pmid-1")
    (tmp_path / "abs-5.txt").write_text(text, encoding="utf-8")
    same_as_one(ex.extract(tmp_path / "abs-5.txt"), "abs-5")
    several = ex.extract(["No proteins are named here.", text])
    same_as_one(several, "text-2")
    pairs = ex.extract([("a", text), ("b", text)])
    assert [r.document_id for r in pairs] == ["a"] * len(one) + ["b"] * len(one)
    docs = ex.extract(iter([Document(id="x", text=text)]))
    same_as_one(docs, "x")


@needs_models
@pytest.mark.parametrize("task", ["ppi", "events"])
def test_pipe_streams_one_list_per_document_in_order(task, ppi, events) -> None:
    ex = ppi if task == "ppi" else events
    items = [(f"d{i}", TEXTS[i % 3]) for i in range(7)]
    streamed = list(ex.pipe(items, batch_size=2))
    assert len(streamed) == 7
    for (doc_id, text), found in zip(items, streamed, strict=True):
        assert all(r.document_id == doc_id for r in found)
        assert _dump(found) == _dump(ex.extract((doc_id, text)))
    assert streamed[1] == [] and streamed[0]    # a text without proteins gives nothing


@pytest.mark.slow
@needs_models
def test_results_do_not_depend_on_the_thread_limit(ppi) -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.txt"))]
    limited = _dump(ppi.extract(texts))
    ppi.threads = None
    try:
        free = _dump(ppi.extract(texts))
    finally:
        ppi.threads = 1
    assert limited and limited == free


@needs_models
@pytest.mark.slow
def test_pipe_over_worker_processes_keeps_order_and_results(ppi) -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.txt"))]
    items = [(f"a{i}", t) for i, t in enumerate(texts * 2)]
    serial = [_dump(f) for f in ppi.pipe(items, batch_size=2)]
    parallel = [_dump(f) for f in ppi.pipe(items, batch_size=2, n_process=2)]
    assert parallel == serial and any(serial)


@needs_models
def test_given_proteins_of_a_document_are_used(ppi) -> None:
    docs = list(relx.read(FIXTURES / "st-mini.txt"))
    found = ppi.extract(docs)
    given = {e.id for s in docs[0].sentences for e in s.entities}
    assert all({r.entity1.id, r.entity2.id} <= given for r in found)


class _NotAllowed:
    """A type no relx allow-list names."""

    def __init__(self) -> None:
        self.x = 1


def test_a_model_with_an_untrusted_type_is_refused(tmp_path: Path) -> None:
    import skops.io as sio

    from relx.model_store import ModelError
    from relx.ppi.model import FORMAT_VERSION, load_model

    (tmp_path / "meta.json").write_text(json.dumps({"format_version": FORMAT_VERSION}),
                                        encoding="utf-8")
    (tmp_path / "config.toml").write_text("[pipeline]\nname = \"x\"\n", encoding="utf-8")
    sio.dump({"step": _NotAllowed()}, tmp_path / "pipeline.skops")
    with pytest.raises(ModelError, match="_NotAllowed"):
        load_model(tmp_path)


@needs_models
@pytest.mark.parametrize(("model", "file", "damage"), [
    ("ppi-default", "pipeline.skops", "truncate"),
    ("ppi-default", "pipeline.skops", "flip"),
    ("ppi-default", "meta.json", "truncate"),
    ("ppi-default", "config.toml", "garble"),
    ("ppi-default", "calibration.json", "truncate"),
    ("ge-events", "models.skops", "truncate"),
    ("ge-events", "meta.json", "garble"),
])
@pytest.mark.slow
def test_a_damaged_model_file_is_a_model_error_naming_it(tmp_path: Path, model: str,
                                                         file: str, damage: str) -> None:
    import shutil

    from relx.model_store import ModelError

    folder = tmp_path / model
    shutil.copytree(models_dir() / model, folder)
    path = folder / file
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "flip":   # corrupt the middle of the zip: a bad CRC or deflate stream
        mid = len(data) // 2
        path.write_bytes(data[:mid] + bytes(b ^ 0xFF for b in data[mid:mid + 4096])
                         + data[mid + 4096:])
    else:
        path.write_bytes(b"\x00not [valid = {" + data[:20])
    task = "events" if model == "ge-events" else "ppi"
    with pytest.raises(ModelError, match=rf"{path.name}: cannot read this .* file, it is "
                                         r"damaged") as info:
        relx.load(str(folder), task=task, types=False, warm_up=False)
    assert str(path) in str(info.value)
