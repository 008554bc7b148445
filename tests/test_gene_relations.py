"""Document-level gene relations (issue 51): candidates and features, the pair/type/novelty
model's contract, its safe model folder, and the shipped extractor on a short text."""

from __future__ import annotations

import numpy as np
import pytest

from relx.model_store import models_dir
from relx.ppi.doc_features import FEATURES, candidates, masked_sentence
from relx.ppi.doc_model import DocRelationModel
from relx.ppi.doc_view import DocView, Mention, MentionPair

TEXT = ("JAK1 binds STAT5 in T cells. STAT5 then induces SOCS3. "
        "TP53 is unrelated here.")


def _view() -> DocView:
    s0, s1 = TEXT.index("STAT5 then"), TEXT.index("TP53")
    sentences = [(0, s0 - 1), (s0, s1 - 1), (s1, len(TEXT))]
    spans = [("JAK1", 0, "3716"), ("STAT5", 0, "6776"), ("STAT5 then", 1, "6776"),
             ("SOCS3", 1, "9021"), ("TP53", 2, "7157")]
    mentions = []
    for k, (word, sent, gid) in enumerate(spans):
        start = TEXT.index(word, sentences[sent][0])
        name = word.split()[0]
        mentions.append(Mention(f"T{k}", start, start + len(name), sent, (gid,)))
    pairs = [MentionPair("T0", "T1", 0, 0.9, 0.8, "Complex", 0.7),
             MentionPair("T2", "T3", 1, 0.6, 0.5, "Activation", 0.4)]
    return DocView("d1", TEXT, sentences, mentions, pairs)


def test_candidates_are_every_gene_id_pair_with_evidence_and_features():
    c = candidates(_view())
    assert c.keys == [("3716", "6776"), ("3716", "7157"), ("3716", "9021"),
                      ("6776", "7157"), ("6776", "9021"), ("7157", "9021")]
    assert c.X.shape == (6, len(FEATURES))
    row = dict(zip(FEATURES, c.X[0], strict=True))
    assert row["score_max"] == pytest.approx(0.9) and row["n_sentences_both"] == 1
    assert row["event_complex"] == 1 and row["title_both"] == 1
    assert c.evidence[0] == [0] and c.evidence[1] == []       # JAK1 and TP53: no sentence
    far = dict(zip(FEATURES, c.X[1], strict=True))
    assert far["min_sentence_distance"] == 2 and far["score_max"] == 0
    # JAK1 -- SOCS3 through STAT5's other mention: adjacent sentences, no mention pair
    adj = dict(zip(FEATURES, c.X[2], strict=True))
    assert adj["min_sentence_distance"] == 1 and adj["n_mention_pairs"] == 0
    assert "GENEA" in c.texts[0] and "GENEB" in c.texts[0]


def test_candidates_cap_keeps_the_closest_pairs_and_counts_the_rest():
    c = candidates(_view(), max_pairs=2)
    assert c.capped == 4 and len(c.keys) == 2
    assert set(c.keys) == {("3716", "6776"), ("6776", "9021")}


def test_masked_sentence_names_the_two_genes_and_the_others():
    text = masked_sentence(_view(), 1, "6776", "3716")
    assert "GENEA" in text and "GENEO" in text and "SOCS3" not in text


def _toy(n_docs: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    X, texts, rel, typ, nov, grp = [], [], [], [], [], []
    for d in range(n_docs):
        for _ in range(8):
            y = int(rng.random() < 0.3)
            x = rng.normal(size=len(FEATURES)) + 2.0 * y
            t = rng.choice(["Association", "Positive_Correlation"]) if y else ""
            X.append(x)
            texts.append(("GENEA activates GENEB" if t == "Positive_Correlation" else
                          "GENEA is associated with GENEB") if y else "GENEA and GENEB")
            rel.append(y)
            typ.append(t)
            nov.append(int(rng.random() < 0.7))
            grp.append(f"doc{d}")
    return (np.array(X, np.float32), texts, np.array(rel), np.array(typ), np.array(nov),
            np.array(grp))


def test_model_follows_the_estimator_contract_and_learns():
    X, texts, rel, typ, nov, grp = _toy()
    m = DocRelationModel(max_iter=30, type_model="text", novel_model="text-aux",
                         random_state=3)
    assert m.get_params()["random_state"] == 3 and not hasattr(m, "pair_")
    aux = (["GENEA increases GENEB"] * 5, np.array(["Positive_Correlation"] * 5),
           np.array([1] * 5))
    assert m.fit(X, texts, rel, typ, nov, grp, aux=aux) is m
    p = m.pair_probability(X, texts)
    assert p.shape == (len(X),) and ((0 <= p) & (p <= 1)).all()
    assert p[rel == 1].mean() > p[rel == 0].mean() + 0.3
    types, tp = m.predict_type(X, texts)
    pos = rel == 1
    assert (types[pos] == typ[pos]).mean() > 0.9 and ((0 <= tp) & (tp <= 1)).all()
    assert m.novel_probability(X, texts).shape == (len(X),)


def test_model_folder_round_trip_is_safe_and_identical(tmp_path):
    from relx.ppi.gene_relations import load_gene_model, save_gene_model

    X, texts, rel, typ, nov, grp = _toy()
    m = DocRelationModel(max_iter=20, novel_model="text-aux", threshold=0.4).fit(
        X, texts, rel, typ, nov, grp, aux=(["GENEA and GENEB"], np.array(["Bind"]),
                                          np.array([0])))
    save_gene_model(m, tmp_path / "gm", {"name": "gm", "version": "0"})
    meta, back = load_gene_model(tmp_path / "gm")
    assert meta["format"] == "relx-gene-relations" and back.threshold == 0.4
    np.testing.assert_array_equal(back.pair_probability(X, texts), m.pair_probability(X, texts))
    np.testing.assert_array_equal(back.novel_probability(X, texts),
                                  m.novel_probability(X, texts))


def test_shipped_gene_relation_model_reports_pairs_with_evidence():
    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    from relx.doc import Document, Entity, Sentence, Span
    from relx.ppi.gene_relations import load

    text = "JAK1 binds and phosphorylates STAT5 in T cells."
    ents = [Entity(id="T0", spans=[Span(start=0, end=4)], type="Gene", text="JAK1",
                   norm_ids=["NCBIGene:3716"]),
            Entity(id="T1", spans=[Span(start=30, end=35)], type="Gene", text="STAT5",
                   norm_ids=["NCBIGene:6776"])]
    doc = Document(id="d1", text=text, sentences=[
        Sentence(id="d1.s0", start=0, end=len(text), text=text, entities=ents)])
    ex = load(types=False, ground=False, mentions="input", warm_up=False)
    (_, rels, n), = list(ex.annotate([doc]))
    assert n == 1
    for r in rels:      # reported or not, a relation is well formed
        assert {r.gene1.id, r.gene2.id} == {"3716", "6776"} and r.type_scheme == "BioRED"
        assert r.evidence[0].sentence == text and r.probability >= r.threshold


def test_relx_extract_task_gene_relations_writes_jsonl(tmp_path):
    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    import json

    from typer.testing import CliRunner

    from relx.app.cli import app

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(
        "JAK1 binds and phosphorylates STAT5 in T cells. SOCS3 inhibits JAK1.\n")
    r = CliRunner().invoke(app, ["extract", "--task", "gene-relations", str(tmp_path / "in"),
                                 "--out", str(tmp_path / "out"), "--no-types", "--quiet"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in
            (tmp_path / "out" / "gene_relations.jsonl").read_text().splitlines()]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["model"] == "gene-relations" and summary["relations"] == len(rows)
    for row in rows:
        assert row["document_id"] == "a" and row["type_scheme"] == "BioRED"
        assert row["probability"] >= row["threshold"] and row["evidence"]


def test_relx_train_and_evaluate_send_gene_relations_to_its_lab_recipe(tmp_path):
    from typer.testing import CliRunner

    from relx.app.cli import app

    for extra in (["train", "--out", str(tmp_path / "m")],
                  ["evaluate", "--report", str(tmp_path / "r.json")]):
        r = CliRunner().invoke(app, [*extra, "--task", "gene-relations", "--config",
                                     "configs/ppi-klsh-rf.toml", "--train",
                                     str(tmp_path / "x.xml")], env={"COLUMNS": "200"})
        assert r.exit_code != 0 and "lab recipe" in r.output


def test_dependency_path_gives_the_lemmas_between_the_two_heads():
    from relx.doc import Dependency, Entity, Sentence, Span, Token
    from relx.ppi.doc_view import dependency_path

    text = "JAK1 strongly activates STAT5 and SOCS3"
    words = text.split()
    tokens, at = [], 0
    lemmas = ["jak1", "strongly", "activate", "stat5", "and", "socs3"]
    for k, (w, lemma) in enumerate(zip(words, lemmas, strict=True)):
        at = text.index(w, at)
        tokens.append(Token(index=k, text=w, start=at, end=at + len(w), lemma=lemma))
        at += len(w)
    deps = [Dependency(head=2, dependent=0, label="nsubj"),
            Dependency(head=2, dependent=1, label="advmod"),
            Dependency(head=2, dependent=3, label="obj"),
            Dependency(head=3, dependent=4, label="cc"),
            Dependency(head=3, dependent=5, label="conj")]
    ents = [Entity(id=f"T{k}", spans=[Span(start=tokens[i].start, end=tokens[i].end)],
                   type="Gene", text=words[i]) for k, i in enumerate((0, 3, 5))]
    s = Sentence(id="s0", start=0, end=len(text), text=text, tokens=tokens,
                 dependencies=deps, entities=ents)
    graphs: dict = {}
    assert dependency_path(s, "T0", "T1", graphs) == ("activate",)
    assert dependency_path(s, "T0", "T2", graphs) == ("activate", "PROT")
    assert dependency_path(s.model_copy(update={"dependencies": []}), "T0", "T1", {}) == ()


def test_pair_markers_say_path_cues_events_place_and_stance():
    from relx.ppi.doc_features import MARKER_END, pair_markers

    v = _view()
    v.pairs[0] = MentionPair("T0", "T1", 0, 0.9, 0.8, "Complex", 0.7, path=("bind",))
    words = pair_markers(v, "3716", "6776", [0], [0], {"3716": [0], "6776": [0, 1]}).split()
    assert {"pbind", "pcbind", "bcbind", "evcomplex", "attitle"} <= set(words)
    assert "pcup" not in words
    c = candidates(v)
    assert MARKER_END in c.texts[0] and "pbind" in c.texts[0].split(MARKER_END)[0]


def test_type_margin_keeps_the_common_type_unless_another_is_clearly_likelier():
    from relx.ppi.doc_model import words_of

    assert words_of(["a b ||| GENEA x", "plain"], "markers") == ["a b", ""]
    assert words_of(["a b ||| GENEA x", "plain"], "text") == ["GENEA x", "plain"]
    X, texts, rel, typ, nov, grp = _toy()
    sure = DocRelationModel(max_iter=20, type_model="text", type_words="all",
                            type_margin=1.0).fit(X, texts, rel, typ, nov, grp)
    assert set(sure.predict_type(X, texts)[0]) == {sure.default_type_}
    free = DocRelationModel(max_iter=20, type_model="text", type_words="all").fit(
        X, texts, rel, typ, nov, grp)
    assert len(set(free.predict_type(X, texts)[0])) == 2


def test_a_batch_of_documents_gets_what_each_document_gets_alone():
    from dataclasses import replace

    from relx.ppi.gene_relations import documents_gene_relations, gene_relations

    X, texts, rel, typ, nov, grp = _toy()
    model = DocRelationModel(max_iter=20, type_model="text", type_words="all",
                             novel_model="text-aux", threshold=0.0).fit(
        X, texts, rel, typ, nov, grp, aux=(["GENEA and GENEB"], np.array(["Bind"]),
                                           np.array([0])))
    meta = {"name": "toy", "version": "1"}
    one = _view()
    other = replace(one, id="d2", pairs=[MentionPair("T0", "T1", 0, 0.2, 0.1)])
    lone = replace(one, id="d3", mentions=one.mentions[:1], pairs=[])   # one gene: none
    docs = [(v, ["s0", "s1", "s2"], {"3716": ["JAK1"]}) for v in (one, lone, other)]
    batch = documents_gene_relations(docs, model, meta)
    alone = [gene_relations(v, model, meta, sids, names) for v, sids, names in docs]
    assert [n for _, n in batch] == [6, 0, 6] and batch[1] == ([], 0)
    assert [[r.model_dump() for r in rels] for rels, _ in batch] == \
        [[r.model_dump() for r in rels] for rels, _ in alone]
    assert batch[0][0] and {r.document_id for r in batch[2][0]} == {"d2"}


def test_a_pair_classifier_without_event_types_ignores_them():
    """``pair_events=False``: the pair probability does not move with the event columns,
    where a model that reads them follows them (here they alone carry the label)."""
    from relx.ppi.doc_model import EVENT_COLUMNS

    _, texts, rel, typ, nov, grp = _toy()
    rng = np.random.default_rng(1)
    X = rng.normal(size=(len(rel), len(FEATURES))).astype(np.float32)
    X[:, EVENT_COLUMNS] += 3.0 * rel[:, None]
    blank = X.copy()
    blank[:, EVENT_COLUMNS] = 0.0
    assert [FEATURES[k] for k in EVENT_COLUMNS] == [f for f in FEATURES if f.startswith("event_")]
    m = DocRelationModel(max_iter=30, pair_events=False, random_state=0).fit(
        X, texts, rel, typ, nov, grp)
    np.testing.assert_array_equal(m.pair_probability(X, texts), m.pair_probability(blank, texts))
    typed = DocRelationModel(max_iter=30, random_state=0).fit(X, texts, rel, typ, nov, grp)
    p = typed.pair_probability(X, texts)
    assert p[rel == 1].mean() > 0.8 and typed.pair_probability(blank, texts)[rel == 1].mean() < 0.5


def test_the_extractor_types_only_the_reported_pairs_sentences_as_a_typed_run_does(tmp_path):
    """With a model whose pair classifier reads no event types (here the shipped one with
    ``pair_events=False``) the interaction extractor runs untyped and the extractor types
    only the sentences of the pairs it reports: the records are those of the same model
    with every candidate pair typed."""
    if not (models_dir() / "gene-relations" / "meta.json").exists():
        pytest.skip("models/gene-relations not trained")
    from relx.doc import Document
    from relx.ppi.gene_relations import load, load_gene_model, save_gene_model

    meta, model = load_gene_model()
    model.pair_events = False
    folder = save_gene_model(model, tmp_path / "untyped-pairs", meta)
    text = ("JAK1 binds and phosphorylates STAT5 in T cells. SOCS3 inhibits JAK1 kinase "
            "activity. IL-2 induces the expression of SOCS3. TP53 and MDM2 were not "
            "measured. BRCA1 is mentioned alone.")
    lazy = load(folder, warm_up=False)
    assert lazy.typer is not None and lazy.pairs.typer is None
    assert load(warm_up=False).typer is None         # the shipped model reads event types
    full = load(folder, warm_up=False)
    full.pairs.typer, full.typer = full.typer, None       # every candidate pair typed
    docs = [Document(id="d1", text=text)]
    got = [r.model_dump() for _, rels, _ in lazy.annotate(docs) for r in rels]
    want = [r.model_dump() for _, rels, _ in full.annotate([docs[0].model_copy(deep=True)])
            for r in rels]
    assert got and got == want
    assert any(ev.get("event_type") not in (None, "Interaction")
               for r in got for ev in r["evidence"])
