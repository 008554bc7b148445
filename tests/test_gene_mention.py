"""The gene name inside a mention (relx.genes.mention) and how grounding uses it; the
examples are BioRED training-split mentions (fit split) relx's tagger found."""

from __future__ import annotations

import pytest

from relx.doc import Document, Entity, Sentence, Span
from relx.genes.document import ground_document, resolve
from relx.genes.mention import (
    american_spelling,
    bracket_names,
    name_parts,
    spelling_forms,
    sub_name,
    type_forms,
)
from relx.io.jsonl import document_to_json

MOUSE = "NCBITaxon:10090"


def _parts(text: str) -> list[str]:
    return [text[a:b] for a, b in name_parts(text)]


@pytest.mark.parametrize(("text", "parts"), [
    ("FGFR3 G380R mutation", ["FGFR3"]),
    ("XRCC1 Arg399Gln gene", ["XRCC1"]),
    ("SLC6A4 promoter region", ["SLC6A4"]),
    ("CASP8 -652 6N", ["CASP8"]),
    ("PER2 111G allele", ["PER2"]),
    ("b-catenin GOF mutants", ["b-catenin"]),
    ("serum GH", ["GH"]),
    ("phosphorylated-VEGFR2", ["VEGFR2"]),
    ("SLCO1B1*5", ["SLCO1B1"]),
    ("CYP2F1*2A", ["CYP2F1"]),
    ("IL1B-511CC", ["IL1B"]),
    ("FAS-670", ["FAS"]),
    ("Thra1(PV", ["Thra1"]),
    ("FLNBv4", ["FLNB"]),   # a splice variant
    ("GJB2 variants exon 4", ["GJB2"]),
    # a number that is part of the name stays
    ("VEGF receptor 1", []), ("NMDA receptor 2A", []), ("RAB-28", []), ("miR-483", []),
    ("IL-6", []), ("gene", []), ("Kv1", []),
])
def test_name_parts(text: str, parts: list[str]) -> None:
    assert _parts(text) == parts


@pytest.mark.parametrize(("text", "taxon", "expected", "part"), [
    ("SLCO1B1*5", None, "HGNC:10959", "SLCO1B1"),
    ("FGFR3 G380R mutation", None, "HGNC:3690", "FGFR3"),
    ("IL1B-511CC", None, "HGNC:5992", "IL1B"),
    ("SLC6A4 promoter region", None, "HGNC:11050", "SLC6A4"),
    ("Thra1(PV", MOUSE, "MGI:98742", "Thra1"),
    ("FLNBv4", None, "HGNC:3755", "FLNB"),
    ("human H-Ras", MOUSE, "HGNC:5173", "H-Ras"),   # the word says the species
])
def test_resolve_grounds_the_name_inside(text: str, taxon: str | None, expected: str,
                                         part: str) -> None:
    got = resolve(text, taxon)
    assert got.route == "part" and got.ids[0] == expected
    assert got.span is not None and text[slice(*got.span)] == part
    assert 0 < got.confidence < 1


@pytest.mark.parametrize(("text", "parts"), [
    # a class word after the name (naming round 65; GE 2011 abstracts)
    ("Jak kinases", ["Jak"]), ("Raf kinase", ["Raf"]), ("Jak2 kinase", ["Jak2"]),
    ("NF-kappa B transcription factor", ["NF-kappa B"]), ("AP-1 factors", ["AP-1"]),
    ("caspase protease", ["caspase"]), ("IL-2R beta chain", ["IL-2R beta"]),
    ("IL-4Ralpha chain", ["IL-4Ralpha"]),
    # round 82: phosphatases, tyrosine kinases, oncoproteins and gene products
    ("SHP-1 phosphatase", ["SHP-1"]), ("cdc25B phosphatases", ["cdc25B"]),
    ("Lyn tyrosine kinase", ["Lyn"]), ("Src tyrosine kinases", ["Src"]),
    ("c-Myc oncoprotein", ["c-Myc"]), ("Bcl-6 gene product", ["Bcl-6"]),
    ("vav protooncogene", ["vav"]), ("ras oncogene", ["ras"]),
    # not: the kinase of a name, a lower-case substrate, a participle, nothing left
    ("ERK kinase", []), ("MAP kinase kinase", []), ("glycogen synthase kinase", []),
    ("MAPK phosphatase", []), ("alkaline phosphatase", []), ("tyrosine kinase", []),
    ("TNFR-associated factors", []), ("transcription factor", []), ("beta chain", []),
    ("B chain", []), ("immunoglobulin heavy chain", []),
])
def test_name_parts_without_a_class_word(text: str, parts: list[str]) -> None:
    assert _parts(text) == parts


@pytest.mark.parametrize(("text", "expected"), [
    ("Jak kinases", "FPLX:JAK"), ("Syk kinase", "HGNC:11491"), ("p38 kinase", "FPLX:p38"),
    ("NF-kappa B transcription factor", "FPLX:NFkappaB"), ("caspase protease", "FPLX:Caspase"),
    ("IL-2R beta chain", "HGNC:6009"), ("HLA-DR alpha chain", "HGNC:4947"),
    ("SHP-1 phosphatase", "HGNC:9658"), ("Lyn tyrosine kinase", "HGNC:6735"),
    ("Jak2 tyrosine kinase", "HGNC:6192"), ("c-Myc oncoprotein", "HGNC:7553"),
])
def test_a_name_before_a_class_word_grounds(text: str, expected: str) -> None:
    got = resolve(text)
    assert got.route == "part" and expected in got.ids[:2]


@pytest.mark.parametrize(("text", "expected"), [
    # round 67: tumour necrosis factor as TNF (through orthologs too), a weight before a name
    ("tumor necrosis factor receptor-associated factor 6", "HGNC:12036"),   # TRAF6
    ("tumor necrosis factor-related apoptosis-inducing ligand", "HGNC:11925"),   # TRAIL
    ("p39c-jun", "HGNC:6204"), ("p80c-rel", "HGNC:9954"),
])
def test_abbreviated_and_weighed_names_ground(text: str, expected: str) -> None:
    assert resolve(text).ids[0] == expected


@pytest.mark.parametrize(("text", "not_it"), [
    ("NDP kinase", "HGNC:7678"), ("CaM kinase", "FPLX:CALM"), ("NFAT kinase", "FPLX:NFAT"),
    ("cyclin E-associated kinase", "FPLX:Cyclin_E")])
def test_the_kinase_of_a_gene_is_not_the_gene(text: str, not_it: str) -> None:
    # NDP (norrin), calmodulin, NFAT and cyclin E are no kinases: "X kinase" is not X
    assert resolve(text.split(" kinase")[0]).ids   # the name alone grounds
    assert not_it not in resolve(text).ids


def test_whole_mention_first() -> None:
    assert resolve("IL-6").span is None and resolve("IL-6").route == "lexicon"
    # the microRNA gene Mir483, not a mouse gene with the alias "miR"
    assert resolve("miR-483", MOUSE).ids == ("MGI:3619420",)


def test_norm_span_in_document_offsets() -> None:
    text = "The FGFR3 G380R mutation and FGFR3 G380R mutation carriers; IL-6 rose."
    names = ["FGFR3 G380R mutation", "FGFR3 G380R mutation carriers", "IL-6"]
    ents, pos = [], 0
    for i, m in enumerate(names):
        start = text.index(m, pos)
        pos = start + len(m)
        ents.append(Entity(id=f"T{i}", spans=[Span(start=start, end=pos)], text=m))
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    out = ground_document(doc, species=False).sentences[0].entities
    assert [e.norm_ids[0] for e in out] == ["HGNC:3690", "HGNC:3690", "HGNC:6018"]
    assert [text[e.norm_span.start:e.norm_span.end] if e.norm_span else None
            for e in out] == ["FGFR3", "FGFR3", None]
    line = document_to_json(doc.model_copy(update={"sentences": [
        doc.sentences[0].model_copy(update={"entities": out[2:]})]}))
    assert '"norm_span"' not in line


@pytest.mark.parametrize(("text", "forms"), [
    ("b-catenin", ["beta-catenin"]),
    ("TGF-b1", ["TGF-beta1"]),
    ("interferon-g", ["interferon-gamma", "IFN-gamma", "IFN-g"]),
    ("interferon alpha", ["IFN-alpha"]), ("interferon regulatory factor 1", []),
    ("dopamine b-hydroxylase", ["dopamine beta-hydroxylase"]),
    ("melanocortin receptor type 4", ["melanocortin 4 receptor", "melanocortin receptor 4"]),
    ("Bcl-xa", []), ("IL-2", []), ("hepatitis B", []),
    ("ICAM-I", ["ICAM-1"]), ("cyclooxygenase-II", ["cyclooxygenase-2"]),
    ("interleukin-1", ["IL-1"]), ("Interleukin 12", ["IL-12"]),
    ("tumor necrosis factor receptor", ["TNF receptor"]), ("p39c-jun", ["c-jun"]),
    ("Factor XI", ["coagulation factor XI", "Factor 11"]), ("XI", []), ("ICAM-IL", []), ("I-IV", []), ("II-III", []),
])
def test_spelling_forms(text: str, forms: list[str]) -> None:
    assert spelling_forms(text) == forms


@pytest.mark.parametrize(("text", "taxon", "expected"), [
    ("b-catenin", MOUSE, "MGI:88276"),              # Ctnnb1
    ("dopamine b-hydroxylase", None, "HGNC:2689"),  # DBH
    ("melanocortin receptor type 4", None, "HGNC:6932"),  # MC4R
    ("FGF receptor 2", None, "HGNC:3689"),          # FGFR2
    ("VEGF receptor 1", None, "HGNC:3763"),         # FLT1 (VEGFR1), not the VEGF family
    ("NMDA receptor 1", None, "HGNC:4584"),         # GRIN1 (alias NMDAR1)
    ("type VII collagen", None, "HGNC:2214"),       # COL7A1
    ("collagen 2", MOUSE, "MGI:88452"),             # Col2a1
    ("pSTAT3", None, "HGNC:11364"),                 # STAT3
    ("tBid", None, "HGNC:1050"),                    # BID, truncated
    ("sICAM-1", None, "HGNC:5344"),                 # ICAM1, soluble
    ("rhIL-2", None, "HGNC:6001"),                  # IL2, recombinant human
    ("procaspase-9", None, "HGNC:1511"),            # CASP9, precursor
    ("tumour necrosis factor", None, "HGNC:11892"),  # TNF
    ("interferon-alpha", None, "FPLX:IFNA"),        # the family, not IFNL1 (round 105)
    ("corticotrophin-releasing hormone", None, "HGNC:2355"),  # CRH
    ("haem oxygenase-1", None, "HGNC:5013"),        # HMOX1
    ("leukaemia inhibitory factor", None, "HGNC:6596"),  # LIF
    ("ICAM-I", None, "HGNC:5344"),                  # ICAM1, a Roman numeral (round 31)
    ("PAI-I", None, "HGNC:8583"),                   # SERPINE1
    ("factor XI", None, "HGNC:3529"),               # F11, coagulation factor XI
    ("endothelial NO synthase", None, "HGNC:7876"),  # NOS3 (round 59)
])
def test_resolve_other_spellings(text: str, taxon: str | None, expected: str) -> None:
    got = resolve(text, taxon)
    assert got.route == "spelling" and got.ids[0] == expected and got.confidence < 1


def test_a_spelling_reaches_a_name_only_the_mouse_lexicon_has() -> None:
    # `neuronal nitric oxide synthase` is an MGI name of Nos1; written `NO`, in human text
    got = resolve("neuronal NO synthase", "NCBITaxon:9606")
    assert got.route == "ortholog" and got.ids[0] == "HGNC:7872"     # NOS1 (round 59)
    assert spelling_forms("NO synthase") == ["nitric oxide synthase"]
    assert spelling_forms("NO donor") == []


@pytest.mark.parametrize("text", ["pRb", "p53", "collagen", "EGF receptor", "Src receptor",
                                  "sGC", "tRNA", "proteasome", "protein"])
def test_no_new_spelling_where_none_applies(text: str) -> None:
    forms = spelling_forms(text)
    assert not any(f.startswith("COL") or f == text[1:] or "R" + text[-1:] in f
                   or f in (text[2:], text[3:]) for f in forms), forms


@pytest.mark.parametrize(("text", "american"), [
    ("tumour necrosis factor", "tumor necrosis factor"), ("haem oxygenase", "heme oxygenase"),
    ("haematopoietic", "hematopoietic"), ("leukaemia", "leukemia"), ("Oestrogen", "Estrogen"),
    ("oedema", "edema"), ("sulphotransferase", "sulfotransferase"),
    ("IL-2", "IL-2"), ("Toll", "Toll"), ("tumor", "tumor"), ("oe", "oe"),
    ("Corticotrophin-releasing hormone", "Corticotropin-releasing hormone"),
    ("gonadotrophin", "gonadotropin"), ("neurotrophin", "neurotrophin"),   # its own name
])
def test_american_spelling(text: str, american: str) -> None:
    assert american_spelling(text) == american


@pytest.mark.parametrize("species", ["", " in mice"])
def test_a_domain_is_not_a_gene(species: str) -> None:
    # in mice, "SH2" is an MGI gene's synonym, reached through the mention's part (round 91)
    text = f"The SH2 domain of Grb2 binds EGFR{species}."
    spans = {"SH2 domain": (4, 14), "Grb2": (18, 22), "EGFR": (29, 33)}
    doc = Document(id="d", text=text, sentences=[Sentence(
        id="d.s0", start=0, end=len(text), text=text,
        entities=[Entity(id=f"T{i}", type="Protein", text=k, spans=[Span(start=a, end=b)])
                  for i, (k, (a, b)) in enumerate(spans.items())])])
    out = {e.text: e for e in ground_document(doc).sentences[0].entities}
    assert out["SH2 domain"].type == "Entity" and not out["SH2 domain"].norm_ids
    assert out["Grb2"].type == "Protein"
    assert out["Grb2"].norm_ids[0] == ("MGI:95805" if species else "HGNC:4566")
    assert out["EGFR"].type == "Protein"


@pytest.mark.parametrize(("text", "expected"), [
    ("VWF A2 domain", "HGNC:12726"), ("aggrecan C-type lectin domain", "HGNC:319"),
    ("Grb2 SH2 domain", "HGNC:4566")])
def test_a_domain_of_a_named_protein_is_the_protein(text: str, expected: str) -> None:
    got = resolve(text)
    assert got.ids[0] == expected and got.route == "part" and got.span[0] == 0


def test_spelling_inside_a_part() -> None:
    got = resolve("b-catenin GOF mutants", MOUSE)
    assert got.route == "part" and got.ids == ("MGI:88276",) and got.span == (0, 9)


@pytest.mark.parametrize(("text", "before", "after", "names"), [
    ("cyclooxygenase (COX)-2", "", "", ["cyclooxygenase-2", "COX-2"]),
    ("tumor necrosis factor (TNF)-alpha", "", "", ["tumor necrosis factor-alpha",
                                                     "TNF-alpha"]),
    ("Toll-like receptor", "", " (TLR) 4, and", ["Toll-like receptor-4", "TLR-4"]),
    ("transforming growth factor", "", " (TGF)-b1 was", ["transforming growth factor-b1",
                                                        "TGF-b1"]),
    ("NOD", "n (", ") 2/caspase", ["NOD-2"]),
    ("transforming growth factor", "", " (TGF)-b-inducible early gene-1", []),
    ("protein kinase C", "", " (PKC) activity", []),
])
def test_bracket_names(text: str, before: str, after: str, names: list[str]) -> None:
    assert bracket_names(text, before, after) == names


def _grounded(text: str, names: list[str]) -> list[Entity]:
    ents, pos = [], 0
    for i, m in enumerate(names):
        start = text.index(m, pos)
        pos = start + len(m)
        ents.append(Entity(id=f"T{i}", spans=[Span(start=start, end=pos)], text=m))
    doc = Document(id="d", text=text, sentences=[
        Sentence(id="s0", start=0, end=len(text), text=text, entities=ents)])
    return ground_document(doc, species=False).sentences[0].entities


def test_abbreviation_written_inside_the_long_form() -> None:
    """BioRED 17595233 and 15266215: the long form grounds with the member written after
    the brackets, and the document's later short forms take that grounding."""
    text = ("Toll-like receptor (TLR) 4 and nucleotide oligomerisation domain (NOD) 2 "
            "variants; cyclooxygenase (COX)-2 inhibitors; COX-2 rose.")
    out = _grounded(text, ["Toll-like receptor", "NOD", "cyclooxygenase (COX)-2", "COX-2"])
    assert [e.norm_ids for e in out] == [["HGNC:11850"], ["HGNC:5331"], ["HGNC:9605"],
                                         ["HGNC:9605"]]
    assert len(resolve("COX-2").ids) > 1   # on its own: PTGS2 or MT-CO2


@pytest.mark.parametrize(("text", "taxon", "expected", "part"), [
    ("Jak-Stat3", MOUSE, "MGI:103038", "Stat3"),                  # the head
    ("mTOR-Ragulator complex", None, "HGNC:3942", "mTOR"),        # a symbol
    ("E333D TRbeta mutant", None, "HGNC:11799", "TRbeta"),
])
def test_resolve_a_run_of_words_a_key_names(text: str, taxon: str | None, expected: str,
                                            part: str) -> None:
    got = resolve(text, taxon)
    assert got.route == "part" and got.ids[0] == expected
    assert got.span is not None and text[slice(*got.span)] == part


def test_a_receptor_is_not_its_ligand() -> None:
    from relx.genes.lexicon import default_grounder

    g = default_grounder()
    ids = resolve("IFN receptor").ids       # NCBI names it: IFNAR2, never an interferon
    assert all(i.startswith("HGNC:") and "R" in g.symbol(i)[3:] for i in ids)


@pytest.mark.parametrize("text", [
    "sarcomeric actin",   # one lower-case word: not a family from a generic noun
])
def test_runs_that_name_something_else_are_not_used(text: str) -> None:
    assert resolve(text).ids == ()


def test_sub_name() -> None:
    text = "RAB-28 protein"
    words = [(0, 3), (4, 6), (7, 14)]
    assert not sub_name(text, words, 0, 1)   # "RAB" before its number
    assert sub_name(text, words, 2, 3)       # the last word


@pytest.mark.parametrize(("text", "part"), [
    ("androgen receptor antagonist flutamide", "androgen receptor"),
    ("CCK1 receptor antagonist L-364,718", "CCK1 receptor"),
    ("TSPO ligand", "TSPO"),
    ("apoE-containing lipoproteins", "apoE"),
    ("DISC1-related functional", "DISC1"),
    ("NF-kappaB-dependent transcription", "NF-kappaB"),
])
def test_the_name_before_an_attribute(text: str, part: str) -> None:
    assert _parts(text)[-1] == part


def test_a_participle_inside_a_name_is_not_cut() -> None:
    assert _parts("AMP-activated protein kinase") == []      # the gene's own name
    assert resolve("AMP-activated protein kinase", "NCBITaxon:10116").ids[:1] != (
        "HMDB:HMDB00045",)                                   # never AMP, the chemical


@pytest.mark.parametrize(("text", "taxon", "expected", "part"), [
    ("glucose transporter GLUT2", MOUSE, "MGI:1095438", "GLUT2"),   # Slc2a2, other case
    ("lactate transporters GLUT1", MOUSE, "MGI:95755", "GLUT1"),
    ("androgen receptor antagonist flutamide", None, "HGNC:644", "androgen receptor"),
])
def test_resolve_the_gene_inside_a_descriptive_span(text: str, taxon: str | None,
                                                    expected: str, part: str) -> None:
    got = resolve(text, taxon)
    assert got.route == "part" and got.ids[0] == expected
    assert got.span is not None and text[slice(*got.span)] == part


@pytest.mark.parametrize("text", ["AMP-alpha2", "TGF-betaRI"])
def test_a_word_joined_by_a_hyphen_is_no_symbol_of_its_own(text: str) -> None:
    assert resolve(text, "NCBITaxon:10116").route != "part"


@pytest.mark.parametrize(("text", "expected"), [
    # round 83: a peptide's residue range or length, its oligomers (BioRED names Abeta APP)
    ("Aβ42", "HGNC:620"), ("Abeta40", "HGNC:620"), ("Aβ1-42", "HGNC:620"),
    ("Aβ(1-42)", "HGNC:620"), ("amyloid-β42", "HGNC:620"), ("Aβ oligomers", "HGNC:620"),
    ("amyloid beta peptide", "HGNC:620"), ("PTH(1-34)", "HGNC:9606"),
    ("α-synuclein fibrils", "HGNC:11138"), ("tau aggregates", "HGNC:6893"),
])
def test_a_peptide_written_with_its_residues_is_its_gene(text: str, expected: str) -> None:
    got = resolve(text)
    assert got.route == "part" and got.ids[0] == expected


@pytest.mark.parametrize("text", ["TGFβ1", "CD44", "miR-483", "Nrf2"])
def test_a_number_that_is_part_of_the_name_stays(text: str) -> None:
    assert resolve(text).route != "part"


@pytest.mark.parametrize(("text", "expected"), [
    # round 85: a receptor or enzyme numbered as a type, before the name or inside it
    ("type I IL-1 receptor", "HGNC:5993"), ("TGF-beta type I receptor", "HGNC:11772"),
    ("type II TGF-beta receptor", "HGNC:11773"), ("activin type IB receptor", "HGNC:172"),
    ("TNF receptor type II", "HGNC:11917"), ("type 2 deiodinase", "HGNC:2884"),
    ("type I IGF receptor", "HGNC:5465"),   # the type of the ligand: IGF-I receptor
    ("BMP type IA receptor", "HGNC:1076"), ("type 1 plasminogen activator inhibitor", "HGNC:8583"),
    ("type II IL-1R", "HGNC:5994"), ("17beta-hydroxysteroid dehydrogenase type IV", "HGNC:5213"),
])
def test_a_type_written_before_or_inside_a_name(text: str, expected: str) -> None:
    got = resolve(text)
    assert got.route == "affix" and got.ids[0] == expected


def test_type_forms_leave_interferons_and_bare_types_alone() -> None:
    assert type_forms("type I IL-1 receptor")[:2] == ["IL-1-1 receptor", "IL-1 receptor 1"]
    assert type_forms("X receptor type IIB") == ["X receptor 2B", "X receptor type 2B"]
    assert type_forms("type II IFN receptors") == []       # the interferons' class
    assert type_forms("type I") == [] and type_forms("IL-6 receptor") == []
    assert type_forms("type I receptor") == []                # no name beside the class word
    assert type_forms("type II interleukin-1") == []          # not "interleukin-1 2": IL12
    assert not resolve("type II IFN receptor").ids
    assert resolve("type II myosin heavy chain").ids[0] == "FPLX:MYH"   # myosin's class


@pytest.mark.parametrize(("text", "expected", "span"), [
    ("NF-kB complexes", "FPLX:NFkappaB", (0, 5)), ("AP-1 activity", "FPLX:AP1", (0, 4)),
    ("p53 binding", "HGNC:11998", (0, 3)), ("AP-1 complex", "FPLX:AP1", (0, 4))])
def test_complex_activity_and_binding_after_a_name(text: str, expected: str,
                                                   span: tuple[int, int]) -> None:
    """Naming round 92: a name of two tokens before ``complex``, ``activity`` or
    ``binding`` (before: no id)."""
    got = resolve(text)
    assert got.ids[0] == expected and got.route == "part" and got.span == span
    assert not resolve("anaphase-promoting complex").ids


@pytest.mark.parametrize(("text", "expected", "span"), [
    ("AP-1 site", "FPLX:AP1", (0, 4)), ("C/EBP sites", "FPLX:CEBP", (0, 5)),
    ("NF-kappa B binding sites", "HGNC:7794", (0, 10)), ("STAT5 element", "FPLX:STAT5", (0, 5))])
def test_a_factors_binding_site_or_element_names_the_factor(text: str, expected: str,
                                                            span: tuple[int, int]) -> None:
    """Naming round 106: ``site`` and ``element`` after a name are words around it (before:
    no id, or ``C/EBP sites`` -> EBP through its last letters)."""
    got = resolve(text, "NCBITaxon:9606")
    assert expected in got.ids[:2] and got.route == "part" and got.span == span
    assert "HGNC:3133" not in got.ids   # EBP


@pytest.mark.parametrize(("text", "expected", "span"), [
    ("AP-1-binding sites", "FPLX:AP1", (0, 4)), ("Sp 1-binding site", "HGNC:11205", (0, 4)),
    ("AP-1 enhancer", "FPLX:AP1", (0, 4))])
def test_a_binding_site_written_with_a_hyphen_names_the_factor(text: str, expected: str,
                                                               span: tuple[int, int]) -> None:
    """Naming round 108: ``X-binding`` before a site word, and ``enhancer``, name X; an
    ``X-binding protein`` is not X."""
    got = resolve(text, "NCBITaxon:9606")
    assert expected in got.ids[:2] and got.route == "part" and got.span == span
    assert not resolve("IGF-binding protein", "NCBITaxon:9606").ids
    assert resolve("CREB-binding protein", "NCBITaxon:9606").ids[0] == "HGNC:2348"   # CREBBP


@pytest.mark.parametrize(("text", "symbol"), [
    ("18-kDa translocator protein", "TSPO"), ("18 kDa translocator protein", "TSPO"),
    ("43 kDa TAR DNA-binding protein", "TARDBP")])
def test_a_mass_before_a_name_is_a_word_around_it(text: str, symbol: str) -> None:
    """Naming round 109 (before: no id); a mass alone still names nothing (round 103)."""
    from relx.genes.lexicon import default_grounder

    got = resolve(text, "NCBITaxon:9606")
    assert default_grounder().symbol(got.ids[0]) == symbol and got.route == "part"
    assert not resolve("a 95-kDa protein", "NCBITaxon:9606").ids
    assert not resolve("76-kDa receptor", "NCBITaxon:9606").ids   # one generic word
