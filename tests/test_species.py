"""Species: organism mentions, the species of gene mentions, species-aware grounding of a
document (``ground_document``) and same-gene pairs (``same_gene``), on the shipped data."""

from __future__ import annotations

import pytest

from relx.doc import Abbreviation, Document, Entity, Sentence, Span
from relx.genes.document import ground_document
from relx.genes.lexicon import default_grounder, with_entity_updates
from relx.genes.same_gene import REASONS, same_gene
from relx.genes.species import (
    HUMAN,
    MOUSE,
    RAT,
    TAXON_NAMES,
    abbreviated_cells,
    assign_species,
    document_focus,
    find_species,
    knockout_suffix,
    mouse_genetics,
    species_prefix,
)
from relx.genes.symbol_sets import rodent_symbols
from relx.io.jsonl import document_to_json, read_jsonl, write_jsonl

YEAST, FLY, WORM, FISH = "NCBITaxon:4932", "NCBITaxon:7227", "NCBITaxon:6239", "NCBITaxon:7955"


def hits(text: str) -> list[tuple[str, str, str]]:
    return [(h.text, h.taxon, h.kind) for h in find_species(text)]


def doc_of(text: str, mentions: list[str], abbrevs: tuple[tuple[str, str], ...] = (),
           types: dict[str, str] | None = None) -> Document:
    """One whole-text sentence (as standoff input gives) with the mentions in text order."""
    ents, pos = [], 0
    for i, m in enumerate(mentions):
        start = text.index(m, pos)
        pos = start + len(m)
        ents.append(Entity(id=f"T{i}", spans=[Span(start=start, end=pos)], text=m,
                           type=(types or {}).get(m, "Protein")))
    abbreviations = []
    for short, long in abbrevs:
        ss, ls = text.index(short), text.index(long)
        abbreviations.append(Abbreviation(short=Span(start=ss, end=ss + len(short)),
                                          long=Span(start=ls, end=ls + len(long)),
                                          short_text=short, long_text=long))
    sent = Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)
    return Document(id="d", text=text, sentences=[sent], abbreviations=abbreviations)


# --- organism mentions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "taxon"),
    [
        ("Mus musculus", MOUSE), ("M. musculus", MOUSE), ("mice", MOUSE), ("Murine", MOUSE),
        ("rats", RAT), ("R. norvegicus", RAT), ("human", HUMAN), ("patients", HUMAN),
        ("women", HUMAN), ("S. cerevisiae", YEAST), ("budding yeast", YEAST),
        ("fission yeast", "NCBITaxon:4896"), ("S. pombe", "NCBITaxon:4896"),
        ("Drosophila", FLY), ("C. elegans", WORM), ("zebrafish", FISH),
        ("Xenopus laevis", "NCBITaxon:8355"), ("chicken", "NCBITaxon:9031"),
        ("Arabidopsis thaliana", "NCBITaxon:3702"), ("E.coli", "NCBITaxon:562"),
        ("porcine", "NCBITaxon:9823"), ("bovine", "NCBITaxon:9913"),
    ],
)
def test_names_common_names_adjectives(text: str, taxon: str) -> None:
    assert hits(f"We studied {text} tissue.") == [(text, taxon, "name")]


@pytest.mark.parametrize(
    ("text", "taxon"),
    [
        ("HeLa", HUMAN), ("HEK293", HUMAN), ("HEK 293T", HUMAN), ("Jurkat", HUMAN),
        ("MCF-7", HUMAN), ("MCF7", HUMAN), ("A549", HUMAN), ("HepG2", HUMAN),
        ("NIH 3T3", MOUSE), ("NIH3T3", MOUSE), ("RAW 264.7", MOUSE), ("C2C12", MOUSE),
        ("PC12", RAT), ("H9c2", RAT), ("PC-3", HUMAN), ("S2", FLY),
    ],
)
def test_cell_lines(text: str, taxon: str) -> None:
    assert hits(f"In {text} cells, p53 rose.") == [(text, taxon, "cell_line")]


def test_mentions_that_do_not_say_whose_genes() -> None:
    got = hits("Rabbit polyclonal and mouse monoclonal antibodies, fetal bovine serum; "
               "GST-p53 expressed in E. coli; a yeast two-hybrid screen; COS-7 cells; "
               "Xenopus oocytes; murine leukemia virus; human papillomavirus.")
    assert [(t, k) for t, _, k in got] == [
        ("Rabbit", "reagent"), ("mouse", "reagent"), ("bovine", "reagent"),
        ("E. coli", "host"), ("yeast", "technique"), ("COS-7", "host"),
        ("Xenopus", "host"), ("murine", "virus"), ("human", "virus")]
    # human material is human: serum, IgG; other organisms' are reagents
    assert hits("human serum")[0][2] == "name" and hits("goat and rat IgG")[0][2] == "reagent"


def test_words_that_are_not_organisms() -> None:
    assert hits("non-human primates, anti-mouse IgG, the MEN1 gene, a CAT assay, RAT1") == []
    assert hits("PC3 is a prohormone convertase; C6 and F9 are genes; mice-derived") == [
        ("mice", MOUSE, "name")]
    assert TAXON_NAMES[MOUSE] == "mouse"


def test_document_focus_is_the_most_mentioned_species() -> None:
    assert document_focus(find_species("mice, rats and rat cells; a rabbit antibody")) == RAT
    assert document_focus(find_species("mouse and human")) == MOUSE  # tie: the first
    assert document_focus(find_species("rabbit anti-p53 antibody")) is None


# --- species of gene mentions --------------------------------------------------------------


def fake_lexicon(text: str, taxon: str) -> bool:
    known = {HUMAN: {"TERT", "MTOR", "mTOR", "IL-2"}, MOUSE: {"Il2", "IL-2", "Mtor", "mTOR"},
             RAT: {"Il2", "IL-2"}}
    return text in known[taxon]


def test_species_prefix_only_when_the_whole_name_is_no_gene() -> None:
    assert species_prefix("hTERT", fake_lexicon) == (HUMAN, "TERT")
    assert species_prefix("mIL-2", fake_lexicon) == (MOUSE, "IL-2")
    assert species_prefix("r-IL-2", fake_lexicon) == (RAT, "IL-2")
    assert species_prefix("mTOR", fake_lexicon) is None  # MTOR is a human gene as written
    assert species_prefix("hnRNP", fake_lexicon) is None  # lower case after the prefix
    assert species_prefix("hXYZ", fake_lexicon) is None  # the rest is no gene
    g = default_grounder()   # round 47b: mTORC1 is FamPlex's, not a mouse TORC1
    assert species_prefix("mTORC1", g.in_lexicon) == (MOUSE, "TORC1")
    assert species_prefix("mTORC1", g.in_lexicon, g.is_family_name) is None
    assert species_prefix("hTERT", g.in_lexicon, g.is_family_name) == (HUMAN, "TERT")


def test_mirbase_prefix_names_a_micrornas_species() -> None:   # round 78
    assert species_prefix("mmu-miR-155-3p", fake_lexicon) == (MOUSE, "miR-155-3p")
    assert species_prefix("hsa-let-7a", fake_lexicon) == (HUMAN, "let-7a")
    assert species_prefix("rno-miR-9", fake_lexicon) == (RAT, "miR-9")
    assert species_prefix("hsa-TERT", fake_lexicon) is None   # miRBase's prefix: microRNAs
    text = "In mice, hsa-miR-21 rose; in human plasma mmu-miR-155-3p did not."
    ents = [Entity(id=f"T{i}", type="Protein", text=w,
                   spans=[Span(start=text.index(w), end=text.index(w) + len(w))])
            for i, w in enumerate(("hsa-miR-21", "mmu-miR-155-3p"))]
    doc = ground_document(Document(id="d", text=text, sentences=[Sentence(
        id="s0", start=0, end=len(text), text=text, entities=ents)]))
    got = [(e.taxon, e.ncbi_ids[:1]) for e in doc.sentences[0].entities]
    assert got == [(HUMAN, ["NCBIGene:406991"]), (MOUSE, ["NCBIGene:387173"])]


def test_knockout_suffix() -> None:
    assert knockout_suffix("Runx3-/-") == "-/-"
    assert knockout_suffix("Runx3 (\u2212/\u2212)") == " (\u2212/\u2212)"
    assert knockout_suffix("Runx3-deficient") == "-deficient"
    assert knockout_suffix("Runx3") is None and knockout_suffix("-/-") is None


def test_assign_species_rules_in_order() -> None:
    text = ("Tax1 binds Tax2 in human cells, and mouse Tax3 binds Tax4.\n"
            "Tax5 was knocked out: Tax5-/- animals lived. hTERT rose.\n"
            "In rats, Tax6 fell. Tax7 rose.\n"
            "Tax8 was measured.")
    doc = doc_of(text, ["Tax1", "Tax2", "Tax3", "Tax4", "Tax5", "Tax5", "hTERT", "Tax6",
                        "Tax7", "Tax8"])
    got = assign_species(doc, in_lexicon=fake_lexicon)
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(10)] == [
        (HUMAN, "sentence"), (HUMAN, "sentence"),  # nearest in the sentence
        (MOUSE, "sentence"), (MOUSE, "sentence"),
        (HUMAN, "document"),  # no species in its paragraph: the focus (human, then mouse)
        (MOUSE, "knockout"),
        (HUMAN, "prefix"),
        (RAT, "sentence"), (RAT, "paragraph"),  # paragraph = text between line breaks
        (HUMAN, "document")]


def test_knockout_in_another_model_organism() -> None:
    text = "DT40 cells and DT40 B cells were used.\nPKD3-/- cells lacked Tax1."
    got = assign_species(doc_of(text, ["PKD3", "Tax1"]))
    assert (got["T0"].taxon, got["T0"].evidence) == ("NCBITaxon:9031", "document")
    assert (got["T1"].taxon, got["T1"].evidence) == ("NCBITaxon:9031", "document")
    text = "In human cells, p53 fell.\nRunx3-/- mice lacked Tax1."  # human: still mouse
    assert assign_species(doc_of(text, ["p53", "Runx3"]))["T1"].taxon == MOUSE
    text = "In human cells, p53 fell.\nRunx3-/- cells lacked Tax1."  # cells made so (47a)
    assert assign_species(doc_of(text, ["p53", "Runx3"]))["T1"].taxon == HUMAN
    text = "In human cells, p53 fell.\nRunx3-deficient animals lacked Tax1."
    got = assign_species(doc_of(text, ["p53", "Runx3"]))["T1"]
    assert (got.taxon, got.evidence) == (MOUSE, "knockout")


def test_yeast_nomenclature_and_mammal_sentences() -> None:
    text = ("Dnm1p and Mdv1p bind Fis1 at mitochondria; YJL184w too.\n"
            "Polycomb proteins were first found in Drosophila.\n"
            "Mammalian genomes encode five CBX proteins (CBX2, CBX4). PC binds CBX7.")
    got = assign_species(doc_of(text, ["Dnm1p", "Mdv1p", "Fis1", "YJL184w", "CBX2", "CBX4",
                                       "PC", "CBX7"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(8)] == [
        (YEAST, "nomenclature"), (YEAST, "nomenclature"),
        (FLY, "document"),  # Drosophila is named: it is the focus, not the nomenclature
        (YEAST, "nomenclature"),
        (HUMAN, "mammal"), (HUMAN, "mammal"),  # a fly focus, but the sentence is on mammals
        (FLY, "document"), (FLY, "document")]  # no species in their paragraph
    only_yeast_names = doc_of("Vac8p binds Apg13 and Atg1.", ["Vac8p", "Apg13", "Atg1"])
    assert {a.taxon for a in assign_species(only_yeast_names).values()} == {YEAST}
    mouse = doc_of("In mice, mammalian Tax1 rose.\nTax2 fell.", ["Tax1", "Tax2"])
    assert {a.taxon for a in assign_species(mouse).values()} == {MOUSE}  # a mammal already


def test_xenograft_hosts_name_their_sentence_only() -> None:
    """Hosts of human tumours; once a document's mice are hosts, all its mice are."""
    assert hits("tumors from BALB/c nude mice; NOD/SCID mice; a mouse xenograft model") == [
        ("mice", MOUSE, "xenograft"), ("mice", MOUSE, "xenograft"),
        ("mouse", MOUSE, "xenograft")]
    assert hits("mice were fed; tumor-bearing C3H/HeN mice") == [  # syngeneic tumours
        ("mice", MOUSE, "name"), ("mice", MOUSE, "name")]
    text = ("Expression of HRH3 in human tissue arrays was measured. "  # PMID 19825989
            "In vivo experiments were done in BALB/c nude mice. Mice were treated with "
            "RAMH. Tumors were excised and "
            "evaluated for expression of PKCalpha and VEGF-C. Curcumin decreased growth in "
            "athymic nude mice bearing KU7 cells and decreased Sp1 levels in tumors.")
    got = assign_species(doc_of(text, ["HRH3", "PKCalpha", "VEGF-C", "Sp1"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(4)] == [
        (HUMAN, "sentence"), (HUMAN, "paragraph"), (HUMAN, "paragraph"),  # tumour: human
        (MOUSE, "sentence")]  # in the host's own sentence, BioRED gives the host's gene


def test_mice_growing_human_cell_lines_are_hosts() -> None:
    text = ("ADAM12 was knocked down in SUM159PT cells. Tumor formation in mice using "
            "transplantation assays was evaluated for ADAM12.")   # after PMID 28148288
    got = assign_species(doc_of(text, ["ADAM12", "ADAM12"]))
    assert [got["T0"].taxon, got["T1"].taxon] == [HUMAN, MOUSE]  # the host's own sentence
    later = doc_of(text + " ADAM12 raised CD44.", ["ADAM12", "ADAM12", "ADAM12", "CD44"])
    assert [a.taxon for a in assign_species(later).values()][2:] == [HUMAN, HUMAN]
    syngeneic = "Tumor formation in mice was evaluated for Adam12. Adam12 raised Cd44."
    got = assign_species(doc_of(syngeneic, ["Adam12", "Adam12", "Cd44"]))
    assert {a.taxon for a in got.values()} == {MOUSE}   # no human cell line: mouse tumours


def test_mice_with_a_genetic_change_are_no_hosts() -> None:
    """Round 43a (probe-35): in a document with xenografts, ``Axl-/- mice`` and
    ``MMTV-PyMT mice`` are the genetic model's mice, not tumour hosts."""
    text = ("MDA-MB-231 cells grew in nude mice. We crossed MMTV-PyMT mice with Axl-/- mice. "
            "Deletion of Lats1 increased Ctgf. Tumors from Axl-null mice were small.")
    got = assign_species(doc_of(text, ["Axl", "Lats1", "Ctgf", "Axl"]))
    assert [got[f"T{i}"].taxon for i in range(4)] == [MOUSE] * 4
    assert [h.kind for h in find_species(text) if h.text == "mice"] == ["xenograft"] + \
        ["name"] * 3
    before = "MDA-MB-231 cells grew in nude mice. We crossed mice. Deletion of Lats1 rose."
    assert assign_species(doc_of(before, ["Lats1"]))["T0"].taxon == HUMAN   # plain: a host


def test_a_gene_written_onto_a_cell_line_is_of_its_species() -> None:
    """Round 43b: ``AXL-depleted MDA-MB-231 cells`` right after ``nude mice``."""
    text = ("In xenografts in nude mice, AXL-depleted MDA-MB-231 cells and AXL knockdown "
            "HeLa cells grew, as did mice lacking Axl.")
    got = assign_species(doc_of(text, ["AXL", "AXL", "Axl"]))
    assert [got[f"T{i}"].taxon for i in range(3)] == [HUMAN, HUMAN, MOUSE]


def test_human_symbols_in_a_worm_paper() -> None:
    text = ("In C. elegans, RAB-28 is ciliary. Its human ortholog RAB28 and FAM161A cause "
            "retinal dystrophy. In C. elegans RAB-28 binds the BBSome.")   # after PMID 27930654
    got = assign_species(doc_of(text, ["RAB-28", "RAB28", "FAM161A", "RAB-28"]),
                         in_lexicon=default_grounder().in_lexicon)
    assert [a.taxon for a in got.values()] == [WORM, HUMAN, HUMAN, WORM]


def test_cre_lox_genetics_is_a_mouse_cue() -> None:
    text = ("We modulated the b-catenin gene by utilizing tamoxifen-inducible Cre driver line "
            "(Shh(CreERT2)). The expression of Bmp4 and Msx2 was increased. The "
            "Shh(CreERT2/+); BmprIA(flox/-) mutants were rescued. These results shed light on "
            "human ARMs.")  # PMID 24632946: mouse genes throughout
    assert [h.text for h in mouse_genetics(text)] == ["Cre", "CreERT2", "CreERT2", "(flox"]
    assert [h.text for h in mouse_genetics("CREB binds a CRE; Cre-mediated; Il6(fl/fl)")] == [
        "Cre", "(fl/fl)"]
    got = assign_species(doc_of(text, ["b-catenin", "Bmp4", "Msx2", "BmprIA"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(4)] == [
        (MOUSE, "sentence"), (MOUSE, "paragraph"), (MOUSE, "paragraph"), (MOUSE, "sentence")]
    cre = doc_of("Cre recombinase cut p53.", ["Cre recombinase", "p53"])
    assert assign_species(cre)["T1"].evidence == "default"  # Cre itself the gene mention


def test_cells_abbreviated_after_a_species_name() -> None:
    text = ("Isoforms were measured in human retinal microvascular ECs (hRMVECs). Newborn rat "
            "pups were placed into an OIR model. In hRMVECs transfected with NOX4 siRNA, "
            "STAT3 fell. The human growth hormone (hGH) rose.")  # PMID 24623966
    doc = doc_of(text, ["NOX4", "STAT3", "human growth hormone", "hGH"], abbrevs=(
        ("hRMVECs", "human retinal microvascular ECs"), ("hGH", "human growth hormone")))
    cells = abbreviated_cells(doc, find_species(text))
    assert [(h.text, h.taxon, h.kind) for h in cells] == [
        ("hRMVECs", HUMAN, "cell_line"), ("hRMVECs", HUMAN, "cell_line")]  # not hGH: a gene
    got = assign_species(doc)
    assert (got["T0"].taxon, got["T0"].evidence) == (HUMAN, "sentence")  # not the rat's
    assert (got["T1"].taxon, got["T1"].evidence) == (HUMAN, "sentence")


def test_more_human_cancer_cell_lines() -> None:
    text = ("ADAM12 expression was downregulated in claudin-low breast cancer cell lines, "
            "SUM159PT and Hs578T. Overexpression of TIPE2 inhibited the growth of lung cancer "
            "cell H446. Ishikawa et al. found PC9.")  # PMIDs 28148288, 25946186
    assert hits(text) == [("SUM159PT", HUMAN, "cell_line"), ("Hs578T", HUMAN, "cell_line"),
                          ("H446", HUMAN, "cell_line")]
    assert hits("Ishikawa cells and PC-9 cells") == [("Ishikawa", HUMAN, "cell_line"),
                                                      ("PC-9", HUMAN, "cell_line")]


def test_a_species_named_later_does_not_reach_back() -> None:
    text = ("Mal de Meleda is caused by a mutation in the gene encoding SLURP-1. In addition, "
            "murine studies have shown that nAchR signalling is important. Patients with the "
            "homozygous SLURP1 mutation are prone to melanoma. Human PBMCs were isolated. "
            "Patients lacked SLURP-1.")  # PMID 20854438
    got = assign_species(doc_of(text, ["SLURP-1", "nAchR", "SLURP1", "SLURP-1"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(4)] == [
        (HUMAN, "document"), (MOUSE, "sentence"), (HUMAN, "sentence"), (HUMAN, "sentence")]


def test_assign_species_default_and_names_inside_mentions() -> None:
    text = "chicken ovalbumin upstream promoter transcription factor binds p53."
    doc = doc_of(text, ["chicken ovalbumin upstream promoter transcription factor", "p53"])
    got = assign_species(doc)
    assert {a.taxon for a in got.values()} == {HUMAN}  # "chicken" is part of a gene name
    assert {a.evidence for a in got.values()} == {"default"}
    doc = doc_of("Fly Tax1 and Tax2.", ["Tax1", "Tax2"], types={"Tax2": "Chemical"})
    assert set(assign_species(doc, default=FISH)) == {"T0"}  # genes only
    assert assign_species(doc)["T0"].evidence == "default"  # "Fly": not a term ("flies" is)


# --- species-aware grounding of a document ---------------------------------------------------


TEXT = ("IL-2 and p53 in murine T cells; Runx3-/- T cells lacked IL-2.\n"
        "In human HeLa cells IL-2, hTERT, GST-p53, ERK1 and 2, IL-2/4 and Xyzzy1 were "
        "seen; the progesterone receptor (PR) and IL-2 (interleukin-2) too.\n"
        "Ste5 bound Ste11 in yeast. Nutlin-3 was added.")
MENTIONS = ["IL-2", "p53", "Runx3", "IL-2", "IL-2", "hTERT", "GST-p53", "ERK1 and 2",
            "IL-2/4", "Xyzzy1", "progesterone receptor", "PR", "IL-2", "interleukin-2",
            "Ste5", "Ste11", "Nutlin-3"]


@pytest.fixture(scope="module")
def grounded() -> Document:
    doc = doc_of(TEXT, MENTIONS, (("PR", "progesterone receptor"), ("IL-2", "interleukin-2")))
    return ground_document(doc, calibration=False)   # the rules' raw confidences


def test_ground_document_species_ids_confidence(grounded: Document) -> None:
    got = [(e.text, e.taxon, e.norm_ids[:2], e.grounded) for e in grounded.sentences[0].entities]
    assert got == [
        ("IL-2", MOUSE, ["MGI:96548"], True),
        ("p53", MOUSE, ["MGI:98834"], True),
        ("Runx3", MOUSE, ["MGI:102672"], True),
        ("IL-2", MOUSE, ["MGI:96548"], True),
        ("IL-2", HUMAN, ["HGNC:6001"], True),
        ("hTERT", HUMAN, ["HGNC:11730"], True),
        ("GST-p53", HUMAN, ["HGNC:11998"], True),
        ("ERK1 and 2", HUMAN, ["FPLX:ERK"], True),
        ("IL-2/4", HUMAN, ["HGNC:6001", "HGNC:6014"], True),
        ("Xyzzy1", HUMAN, [], False),
        ("progesterone receptor", HUMAN, ["HGNC:8910"], True),
        ("PR", HUMAN, ["HGNC:8910"], True),  # ambiguous short form: its long form's
        ("IL-2", HUMAN, ["HGNC:6001"], True),
        ("interleukin-2", HUMAN, ["HGNC:6001"], True),
        ("Ste5", YEAST, [], False),  # no yeast lexicon: not grounded, never a human id
        ("Ste11", YEAST, [], False),
        ("Nutlin-3", None, ["PUBCHEM:16755649"], True),  # only a chemical: typed Chemical
    ]
    ents = grounded.sentences[0].entities
    assert ents[-1].type == "Chemical"
    conf = {e.text: e.norm_confidence for e in ents}
    assert conf["IL-2"] == 1.0 and conf["Xyzzy1"] == conf["Ste5"] == 0.0
    assert conf["GST-p53"] < 1.0 and conf["PR"] < 1.0
    assert all(0.0 <= e.norm_confidence <= 1.0 for e in ents)


def test_ground_document_species_list_and_json(grounded: Document, tmp_path) -> None:
    assert [(s.text, s.taxon, s.kind) for s in grounded.species] == [
        ("murine", MOUSE, "name"), ("human", HUMAN, "name"), ("HeLa", HUMAN, "cell_line"),
        ("yeast", YEAST, "name")]
    path = tmp_path / "out.jsonl"
    write_jsonl([grounded], path)
    [back] = read_jsonl(path)
    assert back == grounded
    assert '"taxon":"NCBITaxon:10090"' in document_to_json(grounded)


def test_ground_document_one_grounding_per_form_and_options() -> None:
    doc = doc_of("IL-2 and IL 2 and il-2 in mice; Tax was given.", ["IL-2", "IL 2", "il-2", "Tax"])
    doc.sentences[0].entities[3].norm_ids = ["NCBIGene:999"]
    out = ground_document(doc).sentences[0].entities
    assert out[0].norm_ids == out[1].norm_ids == ["MGI:96548"]
    assert out[0].norm_confidence == out[1].norm_confidence  # one grounding per form
    assert out[3].norm_ids != ["NCBIGene:999"]  # overwrite by default
    kept = ground_document(doc, overwrite=False).sentences[0].entities[3]
    assert kept.norm_ids == ["NCBIGene:999"] and kept.taxon is None
    given = ground_document(doc, keep_given=True).sentences[0].entities[3]
    assert given.norm_ids[0] == "NCBIGene:999" and given.norm_confidence is None
    human = ground_document(doc, species=False)
    assert human.species is None
    assert [e.taxon for e in human.sentences[0].entities] == [HUMAN] * 4
    assert human.sentences[0].entities[0].norm_ids == ["HGNC:6001"]
    assert doc.sentences[0].entities[0].taxon is None  # input left untouched
    # every entity of the output is a copy, whatever the later passes leave unchanged
    shared = {id(e) for e in doc.sentences[0].entities}
    assert not shared & {id(e) for e in out}
    unchanged = with_entity_updates(human, lambda e: {}, copy_unchanged=False)
    assert [id(e) for e in unchanged.sentences[0].entities] == [
        id(e) for e in human.sentences[0].entities]
    assert unchanged.sentences[0] is not human.sentences[0]


def test_abbreviation_long_form_takes_its_short_forms_grounding() -> None:
    doc = doc_of("The zorbic kinase (RUNX3) binds p53; zorbic kinase acts.",
                 ["zorbic kinase", "RUNX3", "p53", "zorbic kinase"],
                 (("RUNX3", "zorbic kinase"),))
    out = ground_document(doc, default_grounder()).sentences[0].entities
    assert out[0].norm_ids == out[3].norm_ids == ["HGNC:10473"]
    assert out[0].norm_confidence < out[1].norm_confidence


# --- same-gene pairs ---------------------------------------------------------------------------


SAME = ("Carbonyl reductase 3 (CBR3) and NOD2/CARD15 act; caspases, e.g. caspase-3, and "
        "the cysteine protease caspase-7 cleave PARP; NF-kappaB p65 and NF-kappaB bind; "
        "mouse Il2 and human IL-2 differ; Foo1 and Foo1 and p53 too.")


@pytest.fixture(scope="module")
def same() -> tuple[Document, dict[str, Entity]]:
    doc = doc_of(SAME, ["Carbonyl reductase 3", "CBR3", "NOD2", "CARD15", "caspases",
                        "caspase-3", "cysteine protease", "caspase-7", "PARP",
                        "NF-kappaB p65", "NF-kappaB", "Il2", "IL-2", "Foo1", "Foo1", "p53"],
                 (("CBR3", "Carbonyl reductase 3"),))
    doc = ground_document(doc)
    ents = doc.sentences[0].entities
    return doc, {f"{e.text}#{i}": e for i, e in enumerate(ents)}


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ("Carbonyl reductase 3#0", "CBR3#1", "same id"),
        ("NOD2#2", "CARD15#3", "same id"),  # CARD15 is NOD2's previous symbol
        # the family is named as the member the document names first (round 56)
        ("caspases#4", "caspase-3#5", "same id"),
        ("caspase-7#7", "caspases#4", "family member"),
        ("cysteine protease#6", "caspase-7#7", "generic class"),
        ("NF-kappaB p65#9", "NF-kappaB#10", "complex subunit"),
        ("Il2#11", "IL-2#12", "ortholog"),
        ("Foo1#13", "Foo1#14", "same text"),
        ("caspase-3#5", "caspase-7#7", None),
        ("caspase-7#7", "PARP#8", None),
        ("Foo1#13", "p53#15", None),
        ("cysteine protease#6", "PARP#8", None),  # not in apposition
    ],
)
def test_same_gene(same: tuple[Document, dict[str, Entity]], a: str, b: str,
                   reason: str | None) -> None:
    doc, ents = same
    assert same_gene(ents[a], ents[b], doc) == reason
    assert reason is None or reason in REASONS


def test_same_gene_abbreviation_synonym_and_ungrounded_input() -> None:
    doc = doc_of("zorbic kinase (ZK1) and NOD2/PFX9; zorbic kinase and ZK1.",
                 ["zorbic kinase", "ZK1", "NOD2", "PFX9"], (("ZK1", "zorbic kinase"),))
    e = doc.sentences[0].entities  # not grounded yet: same_gene grounds them itself
    assert same_gene(e[0], e[1], doc) == "abbreviation"
    assert same_gene(e[2], e[3], doc) is None  # PFX9 grounds to nothing
    doc = doc_of("NOD2/CARD15", ["NOD2", "CARD15"])
    e = doc.sentences[0].entities
    e[0].norm_ids, e[1].norm_ids = ["HGNC:5331"], ["HGNC:1", "HGNC:5331"]
    assert same_gene(e[0], e[1], doc) == "synonym"  # written as alternatives, an id shared


def test_a_mammal_with_no_lexicon_takes_its_genes_human_ortholog() -> None:
    doc = doc_of("In sheep pituitary cells BMP-4 inhibited FSHbeta. Ste5 is in yeast.",
                 ["BMP-4", "FSHbeta", "Ste5"])
    raw = ground_document(doc, calibration=False).sentences[0].entities
    bmp4 = raw[0]
    assert bmp4.taxon == "NCBITaxon:9940"              # the entity keeps its species
    assert bmp4.norm_ids[0] == "HGNC:1071" and bmp4.ncbi_ids[0] == "NCBIGene:652"
    assert bmp4.norm_confidence < 1.0                  # through an ortholog
    assert raw[2].norm_ids == []                       # yeast is no mammal: no human id


def test_a_model_organism_in_a_document_that_names_human_takes_human_ids() -> None:
    # naming round 68 (GE 2011, PMID 7657162): a fly extract as a technique
    text = ("LEF-1 acts in Jurkat T cells. Using extracts of Drosophila embryos, LEF-1 and "
            "Ets-1 activate transcription.")
    raw = ground_document(doc_of(text, ["LEF-1", "LEF-1", "Ets-1"]),
                          calibration=False).sentences[0].entities
    assert raw[1].taxon == "NCBITaxon:7227"               # the entity keeps its species
    assert [e.norm_ids[0] for e in raw] == ["HGNC:6551", "HGNC:6551", "HGNC:3488"]
    assert raw[2].norm_confidence < 1.0                   # through an ortholog
    fly = "Using extracts of Drosophila embryos, LEF-1 and Ets-1 activate transcription."
    raw = ground_document(doc_of(fly, ["LEF-1", "Ets-1"]), calibration=False
                          ).sentences[0].entities
    assert [e.norm_ids for e in raw] == [[], []]          # no human named: no human ids


def test_a_yeast_mention_not_written_as_a_yeast_gene_takes_human_ids() -> None:
    # naming round 72 (PPI abstracts): human proteins studied in yeast
    text = "Bcl-2 and Bax were expressed in yeast, with MSH2 and Aip1p."
    raw = ground_document(doc_of(text, ["Bcl-2", "Bax", "MSH2", "Aip1p"]),
                          calibration=False).sentences[0].entities
    assert {e.taxon for e in raw} == {"NCBITaxon:4932"}   # the entities keep their species
    assert [e.norm_ids[:1] for e in raw] == [["HGNC:990"], ["HGNC:959"], [], []]
    assert raw[0].norm_confidence < 1.0                    # through an ortholog


def test_rodent_nomenclature_names_the_rodent_the_document_names() -> None:
    text = ("Loss of Tet2 in murine stem cells enhances self-renewal. In human AML samples, "
            "TET2 mutations co-occurred with FLT3. Mechanistically, Tet2 interacts with Hdac2. "
            "TUBA1A is mutated in humans; Tuba1a mutants migrate slowly.")
    mentions = ["Tet2", "TET2", "FLT3", "Tet2", "Hdac2", "TUBA1A", "Tuba1a"]
    rodent = rodent_symbols(default_grounder())
    assert {"Tet2", "Hdac2", "Tuba1a", "Il6ra"} <= rodent
    assert not {"TET2", "FLT3", "C1orf112"} & rodent   # human symbols as written are not
    got = assign_species(doc_of(text, mentions), rodent_symbol=rodent.__contains__)
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(7)] == [
        (MOUSE, "sentence"), (HUMAN, "sentence"), (HUMAN, "sentence"),
        (MOUSE, "nomenclature"), (MOUSE, "nomenclature"),   # the paragraph says human
        (HUMAN, "sentence"),           # its own sentence decides ...
        (MOUSE, "nomenclature")]       # ... unless it says only human (round 41b)
    before = assign_species(doc_of(text, mentions))
    assert before["T3"].taxon == HUMAN and before["T3"].evidence == "paragraph"
    rat = "Rats were fed fat. Leptin fell. In human obesity, LEP is high. Lepr was low."
    got = assign_species(doc_of(rat, ["Leptin", "LEP", "Lepr"]),
                         rodent_symbol=rodent.__contains__)
    assert [got[f"T{i}"].taxon for i in range(3)] == [RAT, HUMAN, RAT]
    none = "Tet2 binds Hdac2 in AML."        # no rodent named: the rules as before
    got = assign_species(doc_of(none, ["Tet2", "Hdac2"]), rodent_symbol=rodent.__contains__)
    assert {a.taxon for a in got.values()} == {HUMAN}


def test_a_microbe_is_the_species_of_its_own_genes_only() -> None:
    """Host cells stimulated with a fungus: the host's genes are not the fungus's; the
    microbe's own genes in its sentence are (round 33; probe-25)."""
    text = ("We stimulated monocytes with Candida albicans. IL-10 was induced by C. albicans. "
            "TLR2 antibodies reduced IL-10. The C. albicans Als3 adhesin bound.")
    g = default_grounder()
    got = assign_species(doc_of(text, ["IL-10", "TLR2", "IL-10", "Als3"]),
                         in_lexicon=g.in_lexicon)
    assert [got[f"T{i}"].taxon for i in range(4)] == [HUMAN, HUMAN, HUMAN, "NCBITaxon:5476"]
    assert [got[f"T{i}"].evidence for i in range(3)] == ["default"] * 3
    # an infected host named in the sentence: its genes are the host's
    text = "Mice were infected with C. albicans; IL-17 rose."
    got = assign_species(doc_of(text, ["IL-17"]), in_lexicon=g.in_lexicon)
    assert (got["T0"].taxon, got["T0"].evidence) == (MOUSE, "sentence")


def test_an_organism_a_gene_is_compared_with_names_its_sentence_only() -> None:
    """``the human homologues of the Drosophila genes``: the fly names the genes of its
    sentence, not those of the next ones (round 39; probe-27)."""
    text = ("Patients carried mutations in DCHS1, the human homologue of the Drosophila gene "
            "dachsous. Knockdown of DCHS1 raised YAP.")
    assert [(t, k) for t, _, k in hits(text)] == [
        ("Patients", "name"), ("human", "name"), ("Drosophila", "comparison")]
    got = assign_species(doc_of(text, ["DCHS1", "dachsous", "DCHS1", "YAP"]))
    assert [got[f"T{i}"].taxon for i in range(4)] == [HUMAN, FLY, HUMAN, HUMAN]


def test_a_knockout_is_the_gene_of_the_animal_written_after_it() -> None:
    """Round 41b: ``leptin-deficient mice`` names a mouse gene though ``human`` is nearer;
    ``Lep-/- rats`` a rat gene; a mention with no marker is not moved."""
    text = "FGF21 in human NAFLD and leptin-deficient mice. Lepr-/- rats and human LEP mice."
    got = assign_species(doc_of(text, ["FGF21", "leptin", "Lepr", "LEP"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(4)] == [
        (HUMAN, "sentence"), (MOUSE, "knockout"), (RAT, "knockout"), (HUMAN, "sentence")]


def test_a_rodent_symbol_beside_a_human_disease_is_the_rodent_gene() -> None:
    """Round 41b: in a mouse study, ``Tet2 ... in human AML`` is the mouse gene when its
    sentence names no other species; ``TET2`` there stays human."""
    text = ("Tet2 loss in mice expands stem cells. Tet2 and TET2 act as observed in human AML. "
            "Tet2 binds Hdac2 in human HEK293 cells and mouse cells.")
    rodent = rodent_symbols(default_grounder())
    got = assign_species(doc_of(text, ["Tet2", "Tet2", "TET2", "Tet2"]),
                         rodent_symbol=rodent.__contains__)
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(4)] == [
        (MOUSE, "sentence"), (MOUSE, "nomenclature"), (HUMAN, "sentence"),
        (HUMAN, "sentence")]   # the last sentence names mice too: its nearest decides


def test_probands_and_kindreds_are_people() -> None:
    for word in ("probands", "proband", "kindreds", "participants"):
        assert hits(f"412 {word} were sequenced") == [(word, HUMAN, "name")]
    assert hits("carriers of the allele") == []


def test_a_sentence_for_the_study_takes_the_documents_focus() -> None:
    """Round 46b: in a mouse study, the sentence after one on human biopsies that speaks
    for the study itself (``These findings ...``) is the mouse's; others look back."""
    text = ("Smad3-/- mice were protected in mice. Nuclear SMAD3 rose in human biopsies. "
            "These findings identify a Snail axis. Snail was induced. We tested Twist.")
    got = assign_species(doc_of(text, ["Smad3", "SMAD3", "Snail", "Snail", "Twist"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in range(5)] == [
        (MOUSE, "knockout"), (HUMAN, "sentence"), (MOUSE, "document"),
        (HUMAN, "paragraph"), (MOUSE, "document")]


def test_mutations_that_cause_an_inherited_disease_are_peoples() -> None:
    """Round 51d: in a mouse study, a sentence naming no organism that says mutations in a
    gene cause a familial disease speaks of people; the study's own sentences stay mouse."""
    text = ("Mutations in SOD1 cause familial ALS. SOD1 aggregates were seen in mice. "
            "Loss of Trem2 raised Syk in mice. Deletion of Trem2 raised Syk.")
    got = assign_species(doc_of(text, ["SOD1", "SOD1", "Trem2", "Syk", "Trem2", "Syk"]))
    assert [(got[f"T{i}"].taxon, got[f"T{i}"].evidence) for i in (0, 1, 4)] == [
        (HUMAN, "inherited"), (MOUSE, "sentence"), (MOUSE, "paragraph")]


def test_the_name_part_of_a_mention() -> None:
    """Round 51c: a species prefix and a rodent symbol are read without class words before
    the name and attribute words after it."""
    from relx.genes.mention_species import name_part

    assert name_part("kinase Syk") == "Syk"
    assert name_part("hSOD1 protein") == "hSOD1"
    assert name_part("Bdnf mRNA levels") == "Bdnf mRNA"
    assert name_part("protein") == "protein" and name_part("SOD1") == "SOD1"
