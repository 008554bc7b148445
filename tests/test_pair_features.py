"""Sparse pair features, the Youden threshold rule and the quantile-normalised ensemble."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import FIXTURES, ROOT, corpus_file
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline

from relx.doc import Dependency, Entity, Relation, Sentence, Span, Token
from relx.io.ppi_xml import read_ppi_xml
from relx.learn.ensemble import ProbabilityEnsemble
from relx.learn.forest import RandomSubspaceForest, best_youden_threshold, rule_threshold
from relx.represent.instances import PairInstance, labels, pair_instances
from relx.represent.pair_features import (
    PairFeatureExtractor,
    competition_features,
    document_context_features,
    pair_feature_dict,
    path_context_features,
    path_structure_features,
    surface_context_features,
)
from relx.structures import dependency_graph


def _mini():
    return pair_instances(read_ppi_xml(FIXTURES / "ppi-mini.xml"))


def test_pair_features_of_a_simple_interaction_sentence():
    x = _mini()[0]  # "RAD51 binds BRCA2 in vivo."
    f = pair_feature_dict(x)
    assert {"path_edges=<nsubj|dobj>", "path_lemma=bind", "path_walk=PROT1<nsubjbind",
            "path_has_verb", "between=bind", "distance=1", "between_prot=0",
            "after=in", "after=vivo"} <= set(f)
    assert not any("RAD51" in k or "BRCA2" in k for k in f)  # mentions are blinded
    assert all(v == 1.0 for v in f.values())


def test_path_structure_features_name_the_lowest_common_ancestor():
    x = _mini()[0]  # "RAD51 binds BRCA2 in vivo.": PROT1 <nsubj bind dobj> PROT2
    f = pair_feature_dict(x, path_structure=True)
    assert {"lca_lemma=bind", "lca_pos=VB", "lca_up=1_down=1",
            "edge_bigram=<nsubjdobj>"} <= set(f)
    assert not any(k.startswith(("lca_", "edge_bigram")) for k in pair_feature_dict(x))
    # a chain that only walks up: the last node is the ancestor
    up = [("<none>", "PROT1", "PROT1", "PROT"), ("<nmod", "of", "of", "IN"),
          ("<nmod", "PROT2", "PROT2", "PROT")]
    assert path_structure_features(up) == {
        "lca_lemma=PROT2": 1.0, "lca_pos=PR": 1.0, "lca_up=2_down=0": 1.0,
        "edge_bigram=<nmod<nmod": 1.0}
    assert path_structure_features(up[:1]) == {}


def _negated_sentence() -> PairInstance:
    """"IL10 does not bind IL10R directly ." with a hand-written basic-dependency parse."""
    words = ["IL10", "does", "not", "bind", "IL10R", "directly", "."]
    lemmas = ["il10", "do", "not", "bind", "il10r", "directly", "."]
    tags = ["NN", "VBZ", "RB", "VB", "NN", "RB", "."]
    toks, pos = [], 0
    for i, (w, lem, t) in enumerate(zip(words, lemmas, tags, strict=True)):
        toks.append(Token(index=i, text=w, start=pos, end=pos + len(w), pos=t, lemma=lem))
        pos += len(w) + 1
    deps = [Dependency(head=3, dependent=d, label=lab) for d, lab in
            [(0, "nsubj"), (1, "aux"), (2, "neg"), (4, "dobj"), (5, "advmod"), (6, "punct")]]
    ents = [Entity(id="e1", spans=[Span(start=0, end=4)], text="IL10"),
            Entity(id="e2", spans=[Span(start=20, end=25)], text="IL10R")]
    rel = Relation(id="r1", arg1="e1", arg2="e2", label=False)
    sent = Sentence(id="s", start=0, end=pos - 1, text=" ".join(words), tokens=toks,
                    dependencies=deps, entities=ents, relations=[rel])
    return PairInstance("d", sent, rel)


def test_path_context_features_see_negation_and_modality_on_the_path():
    x = _negated_sentence()
    s = x.sentence
    f = path_context_features(s, dependency_graph(s), s.entities[0], s.entities[1])
    assert f == {"ctx_negated": 1.0, "ctx=neg:not": 1.0, "ctx=aux:do": 1.0,
                 "ctx=advmod:directly": 1.0}
    assert set(f) <= set(pair_feature_dict(x, path_context=True))
    assert not any(k.startswith("ctx") for k in pair_feature_dict(x))
    # without the negation the pair is not negated; punctuation is never context
    s2 = s.model_copy(update={"dependencies": [d for d in s.dependencies if d.label != "neg"]})
    f2 = path_context_features(s2, dependency_graph(s2), s.entities[0], s.entities[1])
    assert "ctx_negated" not in f2 and "ctx=aux:do" in f2 and not any(":." in k for k in f2)
    # a determiner is context only when it negates ("no effect on")
    for lemma, negated in (("no", True), ("the", False)):
        toks = [t.model_copy(update={"lemma": lemma}) if t.index == 2 else t for t in s.tokens]
        deps = [d.model_copy(update={"label": "det"}) if d.label == "neg" else d
                for d in s.dependencies]
        s3 = s.model_copy(update={"tokens": toks, "dependencies": deps})
        f3 = path_context_features(s3, dependency_graph(s3), s.entities[0], s.entities[1])
        assert ("ctx_negated" in f3) is negated and (f"ctx=det:{lemma}" in f3) is negated


def test_path_context_is_lexical_and_survives_the_extractor():
    x = _negated_sentence()
    fx = PairFeatureExtractor(path_context=True, lexical_weight=0.5).fit([x])
    names = list(fx.feature_names_)
    row = fx.transform([x]).toarray()[0]
    assert row[names.index("ctx=neg:not")] == 0.5 and row[names.index("ctx_negated")] == 1.0
    assert "path_context" in fx.get_params()


def test_surface_context_features_of_a_short_and_a_long_pair():
    x = _mini()[0]  # "RAD51 binds BRCA2 in vivo."
    f = pair_feature_dict(x, surface_context=True)
    surface = {k for k in f if k.startswith(("between_bigram", "between_pos", "local", "gov"))}
    assert surface == {"between_pos=VB", "gov=nsubj:bind", "gov=dobj:bind",
                       "local1+1=bind", "local1+2=PROT", "local2-2=PROT", "local2-1=bind",
                       "local2+1=in", "local2+2=vivo"}  # nothing before RAD51: no local1-
    assert not surface & set(pair_feature_dict(x))  # off by default
    # "TP53 and the MDM2 protein were measured, but p21 was not.": MDM2 is blinded
    y = [i for i in _mini() if i.relation.id == "mini.d0.s1.p1"][0]
    s = y.sentence
    g = pair_feature_dict(y, surface_context=True)
    assert {"between_bigram=the_PROT", "between_bigram=PROT_protein", "between_bigram=,_but",
            "gov=nsubjpass:measure", "gov=nsubj:be", "local2-1=but", "local2+2=not"} <= set(g)
    assert not any("mdm2" in k.lower() for k in g)
    direct = surface_context_features(s, dependency_graph(s), s.entities[0], s.entities[2],
                                      {0: "PROT1", 3: "PROT", 9: "PROT2"}, [0], [9])
    assert direct["between_bigram=the_PROT"] == 1.0 and "local1-1=" not in "".join(direct)


def test_surface_context_is_lexical_and_survives_the_extractor():
    x = _mini()[0]
    fx = PairFeatureExtractor(surface_context=True, lexical_weight=0.5).fit([x])
    names = list(fx.feature_names_)
    row = fx.transform([x]).toarray()[0]
    assert row[names.index("gov=nsubj:bind")] == 0.5 and row[names.index("local2+1=in")] == 0.5
    assert row[names.index("between_pos=VB")] == 1.0  # structural
    assert fx.get_params()["surface_context"] is True


def test_pair_features_count_proteins_between_and_see_coordination():
    x = [i for i in _mini() if i.relation.id == "mini.d0.s1.p1"][0]  # TP53 ... p21, MDM2 between
    f = pair_feature_dict(x)
    assert "between_prot=1" in f and "distance=8" in f and "path_edge=conj_but>" in f


def test_competition_features_rank_a_pair_among_the_pairs_of_its_sentence():
    # "TP53 and the MDM2 protein were measured, but p21 was not.": dependency distances
    # TP53-MDM2 2 edges (conj_and, nn), TP53-p21 3 (nsubjpass, conj_but, nsubj), MDM2-p21 5
    s = next(iter(read_ppi_xml(FIXTURES / "ppi-mini.xml"))).sentences[1]
    table = competition_features(s)
    e0, e1, e2 = (e.id for e in s.entities)
    assert len(table) == 6 and table[e0, e1] == table[e1, e0]
    assert set(table[e0, e1]) == {"competition_mentions=3-4", "competition_above_shortest=0",
                                  "competition_nearer=0"}
    assert set(table[e0, e2]) == {"competition_mentions=3-4", "competition_above_shortest=1",
                                  "competition_nearer=0", "competition_nearer=1"}
    assert set(table[e1, e2]) == {"competition_mentions=3-4", "competition_above_shortest=3",
                                  "competition_nearer=1"}


def test_competition_features_do_not_depend_on_the_batch():
    inst = _mini()
    alone = [pair_feature_dict(x, {}, competition=True) for x in inst]
    shared: dict = {}
    assert [pair_feature_dict(x, shared, competition=True) for x in reversed(inst)] == alone[::-1]
    assert all(set(pair_feature_dict(x)) < set(f) for x, f in zip(inst, alone, strict=True))
    ext = PairFeatureExtractor(competition=True).fit(inst)
    assert any(n.startswith("competition_") for n in ext.feature_names_)
    assert _same_rows(ext.transform(inst[1:2]), ext.transform(inst)[1:2])


def _same_rows(a, b) -> bool:
    return (a != b).nnz == 0


def test_extractor_learns_a_vocabulary_and_drops_unseen_features():
    inst = _mini()
    ext = PairFeatureExtractor().fit(inst[:2])
    X = ext.transform(inst)
    assert X.shape == (len(inst), ext.n_features_out_) and X.format == "csr"
    assert X[0].sum() == len(pair_feature_dict(inst[0]))
    assert X[2:].sum() < sum(len(pair_feature_dict(i)) for i in inst[2:])  # unseen dropped


def test_lexical_weight_scales_only_the_word_features():
    import copy

    inst = _mini()
    plain = PairFeatureExtractor(path_structure=True)
    X1 = plain.fit_transform(inst)
    ext = PairFeatureExtractor(path_structure=True, lexical_weight=0.5)
    X = ext.fit_transform(inst)
    names = ext.feature_names_.tolist()
    assert names == plain.feature_names_.tolist()
    col = {n: j for j, n in enumerate(names)}
    row = X[0].toarray().ravel()
    assert row[col["between=bind"]] == row[col["path_lemma=bind"]] == row[col["lca_lemma=bind"]] == 0.5
    assert row[col["path_edges=<nsubj|dobj>"]] == row[col["lca_pos=VB"]] == 1.0
    assert (ext.transform(inst) != X).nnz == 0  # transform matches fit_transform
    assert ((X1 > 0) != (X > 0)).nnz == 0  # same non-zeros, only rescaled
    again = copy.deepcopy(ext)  # goes through __getstate__: cached weights rebuilt, not stored
    assert "_weights" not in again.__dict__ and (again.transform(inst) != X).nnz == 0


def test_members_with_the_same_columns_share_their_column_weights():
    inst = _mini()
    a = PairFeatureExtractor(path_structure=True, lexical_weight=0.5).fit(inst)
    b = PairFeatureExtractor(path_structure=True, lexical_weight=0.5).fit(inst)
    c = PairFeatureExtractor(path_structure=True, lexical_weight=0.25).fit(inst)
    assert a._vocabulary_key() == b._vocabulary_key() == c._vocabulary_key()
    assert a._column_weights() is b._column_weights()       # one array for both
    assert c._column_weights() is not a._column_weights()   # another weight, another array
    assert not a._column_weights().flags.writeable
    assert set(np.unique(c._column_weights())) == {0.25, 1.0}
    # a vocabulary key tells vocabularies apart, a name holding a NUL too
    d = PairFeatureExtractor(path_structure=True).fit(inst)
    key = d._vocabulary_key()
    d.feature_names_ = np.array(["a\0b", "c"], dtype=object)
    del d._vocab_key
    other = d._vocabulary_key()
    d.feature_names_ = np.array(["a", "b\0c"], dtype=object)
    del d._vocab_key
    assert len({key, other, d._vocabulary_key()}) == 3


def test_youden_threshold_maximises_tpr_minus_fpr():
    rng = np.random.default_rng(0)
    y = rng.random(500) < 0.2
    s = rng.normal(size=500) + 1.2 * y
    t = best_youden_threshold(y, s)
    fpr, tpr, _ = roc_curve(y, s)
    pred = s > t
    j = pred[y].mean() - pred[~y].mean()
    assert j == pytest.approx((tpr - fpr).max())
    # independent of the positive rate: duplicating the negatives leaves it unchanged
    y2, s2 = np.r_[y, y[~y]], np.r_[s, s[~y]]
    assert best_youden_threshold(y2, s2) == pytest.approx(t)
    with pytest.raises(ValueError, match="youden"):
        rule_threshold("median", y, s)


def test_forest_and_ensemble_accept_the_youden_rule_and_quantile_normalisation():
    X, y = make_classification(600, n_features=8, n_informative=4, weights=[0.8], random_state=0)
    rf = RandomSubspaceForest(n_estimators=20, max_features=4, threshold="youden",
                              random_state=0).fit(X, y)
    assert 0 < rf.threshold_ < 1
    members = [LogisticRegression(class_weight="balanced"), GaussianNB()]
    ens = ProbabilityEnsemble(members, threshold="youden", normalise="quantile",
                              random_state=0).fit(X[:400], y[:400])
    assert ens.reference_.shape == (2, 400)
    assert np.all(np.diff(ens.reference_, axis=1) >= 0)
    P = ens.member_proba(X[400:])
    s = ens.score(P)
    assert 0 <= s.min() and s.max() <= 1
    # the score is the mean of the members' out-of-fold-CDF values
    cdf = [np.searchsorted(ens.reference_[j], P[:, j], side="right") / 400 for j in range(2)]
    np.testing.assert_allclose(s, (cdf[0] + cdf[1]) / 2)
    assert ens.score_threshold_ == best_youden_threshold(y[:400] == 1, ens.score(ens.oof_))
    assert roc_auc_score(y[400:], ens.predict_proba(X[400:])[:, 1]) > 0.75
    with pytest.raises(ValueError, match="normalise"):
        ProbabilityEnsemble(members, normalise="zscore").fit(X, y)


def test_best_config_is_klsh_rf_plus_pair_feature_regression():
    from relx.registry import build_pipeline, load_config

    pipe = build_pipeline(load_config(ROOT / "configs" / "ppi-best.toml"), random_state=3)
    ens = pipe.steps[-1][1]
    kinds = [[type(s).__name__ for _, s in m.steps] for m in ens.estimators]
    assert kinds == [["StructureExtractor", "KLSHEncoder", "RandomSubspaceForest"],
                     ["PairFeatureExtractor", "LogisticRegression"],
                     ["PairFeatureExtractor", "NaiveBayesScaler", "LogisticRegression"],
                     ["PairFeatureExtractor", "FrequentFeatureSelector",
                      "HistGradientBoostingClassifier"],
                     ["FeatureUnion", "PackedExtraTrees"],
                     ["PairFeatureExtractor", "LogisticRegression"]]
    assert ens.refit_steps == [1, 1, 2, 1, 1, 1]  # the NB scaler learns from labels: refitted
    # the sixth member (unlexicalised pair LR) is in-domain only: out of the new-text mean,
    # fitted and stacked because the combiner is "stacked"
    assert ens.weights == [1.0, 2.0, 1.0, 1.0, 4.0, 0.0]
    assert ens.in_domain_combiner == "stacked"
    assert ens.estimators[5].steps[0][1].lexical_weight == 0.0
    assert ens.threshold == "youden" and ens.normalise == "quantile"
    assert ens.prior_shift == "none" and ens.estimators[1].steps[0][1].competition
    # the surface context goes to the randomised trees only (the regressions transfer worse)
    trees_features = ens.estimators[4].steps[0][1].transformer_list[0][1].steps[0][1]
    assert [m.steps[0][1].surface_context for m in ens.estimators[1:4]] == [False] * 3
    assert trees_features.surface_context


@pytest.mark.slow
def test_pair_lr_on_real_iepa_documents_beats_chance():
    from relx.ppi.evaluate import document_folds, load_corpus
    from relx.registry import build_pipeline, load_config

    docs = load_corpus(corpus_file("IEPA"))
    folds = document_folds(docs, 3, 0)
    train = pair_instances([d for d in docs if folds[d.id] != 0])
    test = pair_instances([d for d in docs if folds[d.id] == 0])
    pipe = build_pipeline(load_config(ROOT / "configs" / "ppi-pair-lr.toml"), random_state=0)
    pipe.fit(train, labels(train))
    auc = roc_auc_score(labels(test), pipe.predict_proba(test)[:, 1])
    assert auc > 0.7, auc


@pytest.mark.slow
def test_nb_scaled_pair_member_on_real_iepa_documents():
    from relx.ppi.evaluate import document_folds, load_corpus
    from relx.registry import build_pipeline, load_config

    docs = load_corpus(corpus_file("IEPA"))
    folds = document_folds(docs, 3, 0)
    train = pair_instances([d for d in docs if folds[d.id] != 0])
    test = pair_instances([d for d in docs if folds[d.id] == 0])
    ens = build_pipeline(load_config(ROOT / "configs" / "ppi-best-nb.toml"),
                         random_state=0).steps[-1][1]
    assert ens.refit_steps == [1, 2]  # the scaler learns from labels: refitted per OOF split
    member = ens.estimators[1]
    member.fit(train, labels(train))
    scaler = member.steps[1][1]
    names = member.steps[0][1].feature_names_
    assert scaler.ratio_.shape == names.shape and np.isfinite(scaler.ratio_).all()
    auc = roc_auc_score(labels(test), member.predict_proba(test)[:, 1])
    assert auc > 0.75, auc


def test_scores_and_predictions_match_predict_proba_and_predict():
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from relx.ppi.evaluate import positive_scores, scores_and_predictions

    X, y = make_classification(400, n_features=6, weights=[0.7], random_state=1)
    pipe = Pipeline([("scale", StandardScaler()), ("lr", LogisticRegression())]).fit(X, y)
    s, p = scores_and_predictions(pipe, X)
    np.testing.assert_allclose(s, positive_scores(pipe, X))
    np.testing.assert_array_equal(p, pipe.predict(X))
    for shift in (None, "none", "rate"):
        ens = Pipeline([("scale", StandardScaler()), ("ens", ProbabilityEnsemble(
            [LogisticRegression(), GaussianNB()], prior_shift=shift, random_state=0))]).fit(X, y)
        s, p = scores_and_predictions(ens, X[:150])
        np.testing.assert_allclose(s, ens.predict_proba(X[:150])[:, 1])
        np.testing.assert_array_equal(p, ens.predict(X[:150]))


def test_extractor_transform_matches_dictvectorizer_and_survives_save_load(tmp_path):
    from sklearn.feature_extraction import DictVectorizer

    from relx.ppi.model import RelationModel, load_model
    from relx.registry import build_pipeline, load_config

    inst = _mini()
    ext = PairFeatureExtractor().fit(inst[:3])
    ref = DictVectorizer().fit([pair_feature_dict(x) for x in inst[:3]])
    np.testing.assert_array_equal(ext.transform(inst).toarray(),
                                  ref.transform([pair_feature_dict(x) for x in inst]).toarray())
    assert "_index" not in ext.__getstate__()
    cfg = load_config(ROOT / "configs" / "ppi-pair-lr.toml")
    pipe = build_pipeline(cfg, random_state=0).fit(inst, labels(inst))
    RelationModel(pipe, cfg, {"name": "t"}).save(tmp_path / "m")
    back = load_model(tmp_path / "m").pipeline
    np.testing.assert_allclose(back.predict_proba(inst), pipe.predict_proba(inst))


def test_ensemble_out_of_fold_splits_follow_documents_for_candidate_pairs(monkeypatch):
    from sklearn.model_selection import StratifiedGroupKFold
    from sklearn.pipeline import Pipeline

    import relx.learn.ensemble as ens_mod

    inst = _mini() * 3  # 3 copies: enough pairs per class for 2 folds
    y = labels(inst)
    assert list(ens_mod._document_groups(inst)) == [x.document_id for x in inst]
    assert ens_mod._document_groups(np.zeros((3, 2))) is None
    seen = []
    real = StratifiedGroupKFold.split

    def spy(self, X, y=None, groups=None):
        for tr, va in real(self, X, y, groups):
            seen.append((set(groups[tr]), set(groups[va])))
            yield tr, va

    monkeypatch.setattr(StratifiedGroupKFold, "split", spy)
    member = Pipeline([("f", PairFeatureExtractor()), ("lr", LogisticRegression())])
    ens = ProbabilityEnsemble([member], cv=2, random_state=0).fit(inst, y)
    assert seen and all(not (tr & va) for tr, va in seen)  # no document on both sides
    assert ens.oof_.shape == (len(inst), 1)


def test_relx_view_reparses_corpus_sentences_once_and_keeps_relx_parses():
    from relx.parse import views

    inst = _mini()
    sents = list({id(x.sentence): x.sentence for x in inst}.values())
    out = views.relx_view(sents)
    source = views._parser(None).source
    assert [s.id for s in out] == [s.id for s in sents]
    for old, new in zip(sents, out, strict=True):
        assert new.parse_source == source and old.parse_source != source
        assert new.entities == old.entities and new.relations == old.relations
        assert new.tokens and new.dependencies and new.text == old.text
    again = views.relx_view(sents)  # from the cache: same parses
    assert [s.tokens for s in again] == [s.tokens for s in out]
    assert views.relx_view(out)[0] is out[0]  # relx parses are used as they are
    x = inst[0]  # "RAD51 binds BRCA2 in vivo.": relx's parse sees the same verb path
    f = pair_feature_dict(type(x)(x.document_id, out[0], x.relation))
    assert "path_lemma=bind" in f and "path_has_verb" in f


def test_second_parse_features_are_prefixed_and_doubled():
    inst = _mini()
    one = PairFeatureExtractor().fit(inst)
    two = PairFeatureExtractor(second_parse="relx").fit(inst)
    names = two.feature_names_.tolist()
    assert set(one.feature_names_.tolist()) < set(names)
    assert {n[5:] for n in names if n.startswith("relx:")} & set(one.feature_names_.tolist())
    assert two.transform(inst).shape == (len(inst), two.n_features_out_)
    with pytest.raises(ValueError, match="second_parse"):
        PairFeatureExtractor(second_parse="stanza").fit(inst)


def test_relx_path_structure_comes_from_relx_parse():
    from relx.represent.instances import StructureExtractor
    from relx.structures import dependency_graph, shortest_path

    inst = _mini()
    out = StructureExtractor(structures=["path", "relx_path"]).fit_transform(inst)
    assert set(out.parts) == {"path", "relx_path"} and len(out) == len(inst)
    from relx.parse.views import relx_view_by_sentence

    x = inst[0]
    r = relx_view_by_sentence([x])[id(x.sentence)]
    want = shortest_path(r, r.entity(x.relation.arg1), r.entity(x.relation.arg2),
                         dependency_graph(r))
    assert [p[2] for p in want] == ["PROT1", "bind", "PROT2"]


def test_sentence_pair_weighting_reaches_the_regression():
    from sklearn.pipeline import Pipeline

    from relx.learn.ensemble import sentence_weights

    inst = _mini()  # sentences with 1, 3 and 3 candidate pairs
    w = sentence_weights(inst)
    np.testing.assert_allclose(w * np.sqrt([1, 3, 3, 3, 3, 3, 3]), w[0])
    assert w.mean() == pytest.approx(1.0) and sentence_weights(np.zeros((3, 2))) is None
    y = labels(inst)
    member = Pipeline([("features", PairFeatureExtractor()), ("lr", LogisticRegression())])
    ens = ProbabilityEnsemble([member], pair_weighting="sentence", cv=2, random_state=0)
    lr = ens.fit(inst, y).estimators_[0].steps[-1][1]
    X = PairFeatureExtractor().fit_transform(inst)
    np.testing.assert_allclose(lr.coef_, LogisticRegression().fit(X, y, sample_weight=w).coef_)
    assert not np.allclose(lr.coef_, LogisticRegression().fit(X, y).coef_)
    with pytest.raises(ValueError, match="pair_weighting"):
        ProbabilityEnsemble([member], pair_weighting="documents").fit(inst, y)


def test_members_with_the_same_feature_settings_compute_the_dicts_once(monkeypatch):
    import relx.represent.pair_features as pf

    inst = _mini()
    calls = []
    real = pf.pair_feature_dict
    monkeypatch.setattr(pf, "pair_feature_dict", lambda *a, **k: calls.append(1) or real(*a, **k))
    pf._last_dicts.clear()
    a = PairFeatureExtractor(competition=True).fit_transform(inst)
    n = len(calls)
    b = PairFeatureExtractor(competition=True, lexical_weight=0.5).fit_transform(inst)
    assert len(calls) == n  # same pairs, same feature settings: reused
    assert (a != 0).sum() == (b != 0).sum()
    PairFeatureExtractor(competition=False).fit_transform(inst)
    assert len(calls) == 2 * n  # other settings: computed again
    PairFeatureExtractor(competition=False).fit_transform(list(inst))
    assert len(calls) == 2 * n  # the same pairs in a new list
    PairFeatureExtractor(competition=False).fit_transform(inst[:-1])
    assert len(calls) == 2 * n + len(inst) - 1  # other pairs: computed again


def _doc_pairs() -> list[PairInstance]:
    """Pairs of two documents; ``d1`` names IL-2 and its receptor together in two sentences."""
    def sent(sid: str, names: list[str]) -> Sentence:
        text, ents = "", []
        for i, n in enumerate(names):
            ents.append(Entity(id=f"{sid}.e{i}", text=n, spans=[Span(start=len(text),
                                                                         end=len(text) + len(n))]))
            text += n + " "
        return Sentence(id=sid, start=0, end=len(text), text=text, entities=ents)

    docs = {"d1": [sent("d1.s0", ["IL-2", "IL2R"]), sent("d1.s1", ["il2", "IL-2R", "JAK1"]),
                   sent("d1.s2", ["IL-2", "IL 2"])],
            "d2": [sent("d2.s0", ["IL-2", "IL2R"])]}
    out = []
    for d, sents in docs.items():
        for s in sents:
            es = s.entities
            for i in range(len(es)):
                for j in range(i + 1, len(es)):
                    rel = Relation(id=f"{s.id}.p{i}{j}", arg1=es[i].id, arg2=es[j].id)
                    out.append(PairInstance(d, s, rel))
    return out


def test_document_context_counts_sentences_naming_both_mentions():
    pairs = _doc_pairs()
    f = dict(zip([x.relation.id for x in pairs], document_context_features(pairs), strict=True))
    assert f["d1.s0.p01"] == f["d1.s1.p01"] == {"doc_cooc=2": 1.0}  # IL-2 = il2, IL2R = IL-2R
    assert f["d1.s1.p02"] == f["d1.s1.p12"] == {"doc_cooc=1": 1.0}  # JAK1: one sentence
    assert f["d1.s2.p01"] == {}  # IL-2 and IL 2: one name
    assert f["d2.s0.p01"] == {"doc_cooc=1": 1.0}  # other documents do not count
    alone = document_context_features([pairs[0]])  # only the batch's sentences count
    assert alone == [{"doc_cooc=1": 1.0}]


def test_document_context_option_of_the_extractor():
    inst = _mini()
    fx = PairFeatureExtractor(document_context=True).fit(inst)
    names = list(fx.feature_names_)
    assert "doc_cooc=1" in names and "document_context" in fx.get_params()
    col = names.index("doc_cooc=1")
    assert (fx.transform(inst).toarray()[:, col] == 1.0).all()  # each pair named once
    assert not any(n.startswith("doc_cooc") for n in PairFeatureExtractor().fit(
        inst).feature_names_)


def test_saved_vocabulary_is_packed_and_older_string_arrays_still_load(tmp_path):
    """A model file stores the vocabulary as UTF-8 bytes (no fixed-width str array); a
    loaded model, and one saved before (a ``<U`` array), transform exactly as fitted."""
    import json
    import zipfile

    from relx.ppi.model import RelationModel, load_model
    from relx.represent.pair_features import pack_names, unpack_names

    X = _mini()
    fx = PairFeatureExtractor(competition=True, lexical_weight=0.75)
    want = fx.fit_transform(X).toarray()
    names = fx.feature_names_.tolist()
    assert fx.feature_names_.dtype == object and all(isinstance(n, str) for n in names)
    assert unpack_names(pack_names(["α-β", "", "x=1"])).tolist() == ["α-β", "", "x=1"]

    path = RelationModel(Pipeline([("features", fx)]), {}, {"name": "f"}).save(tmp_path / "m")
    np.testing.assert_array_equal(fx.transform(X).toarray(), want)  # saving left it intact
    with zipfile.ZipFile(path / "pipeline.skops") as z:
        schema = z.read("schema.json").decode()
        arrays = [n for n in z.namelist() if n.endswith(".npy")]
        dtypes = {np.lib.format.read_array(z.open(n)).dtype.kind for n in arrays}
    assert "U" not in dtypes and "utf8" in schema
    back = load_model(path).pipeline.steps[0][1]
    assert back.feature_names_.tolist() == names
    np.testing.assert_array_equal(back.transform(X).toarray(), want)

    old = PairFeatureExtractor(competition=True, lexical_weight=0.75)
    state = fx.__getstate__()
    state["feature_names_"] = np.asarray(names, dtype=str)  # how models up to format 1 saved it
    old.__setstate__(state)
    assert old.feature_names_.dtype == object
    np.testing.assert_array_equal(old.transform(X).toarray(), want)

    meta = json.loads((path / "meta.json").read_text())
    (path / "meta.json").write_text(json.dumps({**meta, "format_version": 1}))
    assert load_model(path).pipeline.steps[0][1].feature_names_.tolist() == names
    (path / "meta.json").write_text(json.dumps({**meta, "format_version": 99}))
    with pytest.raises(ValueError, match="model format 99, this relx reads formats 1, 2"):
        load_model(path)


def test_min_documents_keeps_features_of_several_training_documents():
    from relx.represent.pair_features import document_counts

    X = _mini()  # two documents: mini.d0 (2 sentences, 4 pairs), mini.d1 (3 pairs)
    docs = [x.document_id for x in X]
    every = PairFeatureExtractor()
    full = every.fit_transform(X)
    counts = document_counts(full, docs)
    by_doc = {d: set(np.flatnonzero(full[[i for i, e in enumerate(docs) if e == d]]
                                    .toarray().any(axis=0))) for d in set(docs)}
    np.testing.assert_array_equal(
        counts, [sum(j in cols for cols in by_doc.values()) for j in range(full.shape[1])])
    assert {1, 2} == set(counts.tolist())

    two = PairFeatureExtractor(min_documents=2)
    kept = two.fit_transform(X)
    names = two.feature_names_.tolist()
    assert names == [n for n, c in zip(every.feature_names_.tolist(), counts, strict=True)
                     if c == 2]
    assert "path_lemma=bind" not in names  # only "RAD51 binds BRCA2" (mini.d0) has it
    np.testing.assert_array_equal(kept.toarray(), two.transform(X).toarray())
    np.testing.assert_array_equal(
        kept.toarray(), full.toarray()[:, [every.feature_names_.tolist().index(n)
                                           for n in names]])
    state = two.__getstate__()
    del state["min_documents"]  # a model saved before the option
    old = PairFeatureExtractor()
    old.__setstate__(state)
    assert old.min_documents == 1


def test_members_with_the_same_vocabulary_build_one_matrix_per_batch():
    import copy

    from relx.represent import pair_features

    inst = _mini()
    ext = PairFeatureExtractor(path_structure=True, lexical_weight=0.5).fit(inst[:4])
    twin = copy.deepcopy(ext)   # another member with the same columns
    first = ext.transform(inst)
    shared = twin.transform(inst)   # the batch's matrix again, as a copy
    assert shared is not first and (shared != first).nnz == 0
    first.data[:] = 0.0   # a member's changes stay its own
    pair_features._last_matrix.clear()
    pair_features._last_dicts.clear()
    fresh = twin.transform(inst)
    assert (fresh != shared).nnz == 0
    index = {n: j for j, n in enumerate(ext.feature_names_.tolist())}
    for r, f in enumerate(ext._dicts(inst)):   # the columns as a set intersection finds them
        cols = sorted(map(index.__getitem__, f.keys() & index.keys()))
        assert fresh.indices[fresh.indptr[r]:fresh.indptr[r + 1]].tolist() == cols
    other = PairFeatureExtractor(path_structure=True, lexical_weight=0.5).fit(inst[:2])
    assert other.transform(inst).shape[1] == other.n_features_out_ != ext.n_features_out_
