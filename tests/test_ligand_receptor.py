"""relx.ppi.ligand_receptor (gene relations round 7b): ligand and receptor genes read off
their names, and the shipped gene relation model's rule that types them Bind."""

from __future__ import annotations

import json

import pytest

from relx.doc import Document
from relx.ppi.ligand_receptor import LigandReceptors, default_ligand_receptors, named_pairs

GENES = [("1", "IL6", "interleukin 6"), ("2", "IL6R", "interleukin 6 receptor"),
         ("3", "IL1A", "interleukin 1 alpha"), ("4", "IL12A", "interleukin 12A"),
         ("5", "IL1R1", "interleukin 1 receptor type 1"),
         ("6", "IRAK1", "interleukin 1 receptor associated kinase 1"),
         ("7", "IL1RN", "interleukin 1 receptor antagonist"),
         ("8", "TGFB1", "transforming growth factor beta 1"),
         ("9", "TGFBR2", "transforming growth factor beta receptor 2"),
         ("10", "NR1H3", "nuclear receptor subfamily 1 group H member 3"),
         ("11", "NUP98", "nucleoporin 98"), ("12", "CCL2", "C-C motif chemokine ligand 2"),
         ("13", "CCR2", "C-C motif chemokine receptor 2"),
         ("14", "CXCR4", "C-X-C motif chemokine receptor 4"),
         ("15", "CD40", "CD40 molecule"), ("16", "CD40LG", "CD40 ligand"),
         ("17", "FAS", "Fas cell surface death receptor"), ("18", "FASLG", "Fas ligand"),
         ("19", "FADD", "Fas associated via death domain")]


def test_pairs_read_off_names():
    got = set(named_pairs(GENES))
    assert got == {("1", "2"), ("3", "5"), ("8", "9"), ("12", "13"), ("16", "15"),
                   ("18", "17")}
    # not: interleukin 12A with the interleukin 1 receptor, a receptor-associated kinase or
    # antagonist, a nuclear receptor with every "nuclear ..." gene, a CC ligand with a CXC
    # receptor, Fas ligand with a Fas-associated protein


def test_the_shipped_table(tmp_path):
    table = default_ligand_receptors()
    assert ("3569", "3570") in table and ("3570", "3569") in table    # IL6, IL6R (human)
    assert ("6347", "729230") in table                                 # CCL2, CCR2
    assert ("7040", "7048") in table                                   # TGFB1, TGFBR2
    assert ("959", "958") in table                                     # CD40LG, CD40
    assert ("3569", "3716") not in table                               # IL6, JAK1
    assert 500 < len(table) < 5000
    bad = tmp_path / "t.tsv.gz"
    import gzip

    bad.write_bytes(gzip.compress(b"a\tb\n1\t2\n"))
    with pytest.raises(Exception, match="not a ligand-receptor table"):
        len(LigandReceptors(bad))


def test_a_ligand_and_its_receptor_are_typed_bind(tmp_path):
    import shutil

    import relx
    from relx.model_store import find_model_dir
    from relx.ppi.gene_relations import DEFAULT_GENE_MODEL, GeneRelationExtractor

    text = ("Interleukin-6 (IL-6) signals through its receptor IL-6R in human hepatocytes, "
            "and IL-6 induces STAT3 phosphorylation.")
    ex = relx.load()
    assert ex.meta["ligand_receptor_bind"]["precision"] > 0.5
    _, rels, _ = next(iter(ex.annotate([Document(id="d", text=text)])))
    by = {frozenset((r.gene1.id, r.gene2.id)): r for r in rels}
    lig_rec = by[frozenset(("3569", "3570"))]
    assert lig_rec.type == "Bind"
    assert lig_rec.type_probability == ex.meta["ligand_receptor_bind"]["precision"]
    assert by[frozenset(("3569", "6774"))].type != "Bind"            # IL6, STAT3
    # the same model without the rule in its meta.json: the type model's own type
    folder = tmp_path / "gr"
    shutil.copytree(find_model_dir(DEFAULT_GENE_MODEL), folder)
    meta = json.loads((folder / "meta.json").read_text())
    del meta["ligand_receptor_bind"]
    (folder / "meta.json").write_text(json.dumps(meta))
    plain = GeneRelationExtractor(folder)
    _, rels, _ = next(iter(plain.annotate([Document(id="d", text=text)])))
    assert {r.type for r in rels if {r.gene1.id, r.gene2.id} == {"3569", "3570"}} != {"Bind"}
