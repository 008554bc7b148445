from __future__ import annotations

import numpy as np
import pytest

from relx.doc import Entity, Span
from relx.io import read_ppi_xml
from relx.represent.instances import StructureExtractor, pair_instances
from relx.structures import (
    StructureEncoder,
    dependency_graph,
    entity_head,
    forget_sentences,
    sentence_graph,
    shortest_path,
    token_sequence,
)
from tests.conftest import corpus_file


def _sent(mini_xml, d, s):
    return list(read_ppi_xml(mini_xml))[d].sentences[s]


def test_shortest_path_is_blinded_and_directed(mini_xml):
    s = _sent(mini_xml, 0, 0)
    path = shortest_path(s, s.entity("mini.d0.s0.e0"), s.entity("mini.d0.s0.e1"))
    assert path == [("<none>", "PROT1", "PROT1", "PROT"), ("<nsubj", "binds", "bind", "VBZ"),
                    ("dobj>", "PROT2", "PROT2", "PROT")]


def test_graph_and_path_are_shared_by_sentence_object(mini_xml):
    s = _sent(mini_xml, 0, 0)
    e1, e2 = s.entity("mini.d0.s0.e0"), s.entity("mini.d0.s0.e1")
    g = sentence_graph(s)
    assert sentence_graph(s) is g
    assert shortest_path(s, e1, e2) is shortest_path(s, e1, e2, g)  # one computation
    own = dependency_graph(s)  # a caller's own graph: computed, not taken from the cache
    assert shortest_path(s, e1, e2, own) is not shortest_path(s, e1, e2)
    assert shortest_path(s, e1, e2, own) == shortest_path(s, e1, e2)
    other = s.model_copy(deep=True)  # same id and text, another object: its own graph
    assert sentence_graph(other) is not g
    assert shortest_path(other, e1, e2) == shortest_path(s, e1, e2)


def test_forgotten_sentences_are_not_kept(mini_xml):
    """forget_sentences (relx serve, between documents) drops the cached graphs: a
    sentence's graph is built again, equal, and the cache keeps no reference to it."""
    import gc
    import weakref

    s = _sent(mini_xml, 0, 0)
    g = sentence_graph(s)
    gone = weakref.ref(g)
    forget_sentences()
    again = sentence_graph(s)
    assert again is not g and set(again.edges) == set(g.edges)
    forget_sentences()
    del g, again
    gc.collect()
    assert gone() is None


def test_a_copy_with_other_entities_shares_the_graph_not_the_paths(mini_xml):
    """The event typer's sentence copies (same token and dependency lists, renamed
    entities) reuse the scorer's graph; paths, roles and heads stay per sentence."""
    s = _sent(mini_xml, 0, 0)
    g = sentence_graph(s)
    renamed = [e.model_copy(update={"id": f"T{k}"}) for k, e in enumerate(s.entities, 1)]
    copy = s.model_copy(update={"entities": renamed})
    assert copy.tokens is s.tokens and sentence_graph(copy) is g
    assert shortest_path(copy, renamed[0], renamed[1]) == shortest_path(
        s, s.entities[0], s.entities[1])
    fewer = s.model_copy(update={"entities": renamed[:1]})
    assert sentence_graph(fewer) is g and entity_head(fewer, renamed[0], g) == entity_head(
        s, s.entities[0], g)


def test_shared_path_follows_a_new_entity(mini_xml):
    s = _sent(mini_xml, 0, 0)  # RAD51 binds BRCA2: PROT1 binds PROT2
    e1, e2 = s.entity("mini.d0.s0.e0"), s.entity("mini.d0.s0.e1")
    assert [t[1] for t in shortest_path(s, e1, e2)] == ["PROT1", "binds", "PROT2"]
    binds = next(t for t in s.tokens if t.text == "binds")
    s.entities.append(Entity(id="mini.d0.s0.x", text="binds", type="Protein",
                             spans=[Span(start=binds.start, end=binds.end)]))
    assert [t[1] for t in shortest_path(s, e1, e2)] == ["PROT1", "PROT", "PROT2"]
    s.entities = s.entities[:2]  # a new entity list: the path is found again
    assert [t[1] for t in shortest_path(s, e1, e2)] == ["PROT1", "binds", "PROT2"]


def test_other_entities_are_blinded_as_prot(mini_xml):
    s = _sent(mini_xml, 0, 1)
    path = shortest_path(s, s.entity("mini.d0.s1.e1"), s.entity("mini.d0.s1.e2"))
    assert [t[1] for t in path] == ["PROT1", "protein", "PROT", "measured", "was", "PROT2"]


def test_multi_span_entity_head_is_the_last_outward_token(mini_xml):
    s = _sent(mini_xml, 1, 0)
    g = dependency_graph(s)
    assert s.tokens[entity_head(s, s.entity("mini.d1.s0.e2"), g)].text == "receptor"


def test_token_sequence_regions(mini_xml):
    s = _sent(mini_xml, 1, 0)
    seq = token_sequence(s, s.entity("mini.d1.s0.e0"), s.entity("mini.d1.s0.e1"), window=2)
    assert [(t[0], t[1]) for t in seq] == [
        ("B", "phosphorylation"), ("B", "of"), ("E", "PROT1"), ("M", "by"), ("E", "PROT2"),
        ("A", "requires"), ("A", "the")]


def test_pairs_are_oriented_by_position(mini_xml):
    docs = list(read_ppi_xml(mini_xml))
    inst = pair_instances(docs)
    swapped = [type(x)(x.document_id, x.sentence, x.relation.model_copy(
        update={"arg1": x.relation.arg2, "arg2": x.relation.arg1})) for x in inst]
    ext = StructureExtractor(structures=("path", "sequence")).fit(inst)
    a, b = ext.transform(inst), ext.transform(swapped)
    for k in ("path", "sequence"):
        np.testing.assert_array_equal(a.parts[k].words, b.parts[k].words)


def test_encoder_round_trip_and_subset():
    enc = StructureEncoder()
    X = enc.encode([[("<none>", "PROT1", "PROT1", "PROT"), ("nsubj>", "a", "a", "NN")],
                    [("<none>", "PROT1", "PROT1", "PROT")]])
    assert list(X.offsets) == [0, 2, 3] and len(X) == 2
    assert X.words[0] == X.words[2]
    sub = X[[1]]
    assert len(sub) == 1 and list(sub.words) == [X.words[2]]
    again = StructureEncoder.from_dict(enc.to_dict())
    assert again.words.itos == enc.words.itos


@pytest.mark.slow
def test_every_real_pair_gets_a_path():
    docs = list(read_ppi_xml(corpus_file("AIMed")))[:60]
    n = nopath = 0
    for d in docs:
        for s in d.sentences:
            g = dependency_graph(s)
            for r in s.relations:
                p = shortest_path(s, s.entity(r.arg1), s.entity(r.arg2), g)
                n += 1
                nopath += any(t[0] == "NOPATH" for t in p)
                assert p[0][1] in ("PROT1", "PROT1+PROT2")
    assert n > 500 and nopath / n < 0.05


def test_vocab_saves_its_strings_packed_and_loads_old_state():
    from relx.structures import Vocab

    v = Vocab(["nsubj", "dobj", "β-catenin", ""])
    state = v.__getstate__()
    assert set(state) == {"packed"} and state["packed"]["utf8"].dtype == np.uint8
    back = Vocab.__new__(Vocab)
    back.__setstate__(state)
    assert back.itos == v.itos and back.stoi == v.stoi
    old = Vocab.__new__(Vocab)  # models of format <= 2 stored the attributes themselves
    old.__setstate__({"itos": list(v.itos), "stoi": dict(v.stoi)})
    assert old.itos == v.itos and old.stoi == v.stoi


@pytest.mark.slow
def test_tree_paths_match_networkx_on_trees_and_collapsed_graphs():
    """The tree shortcuts give networkx's paths and distances: on dependency trees (relx's
    parses) and on BioInfer's collapsed dependency graphs (not trees: networkx's search)."""
    import networkx as nx

    from relx.graphs import _governors, distances_from, paths_within, undirected_path

    kinds = {True: 0, False: 0}
    for doc in list(read_ppi_xml(corpus_file("BioInfer")))[:80]:
        for s in doc.sentences:
            g = dependency_graph(s)
            kinds[_governors(g) is not None] += 1
            ug = g.to_undirected(as_view=True)
            nodes = list(g)[:25]
            for a in nodes:
                assert distances_from(g, a) == nx.single_source_shortest_path_length(ug, a)
                assert paths_within(g, a, 3) == nx.single_source_shortest_path(ug, a, cutoff=3)
                for b in nodes:
                    try:
                        want = nx.shortest_path(ug, a, b)
                    except nx.NetworkXNoPath:
                        try:
                            undirected_path(g, a, b)
                            raise AssertionError(f"path {a}-{b} where networkx has none")
                        except nx.NetworkXNoPath:
                            continue
                    assert undirected_path(g, a, b) == want
    assert kinds[True] > 0 and kinds[False] > 0, kinds


@pytest.mark.slow
def test_graph_filled_directly_equals_networkx_api_build():
    """dependency_graph fills networkx's dicts directly: same nodes, attributes, edges, keys
    and adjacency orders as add_node / add_edge, on BioInfer's collapsed graphs (repeated
    head-dependent pairs, self-loops), an index without a token, and still a working graph."""
    import networkx as nx

    from relx.graphs import _graph_by_api

    n = 0
    for doc in list(read_ppi_xml(corpus_file("BioInfer")))[:150]:
        for s in doc.sentences:
            fast, api = dependency_graph(s), _graph_by_api(nx.MultiDiGraph(), s)
            assert list(fast.nodes(data=True)) == list(api.nodes(data=True))
            assert list(fast.edges(keys=True, data=True)) == list(api.edges(keys=True, data=True))
            assert [(u, list(p)) for u, p in fast.pred.items()] == \
                [(u, list(p)) for u, p in api.pred.items()]
            n += fast.number_of_edges()
    assert n > 1000
    odd = s.model_copy(update={"dependencies": [*s.dependencies, s.dependencies[0].model_copy(
        update={"head": len(s.tokens) + 5})]})
    fast, api = dependency_graph(odd), _graph_by_api(nx.MultiDiGraph(), odd)
    assert list(fast.nodes(data=True)) == list(api.nodes(data=True))
    assert list(fast.edges(keys=True, data=True)) == list(api.edges(keys=True, data=True))
    g = dependency_graph(s)
    before = g.number_of_edges()
    g.add_edge(0, 1, label="x")   # still a working networkx graph
    assert g.has_edge(0, 1) and g.number_of_edges() == before + 1
    assert list(g.get_edge_data(0, 1).values())[-1] == {"label": "x"}
