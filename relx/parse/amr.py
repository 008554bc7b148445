"""AMR-style semantic graph: a rule-based semantic view of a dependency parse (DESIGN §2).

Function words (determiners, auxiliaries, punctuation, coordinators, markers) disappear;
prepositions become edge labels (``prep_of``); entity mentions and multiword names become one
concept node; verbs and nominalisations become lemma concepts (``phosphorylation`` ->
``phosphorylate``); subjects, objects, agents and passive subjects become ``ARG0``/``ARG1``
edges, a nominalised event's ``of``/``by`` arguments too; negation is a ``polarity``
attribute. Other modifiers are ``mod``; coordination is ``conj_and``/``conj_or``.
"""

from __future__ import annotations

import networkx as nx

from relx.doc import Entity, Sentence
from relx.structures import PROT, PROT1, PROT2, Tuple, entity_tokens, labelled_path

FUNCTION = frozenset({"det", "punct", "aux", "auxpass", "cc", "mark", "case", "expl",
                      "predet", "preconj", "prt", "meta"})
ROLES = {"nsubj": "ARG0", "csubj": "ARG0", "nsubjpass": "ARG1", "csubjpass": "ARG1",
         "dobj": "ARG1", "attr": "ARG1", "oprd": "ARG1", "ccomp": "ARG1", "xcomp": "ARG1",
         "dative": "ARG2", "poss": "poss", "appos": "same_as", "neg": "polarity"}
NOMINALISATIONS = {
    "binding": "bind", "interaction": "interact", "inhibition": "inhibit",
    "expression": "express", "association": "associate", "induction": "induce",
    "recruitment": "recruit", "production": "produce", "secretion": "secrete",
    "transcription": "transcribe", "cleavage": "cleave", "formation": "form",
    "suppression": "suppress", "degradation": "degrade", "release": "release",
    "translocation": "translocate", "stimulation": "stimulate", "regulation": "regulate",
    "activation": "activate", "signaling": "signal", "signalling": "signal",
    "modification": "modify", "dependence": "depend", "requirement": "require",
    "complex": "complex", "synthesis": "synthesize", "transactivation": "transactivate",
    "overexpression": "overexpress", "accumulation": "accumulate", "recognition": "recognize",
}
# arguments of a nominalised event concept, by preposition
NOMINAL_ARGS = {"of": "ARG1", "by": "ARG0", "between": "ARG0", "with": "ARG2", "to": "ARG2"}


def concept_of(lemma: str, pos: str) -> tuple[str, bool]:
    """``(concept, is_event)``: verbs and known nominalisations become verb concepts."""
    low = lemma.lower()
    if pos.startswith("VB"):
        return low, True
    if low in NOMINALISATIONS:
        return NOMINALISATIONS[low], True
    for suf, rep in (("ylation", "ylate"), ("ination", "inate"), ("ization", "ize"),
                     ("isation", "ise")):
        if low.endswith(suf) and len(low) > len(suf) + 2:
            return low[: -len(suf)] + rep, True
    return low, False


def _name_like(text: str, pos: str) -> bool:
    return pos in ("NNP", "NNPS") or any(c.isdigit() for c in text) or (
        any(c.isupper() for c in text[1:]))


def _groups(sentence: Sentence) -> tuple[dict[int, int], dict[int, str]]:
    """token -> representative (group head) token, and group head -> entity id."""
    rep = {t.index: t.index for t in sentence.tokens}
    ent_of: dict[int, str] = {}
    head_of = {d.dependent: d.head for d in sentence.dependencies}
    for e in sentence.entities:
        toks = entity_tokens(sentence, e)
        if not toks:
            continue
        inside = set(toks)
        heads = [t for t in toks if head_of.get(t) not in inside]
        h = heads[-1] if heads else toks[-1]
        for t in toks:
            rep[t] = h
        ent_of.setdefault(h, e.id)
    toks = sentence.tokens
    for d in sentence.dependencies:  # multiword names: name-like compound chains
        if d.label == "compound" and rep[d.dependent] == d.dependent \
                and d.dependent not in ent_of and d.head not in ent_of \
                and _name_like(toks[d.dependent].text, toks[d.dependent].pos or "") \
                and _name_like(toks[d.head].text, toks[d.head].pos or ""):
            rep[d.dependent] = rep[d.head]
    for t in list(rep):  # resolve chains
        r = t
        while rep[r] != r:
            r = rep[r]
        rep[t] = r
    return rep, ent_of


def semantic_graph(sentence: Sentence) -> nx.MultiDiGraph:
    """Concept nodes (keyed by their head token) with ``concept``, ``text``, ``tokens``,
    ``pos``, ``event`` (bool), ``entity`` (id or None), ``polarity``; labelled edges."""
    rep, ent_of = _groups(sentence)
    toks = sentence.tokens
    g = nx.MultiDiGraph()
    members: dict[int, list[int]] = {}
    for t, r in rep.items():
        members.setdefault(r, []).append(t)
    children: dict[int, list[tuple[int, str]]] = {}
    for d in sentence.dependencies:
        children.setdefault(d.head, []).append((d.dependent, d.label))
    dropped = {d.dependent for d in sentence.dependencies if d.label in FUNCTION}
    dropped |= {d.dependent for d in sentence.dependencies
                if d.label in ("prep", "agent", "neg")}
    passive = {d.head for d in sentence.dependencies if d.label in ("nsubjpass", "auxpass")}
    for r, ms in members.items():
        if r in dropped and r not in ent_of:
            continue
        ms.sort()
        head = toks[r]
        concept, event = concept_of(head.lemma or head.text, head.pos or "")
        if r in ent_of:
            concept, event = sentence.entity(ent_of[r]).text or head.text, False
        elif len(ms) > 1:
            concept = " ".join(toks[m].text for m in ms)
        g.add_node(r, concept=concept, text=" ".join(toks[m].text for m in ms), tokens=ms,
                   pos=head.pos or "", event=event, entity=ent_of.get(r), polarity="+")
    for d in sentence.dependencies:
        h, dep, lab = rep[d.head], rep[d.dependent], d.label
        if h == dep or lab in FUNCTION or lab in ("pobj", "pcomp"):
            continue
        if lab == "neg":
            if h in g:
                g.nodes[h]["polarity"] = "-"
            continue
        if lab in ("prep", "agent"):  # X -prep-> P -pobj-> Y  ==>  X -prep_P-> Y
            p = toks[d.dependent]
            for obj, olab in children.get(d.dependent, []):
                if olab not in ("pobj", "pcomp") or rep[obj] not in g or h not in g:
                    continue
                word = (p.lemma or p.text).lower()
                label = "ARG0" if lab == "agent" or (word == "by" and d.head in passive) \
                    else f"prep_{word}"
                if lab == "prep" and g.nodes[h]["event"] and not g.nodes[h]["pos"].startswith(
                        "VB") and word in NOMINAL_ARGS:
                    label = NOMINAL_ARGS[word]
                g.add_edge(h, rep[obj], label=label)
            continue
        if h not in g or dep not in g:
            continue
        if lab == "conj":
            cc = [toks[c].lemma or toks[c].text for c, cl in children.get(d.head, [])
                  if cl == "cc"]
            label = f"conj_{(cc[0] if cc else 'and').lower()}"
        elif lab == "compound" and g.nodes[h]["event"] and not g.nodes[h]["pos"].startswith("VB"):
            label = "ARG1"  # "STAT5 phosphorylation": the modifier is the patient
        else:
            label = ROLES.get(lab, "mod")
        g.add_edge(h, dep, label=label)
    return g


def semantic_path(sentence: Sentence, e1: Entity, e2: Entity,
                  graph: nx.MultiDiGraph | None = None) -> list[Tuple]:
    """Shortest path between the two entities' concept nodes, as kernel tuples
    ``(edge, concept, concept, pos)`` with the entities blinded like
    :func:`relx.structures.shortest_path`."""
    g = semantic_graph(sentence) if graph is None else graph
    where = {data["entity"]: n for n, data in g.nodes(data=True) if data["entity"]}
    n1, n2 = where.get(e1.id), where.get(e2.id)
    others = {n for eid, n in where.items() if eid not in (e1.id, e2.id)}

    def label(n: int) -> tuple[str, str, str]:
        if n == n1:
            return PROT1, PROT1, PROT
        if n == n2:
            return PROT2, PROT2, PROT
        if n in others:
            return PROT, PROT, PROT
        d = g.nodes[n]
        c = d["concept"] if d["polarity"] == "+" else "not-" + d["concept"]
        return c, c, d["pos"]

    return labelled_path(g, n1, n2, label)
