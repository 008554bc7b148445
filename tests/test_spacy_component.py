"""spaCy integration, each check in a fresh Python process that never imports relx itself:
``spacy.load`` of relx's pipeline finds its factories through entry points, and
``nlp.add_pipe("relx")`` (the default task, gene relations) / ``("relx_ppi")`` /
``("relx_events")`` give the same results as the relx API on the same text. (The entry
points exist once relx is installed: ``pip install -e .`` or the wheel.)"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import entry_points

import pytest
from conftest import ROOT

from relx.model_store import models_dir

PIPELINE = models_dir() / "relx_bio_sm"
if not all((models_dir() / m / "meta.json").exists()
           for m in ("ppi-default", "ge-events", "relx_bio_sm")):
    pytest.skip("shipped models missing", allow_module_level=True)

FACTORIES = {"pysbd_sentencizer", "abbreviation_detector", "relx_sentencizer",
             "relx_pos_lemma", "relx_ppi", "relx_events"}
GENE_FACTORIES = {"relx", "relx_gene_relations"}
#: an install made before the gene relation factories lacks their entry points: the fresh
#: process then imports relx's components module first (``pip install -e .`` registers them)
_REGISTERED = GENE_FACTORIES <= {ep.name for ep in entry_points(group="spacy_factories")}
_GENE_IMPORT = "" if _REGISTERED else "import relx.app.spacy_components"


def _run(code: str) -> dict:
    """Run ``code`` in a new interpreter; it prints one JSON object as its last line."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_relx_declares_its_factories_as_spacy_entry_points() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    source = project["project"]["entry-points"]["spacy_factories"]
    assert FACTORIES | GENE_FACTORIES <= set(source)
    assert source["relx"] == "relx.app.spacy_components:make_relx"
    assert source["relx_gene_relations"] == \
        "relx.app.spacy_components:make_relx_gene_relations"
    declared = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert FACTORIES <= set(declared), "reinstall relx (pip install -e .) to register them"
    assert declared["relx_ppi"] == "relx.app.spacy_components:make_relx_ppi"
    if not _REGISTERED:
        pytest.skip("the installed relx predates the gene relation factories: "
                    "pip install -e . registers them")


def test_a_threshold_the_task_does_not_take_is_refused_before_loading() -> None:
    import spacy

    from relx.app import spacy_components  # noqa: F401  (the factories, whatever is installed)
    from relx.errors import ConfigError

    nlp = spacy.blank("en")
    with pytest.raises(ConfigError, match="threshold is not an option of task gene-relations"):
        nlp.add_pipe("relx", config={"threshold": 0.5})
    with pytest.raises(ConfigError, match="task events"):
        nlp.add_pipe("relx", config={"task": "events", "threshold": 0.5})


@pytest.mark.slow
def test_spacy_load_of_relx_pipeline_in_a_plain_process() -> None:
    out = _run(f"""
        import json, sys
        import spacy
        before = "relx" in sys.modules
        nlp = spacy.load({str(PIPELINE)!r})
        doc = nlp("STAT5 is phosphorylated by JAK1 in T cells. IL-2 (interleukin-2) binds.")
        print(json.dumps({{"pipes": nlp.pipe_names, "ents": [e.text for e in doc.ents],
                          "sents": len(list(doc.sents)),
                          "relx_before": before,
                          "via_entry_point": "relx.parse.factories" in sys.modules}}))
    """)
    assert out["pipes"][0] == "pysbd_sentencizer" and "abbreviation_detector" in out["pipes"]
    assert {"STAT5", "JAK1"} <= set(out["ents"]) and out["sents"] == 2
    assert not out["relx_before"] and out["via_entry_point"]


@pytest.mark.slow
def test_components_add_what_the_api_extracts() -> None:
    out = _run("""
        import json
        import spacy
        texts = ["Activated JAK1 phosphorylates STAT5, and SOCS3 inhibits JAK1.",
                 "No proteins here.",
                 "IL-2 induces the phosphorylation of STAT5 in T cells."]
        nlp = spacy.blank("en")
        nlp.add_pipe("relx_ppi")
        nlp.add_pipe("relx_events")
        one = nlp(texts[0])
        docs = []
        for i, t in enumerate(texts):
            d = nlp.make_doc(t)
            d.user_data["id"] = f"pmid-{i}"
            docs.append(d)
        piped = list(nlp.pipe(docs, batch_size=2))
        spans = [one.char_span(r.entity1.start, r.entity1.end).text for r in one._.relations]
        dump = lambda rs: [r.model_dump() for r in rs]
        got = {"one": dump(one._.relations), "spans": spans,
               "piped_rel": [dump(d._.relations) for d in piped],
               "piped_ev": [dump(d._.events) for d in piped]}
        import relx   # only now: the API's own results on the same texts
        ppi, events = relx.load(task="ppi"), relx.load(task="events")
        pairs = [(f"pmid-{i}", t) for i, t in enumerate(texts)]
        want = {"one": dump(ppi.extract(texts[0])),
                "piped_rel": [dump(f) for f in ppi.pipe(pairs)],
                "piped_ev": [dump(f) for f in events.pipe(pairs)]}
        print(json.dumps({"got": got, "want": want}))
    """)
    got, want = out["got"], out["want"]
    assert got["one"] and got["one"] == want["one"]
    assert got["spans"] == [r["entity1"]["text"] for r in got["one"]]
    assert got["piped_rel"] == want["piped_rel"] and got["piped_ev"] == want["piped_ev"]
    assert got["piped_rel"][0] and got["piped_rel"][1] == [] and got["piped_ev"][2]
    assert {r["document_id"] for r in got["piped_rel"][0]} == {"pmid-0"}


@pytest.mark.slow
def test_relation_component_on_relx_own_spacy_pipeline() -> None:
    out = _run(f"""
        import json
        import spacy
        nlp = spacy.load({str(PIPELINE)!r})
        nlp.add_pipe("relx_ppi", last=True)
        doc = nlp("Activated JAK1 phosphorylates STAT5, and SOCS3 inhibits JAK1.")
        print(json.dumps({{"ents": [e.text for e in doc.ents],
                          "pairs": [[r.entity1.text, r.entity2.text] for r in doc._.relations]}}))
    """)
    assert out["ents"] and ["SOCS3", "JAK1"] in out["pairs"]


@pytest.mark.slow
def test_the_default_component_puts_gene_relations_beside_the_pairs() -> None:
    out = _run(f"""
        import json
        import spacy
        {_GENE_IMPORT}
        texts = [open({str(ROOT / "corpora" / "abstracts" / "p53-mdm2.txt")!r}).read(),
                 "No proteins here."]
        nlp = spacy.blank("en")
        nlp.add_pipe("relx")                 # the default task: gene relations
        nlp.add_pipe("relx_ppi")
        docs = []
        for i, t in enumerate(texts):
            d = nlp.make_doc(t)
            d.user_data["id"] = f"pmid-{{i}}"
            docs.append(d)
        piped = list(nlp.pipe(docs))
        one = nlp(texts[0])
        dump = lambda rs: [r.model_dump(mode="json") for r in rs]
        got = {{"one": dump(one._.gene_relations), "pairs": dump(one._.relations),
               "piped": [dump(d._.gene_relations) for d in piped],
               "pipes": nlp.pipe_names}}
        import relx   # only now: the API's own results on the same texts
        genes, ppi = relx.load(), relx.load(task="ppi")
        want = {{"one": dump(genes.extract(texts[0])), "pairs": dump(ppi.extract(texts[0])),
                "piped": [dump(f) for f in genes.pipe([(f"pmid-{{i}}", t)
                                                       for i, t in enumerate(texts)])]}}
        print(json.dumps({{"got": got, "want": want}}))
    """)
    got, want = out["got"], out["want"]
    assert got["pipes"] == ["relx", "relx_ppi"]
    assert got["one"] and got["one"] == want["one"] and got["pairs"] == want["pairs"]
    assert got["piped"] == want["piped"] and got["piped"][1] == []
    genes = {frozenset((r["gene1"]["id"], r["gene2"]["id"])): r for r in got["one"]}
    assert frozenset(("4193", "7157")) in genes          # MDM2 -- p53, document-level
    assert all(r["document_id"] == "text" and r["type_scheme"] == "BioRED" and r["evidence"]
               for r in got["one"])
    assert {r["document_id"] for r in got["piped"][0]} == {"pmid-0"}
    assert any("gene1" not in r and "entity1" in r for r in got["pairs"])
