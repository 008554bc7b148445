"""spaCy integration, each check in a fresh Python process that never imports relx itself:
``spacy.load`` of relx's pipeline finds its factories through entry points, and
``nlp.add_pipe("relx_ppi")`` / ``("relx_events")`` give the same results as the relx API on
the same text. (The entry points exist once relx is installed: ``pip install -e .`` or the
wheel.)"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points

import pytest

from relx.model_store import models_dir

PIPELINE = models_dir() / "relx_bio_sm"
if not all((models_dir() / m / "meta.json").exists()
           for m in ("ppi-default", "ge-events", "relx_bio_sm")):
    pytest.skip("shipped models missing", allow_module_level=True)

FACTORIES = {"pysbd_sentencizer", "abbreviation_detector", "relx_sentencizer",
             "relx_pos_lemma", "relx_ppi", "relx_events"}


def _run(code: str) -> dict:
    """Run ``code`` in a new interpreter; it prints one JSON object as its last line."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_relx_declares_its_factories_as_spacy_entry_points() -> None:
    declared = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert FACTORIES <= set(declared), "reinstall relx (pip install -e .) to register them"
    assert declared["relx_ppi"] == "relx.app.spacy_components:make_relx_ppi"


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
        ppi, events = relx.load(), relx.load(task="events")
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
