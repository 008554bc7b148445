"""relx.genes.more_mentions: the tagger's missed occurrences and symbols as written."""

from __future__ import annotations

from relx.genes.document import resolve
from relx.genes.greek_names import with_greek_names
from relx.genes.more_mentions import (
    approved_symbols,
    more_mentions,
    with_full_names,
    with_long_forms,
    with_short_forms,
    without_other_things,
    written_symbols,
)


def spans_of(text: str, *words: str) -> list[tuple[int, int]]:
    out, at = [], 0
    for w in words:
        i = text.index(w, at)
        out.append((i, i + len(w)))
        at = i + len(w)
    return out


def test_a_tagged_gene_name_is_a_mention_wherever_the_text_writes_it():
    text = "CCR2 binds CCL2. Mice without CCR2 had fewer monocytes; CCR2-high cells too."
    tagged = spans_of(text, "CCR2", "CCL2")
    added = more_mentions(text, tagged)
    assert [text[a:b] for a, b in added] == ["CCR2"]   # not inside "CCR2-high"
    assert added[0][0] == text.index("CCR2", 20)


def test_a_name_tagged_at_a_sentence_start_is_copied_with_a_lower_case_letter():
    text = "Factor XI in thrombosis\n\nPlasma factor XI rose. High Factor XI levels."
    added = more_mentions(text, spans_of(text, "Factor XI"))
    assert [text[a:b] for a, b in added] == ["factor XI", "Factor XI"]
    text = "Plasma Factor XI rose; factor XI fell."   # not at a sentence start: as written
    assert more_mentions(text, spans_of(text, "Factor XI")) == []


def test_a_tagged_name_that_grounds_to_no_gene_is_not_copied():
    text = "T1D risk rose. In T1D, insulin fell."
    tagged = spans_of(text, "T1D")   # the tagger's error: a disease
    assert more_mentions(text, tagged) == []


def test_an_approved_symbol_written_as_such_is_a_mention():
    text = "Was it so? Loss of GADD45A and FASN was seen."
    added = [text[a:b] for a, b in more_mentions(text, [])]
    assert added == ["GADD45A", "FASN"]   # "Was" (HGNC WAS, MGI Was) begins a sentence


def test_an_approved_symbol_written_with_its_hyphen_is_a_mention():
    """Naming round 94: ``HLA-B``, ``CDKN2B-AS1`` (compact ``HLAB``); a read-through of two
    approved symbols (``INS-IGF2``) is not taken whole."""
    text = "Star alleles of TPMT, DPYD and HLA-B. ANRIL (CDKN2B-AS1) and INS-IGF2 rose."
    added = [text[a:b] for a, b in more_mentions(text, [])]
    assert "HLA-B" in added and "CDKN2B-AS1" in added and "INS-IGF2" not in added
    assert resolve("HLA-B").ids[0] == "HGNC:4932"


def test_a_symbol_written_with_a_hyphen_before_its_number_is_a_mention():
    """Naming round 95: ``LAG-3`` (LAG3), ``IGF-1R``; not the cell line ``HK-2`` (HK2)."""
    text = "Exhausted cells co-expressed LAG-3 and IGF-1R. HK-2 cells were treated."
    added = [text[a:b] for a, b in more_mentions(text, [])]
    assert "LAG-3" in added and "IGF-1R" in added and "HK-2" not in added
    assert resolve("LAG-3").ids[0] == "HGNC:6476"


def test_a_mature_microrna_written_with_its_arm_is_a_mention():
    text = "SNHG1 sponged miR-195-5p and hsa-let-7a-3p; miR-9999-5p and miR-195 did not."
    at = text.rindex("miR-195")   # tagged on its own, at the end
    tagged = [*spans_of(text, "SNHG1"), (at, at + len("miR-195"))]
    added = [text[a:b] for a, b in more_mentions(text, tagged)]
    assert added == ["miR-195-5p", "hsa-let-7a-3p"]   # no gene MIR9999
    assert resolve("miR-195-5p").ids == resolve("miR-195").ids != ()


def test_a_rodent_symbol_written_as_such_is_a_mention():
    text = ("Clock mutant mice. Pten loss increased Srebf1 and Pparg. Tnf rose; "
            "so did Il6. In human cells SREBF1 and Clock fell.")
    added = [text[a:b] for a, b in more_mentions(text, [])]
    # "Clock", "Pten", "Tnf" begin sentences; a digit makes a symbol one anywhere (Il6)
    assert added == ["Srebf1", "Pparg", "Il6", "SREBF1", "Clock"]


def test_a_symbol_defined_as_something_else_is_not_a_mention():
    text = "Patients with coronary artery disease (CAD) and CAD risk genes."
    assert more_mentions(text, [], [("CAD", "coronary artery disease")]) == []
    # defined as the gene's own long form it stays
    long = "carbamoyl-phosphate synthetase 2, aspartate transcarbamylase, and dihydroorotase"
    text2 = f"{long} (CAD) and CAD activity"
    got = more_mentions(text2, [], [("CAD", long)])
    assert [text2[a:b] for a, b in got] == ["CAD", "CAD"]


def test_the_symbol_table_is_the_lexicons_approved_symbols():
    from relx.genes.lexicon import default_grounder

    symbols = approved_symbols(default_grounder())
    assert {"TP53", "FASN", "GADD45A"} <= symbols
    assert "p53" not in symbols and "Trp53" not in symbols


def test_a_lower_case_name_of_one_gene_is_a_mention_but_not_a_disease():
    text = "Serum ghrelin and hippocalcin rose; glomerulosclerosis and protein did not."
    added = [text[a:b] for a, b in more_mentions(text, [])]
    assert added == ["ghrelin", "hippocalcin"]


def test_a_one_gene_name_with_a_capital_or_from_famplex_is_a_mention():
    text = ("Mfn2 loss reduced phosphorylation of Parkin and raptor. Klotho fell; serum "
            "Klotho and survivin rose.")
    added = [text[a:b] for a, b in more_mentions(text, [])]
    # "Parkin", "raptor", "survivin": FamPlex's names of one gene; "Klotho" is written
    # "klotho" by the lexicon, so only where it does not begin a sentence
    assert added == ["Mfn2", "Parkin", "raptor", "Klotho", "survivin"]
    # NCBI's other designations name genes too (podocin: NPHS2)
    text = "Loss of podocin."
    assert [text[a:b] for a, b in more_mentions(text, [])] == ["podocin"]


def test_whole_words_finds_what_the_word_pattern_found() -> None:
    """:func:`_whole_words` (``str.find`` and boundary checks) against the regular
    expression it replaced, on names with pattern characters, hyphens, underscores,
    repeats and non-ASCII letters and digits around them."""
    import re

    from relx.genes.more_mentions import _whole_words

    text = ("IL-2 IL-2R sIL-2 IL-2-IL-2 (IL-2) IL-2_x é IL-2é ²IL-2 IL-2² IL-2IL-2 "
            "c-Myc c-Myc. [c-Myc] c-Myc-c-Myc NF-kappaB+ NF-kappaB+NF-kappaB+ aaa aaaa")
    for name in ("IL-2", "c-Myc", "NF-kappaB+", "aa", "IL-2 IL-2", "é", "2"):
        want = [m.span() for m in re.finditer(
            r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text)]
        assert list(_whole_words(name, text)) == want, name


def test_a_previous_or_alias_symbol_of_one_gene_can_be_a_mention():
    from relx.genes.lexicon import default_grounder

    g = default_grounder()
    written = written_symbols(g, ("previous", "alias"))
    assert {"CTGF", "CYR61", "PDL1"} <= written                 # CCN2, CCN1, CD274
    assert "TAZ" not in written                                 # TAFAZZIN's and WWTR1's
    assert not written & approved_symbols(g)
    assert written_symbols(g, ("previous",)) <= written
    text = "CTGF and CYR61 fell, as did TAZ."
    assert more_mentions(text, []) == []                        # not by default (round 13)
    from relx.genes import more_mentions as module

    keep, module.WRITTEN_SOURCES = module.WRITTEN_SOURCES, ("previous",)
    try:
        assert [text[a:b] for a, b in more_mentions(text, [])] == ["CTGF", "CYR61"]
    finally:
        module.WRITTEN_SOURCES = keep


def long_form(text: str, short: str, long: str) -> tuple[str, int, int]:
    i = text.index(long)
    return short, i, i + len(long)


def test_the_long_form_of_a_tagged_short_form_is_a_mention():
    text = "Mitofusin 2 (MFN2) tethers mitochondria; MFN2 binds Parkin."
    tagged = spans_of(text, "MFN2", "MFN2")
    got = with_long_forms(text, tagged, [long_form(text, "MFN2", "Mitofusin 2")])
    assert [text[a:b] for a, b in got] == ["Mitofusin 2", "MFN2", "MFN2"]


def test_a_tagged_tail_of_a_long_form_becomes_the_long_form():
    text = "Pancreatic and duodenal homeobox 1 (PDX1) was preserved."
    tagged = spans_of(text, "homeobox 1", "PDX1")   # the tail names HMX1, not PDX1
    got = with_long_forms(text, tagged, [
        long_form(text, "PDX1", "Pancreatic and duodenal homeobox 1")])
    assert [text[a:b] for a, b in got] == ["Pancreatic and duodenal homeobox 1", "PDX1"]


def test_a_tagged_head_of_a_long_form_becomes_it_when_it_names_the_short_forms_gene():
    text = "CD2-associated protein (CD2AP) and TNF receptor-associated factor 6 (TRAF6)."
    tagged = spans_of(text, "CD2", "CD2AP", "TNF receptor", "TRAF6")
    got = with_long_forms(text, tagged, [
        long_form(text, "CD2AP", "CD2-associated protein"),
        long_form(text, "TRAF6", "TNF receptor-associated factor 6")])
    assert [text[a:b] for a, b in got] == [
        "CD2-associated protein", "CD2AP", "TNF receptor-associated factor 6", "TRAF6"]


def test_a_tail_naming_nothing_becomes_a_long_form_named_by_its_short_form():
    text = "Transient receptor potential vanilloid 1 (TRPV1) was sensitised."
    tagged = spans_of(text, "vanilloid 1", "TRPV1")
    got = with_long_forms(text, tagged, [
        long_form(text, "TRPV1", "Transient receptor potential vanilloid 1")])
    assert [text[a:b] for a, b in got] == [
        "Transient receptor potential vanilloid 1", "TRPV1"]
    # a head that names another gene, in a long form in no lexicon, stays
    text2 = "Transient receptor potential vanilloid 1 (TRPV1) was sensitised."
    tagged2 = spans_of(text2, "Transient", "TRPV1")
    assert with_long_forms(text2, tagged2, [
        long_form(text2, "TRPV1", "Transient receptor potential vanilloid 1")]) == tagged2


def test_a_long_form_that_names_no_gene_or_a_reaching_mention_is_left_alone():
    text = ("cerebral autosomal dominant arteriopathy (CADA) in NOTCH3 carriers; "
            "loss of Mitofusin 2 (MFN2).")
    tagged = spans_of(text, "NOTCH3", "loss of Mitofusin", "MFN2")
    forms = [long_form(text, "CADA", "cerebral autosomal dominant arteriopathy"),
             long_form(text, "MFN2", "Mitofusin 2")]
    assert with_long_forms(text, tagged, forms) == sorted(tagged)
    # nor a short form that is neither tagged nor a gene's
    text2 = "Mitofusin 2 (QZX) was low."
    assert with_long_forms(text2, [], [long_form(text2, "QZX", "Mitofusin 2")]) == []


def test_the_gene_of_a_cre_driver_or_reporter_is_a_mention():
    from relx.genes.more_mentions import with_construct_genes

    text = "Nphs1-Cre; Nphs2 fl/fl mice and Oct4-GFP fibroblasts, not Vav-Cre or Xq-Cre."
    tagged = spans_of(text, "Nphs2", "Oct4-GFP")   # the tagger took the reporter whole
    got = [text[a:b] for a, b in with_construct_genes(text, tagged)]
    assert got == ["Nphs1", "Nphs2", "Oct4"]   # "Vav" and "Xq" name no gene as written


def test_a_name_that_begins_with_a_greek_letter_is_a_mention():
    text = "Levels of α-synuclein and β-arrestin 2 rose; beta-Klotho and β-cells did not."
    got = with_greek_names(text, spans_of(text, "Klotho"))
    assert [text[a:b] for a, b in got] == ["α-synuclein", "β-arrestin 2", "beta-Klotho"]
    # a mention reaching outside the word stays as it is
    text = "The β-catenin/TCF complex"
    assert with_greek_names(text, spans_of(text, "catenin/TCF")) == spans_of(text, "catenin/TCF")


def test_a_name_that_ends_in_a_greek_letter_is_a_mention():
    """Round 49 (probe-45): ``eIF2α`` the tagger misses before ``in human islets``; not a
    family (``TGF-β``, ``NF-κB``) nor a word that names nothing (``Hβ``)."""
    text = "Phosphorylation of eIF2α and PKCδ in human islets; TGF-β, NF-κB and Hβ."
    got = with_greek_names(text, [])
    assert [text[a:b] for a, b in got] == ["eIF2α", "PKCδ"]


def test_a_greek_letter_written_as_its_latin_initial_ends_a_name():
    """Round 52: PubMed's ASCII texts write ``TNFα`` as ``TNFa``; the rest of the word has
    two capitals or a digit (not ``Rab``, ``Data``), and spelled out it names one gene (not
    the ``NF-kB`` family, not ``DNA``)."""
    text = "Serum TNFa, PPARg and IkBa rose; eIF2a fell. Data on Rab, DNA and NF-kB."
    got = with_greek_names(text, [])
    assert [text[a:b] for a, b in got] == ["TNFa", "PPARg", "IkBa", "eIF2a"]


def test_the_short_form_of_a_gene_long_form_is_a_mention():
    text = ("Levels of postsynaptic density protein 95 (PSD-95) fell; PSD-95 and tyrosine "
            "hydroxylase (TH)-positive cells. Coronary artery disease (CAD) rose.")
    long1, long2, long3 = spans_of(text, "postsynaptic density protein 95",
                                   "tyrosine hydroxylase", "Coronary artery disease")

    def abbreviation(short: str, long: tuple[int, int]) -> tuple[int, int, int, int]:
        s = text.index(short, long[1])
        return s, s + len(short), *long

    abbrs = [abbreviation("PSD-95", long1), abbreviation("TH", long2),
             abbreviation("CAD", long3)]
    got = with_short_forms(text, [long1, long2], abbrs)
    assert [text[a:b] for a, b in got] == [
        "postsynaptic density protein 95", "PSD-95", "PSD-95", "tyrosine hydroxylase", "TH"]


def test_a_full_name_the_lexicon_knows_is_a_mention():
    text = ("The low-density lipoprotein receptor and dedicator of cytokinesis 8 bound; "
            "tumor necrosis factor receptor-associated factors and heat shock protein did not.")
    tagged = spans_of(text, "lipoprotein receptor")
    got = with_full_names(text, tagged)
    # the tagged inner words give way; a name ending inside a word, or one NCBI's
    # other designations alone give a gene, is no mention
    assert [text[a:b] for a, b in got] == [
        "low-density lipoprotein receptor", "dedicator of cytokinesis 8"]
    text = "growth of low-density lipoprotein receptor-deficient mice"
    assert with_full_names(text, []) == []


def test_a_full_name_written_with_a_slash_and_ca2_is_a_mention():
    # round 63: the lexicons write `calcium/calmodulin dependent protein kinase II alpha`
    text = ("Ca2+/calmodulin-dependent protein kinase IIα and calcium/calmodulin-dependent "
            "protein kinase IV were active; Ca2+/Mg2+ levels were not.")
    got = with_full_names(text, spans_of(text, "calmodulin"))
    assert [text[a:b] for a, b in got] == [
        "Ca2+/calmodulin-dependent protein kinase IIα",
        "calcium/calmodulin-dependent protein kinase IV"]
    assert resolve("Ca2+/calmodulin-dependent protein kinase IIα").ids[0] == "HGNC:1460"


def test_a_mention_naming_nothing_that_is_something_else_goes():
    text = ("Mice fed a high-fat diet (HFD) and Resistance to thyroid hormone (RTH); HFD mice. "
            "NRK-52E cells and A20 and SOD1 were studied.")
    tagged = spans_of(text, "HFD", "RTH", "HFD", "NRK-52E", "A20", "SOD1")
    abbrs = [("HFD", *spans_of(text, "high-fat diet")[0]),
             ("RTH", *spans_of(text, "Resistance to thyroid hormone")[0])]
    got = without_other_things(text, tagged, abbrs)
    assert [text[a:b] for a, b in got] == ["A20", "SOD1"]   # A20 is TNFAIP3's alias


def test_names_a_hyphen_joins_to_other_words_are_mentions():
    """Round 41a (probes 29-38): a name completion takes as a whole word is also taken
    before a hyphenated attribute or ``-/-``, after ``anti-``, and in a chain of names."""
    text = ("FoxO3 rose in muscle. FoxO3-dependent atrophy; Arc-/- mice and Sirt6-LKO mice; "
            "an anti-HMGB1 antibody; an IL6-STAT3 axis; myostatin-driven loss; "
            "FoxO3-high cells; MDA-MB-231 cells.")
    added = more_mentions(text, spans_of(text, "FoxO3"))
    assert [text[a:b] for a, b in added] == [
        "FoxO3", "Arc", "Sirt6", "HMGB1", "IL6", "STAT3", "myostatin"]
    # "FoxO3-high" is no attribute; MDA-MB-231 is no chain of names
    assert added[0][0] == text.index("FoxO3-dependent")


def test_attached_names_splits_words_as_documented():
    from relx.genes.more_mentions import attached_names

    text = ("Tox-deficient, Rbm20\u2212/\u2212, anti-PD-L1, BDNF-TrkB-CREB, TGF-\u03b2-induced, "
            "Alb-Cre;Bmal1flox/flox, Sostfl/fl, Sox9fl mice, Wolfl/x.")
    names = {"Tox", "Rbm20", "PD-L1", "BDNF", "TrkB", "CREB", "Bmal1", "Sost", "Sox9", "Wo"}
    got = [text[a:b] for a, b in attached_names(text, names.__contains__)]
    assert got == ["Tox", "Rbm20", "PD-L1", "BDNF", "TrkB", "CREB", "Bmal1", "Sost", "Sox9"]
    assert list(attached_names(text, lambda w: False)) == []


def test_a_name_with_its_protein_change_written_onto_it():
    """Round 87 (probes 33 and 52; BioRED: ``KrasG12D`` is the gene ``Kras`` and the
    variant ``G12D``): the name before a substitution written onto it is a mention; not a
    word that is a name as a whole (``GADD45A``), nor a name completion does not take."""
    from relx.genes.more_mentions import attached_names

    text = ("LSL-KrasG12D; Trp53R172H/+ mice, SOD1G93A mice, BRAFV600E melanoma, GADD45A, "
            "sP120T, EGFRT790M.")
    names = {"Kras", "Trp53", "SOD1", "BRAF", "GADD45A", "GAD", "EGFR"}
    got = [text[a:b] for a, b in attached_names(text, names.__contains__)]
    assert got == ["Kras", "Trp53", "SOD1", "BRAF", "EGFR"]
    assert text[slice(*next(attached_names(text, names.__contains__)))] == "Kras"
    assert next(attached_names(text, names.__contains__))[0] == text.index("KrasG12D")
    added = more_mentions("BRAFV600E mutant melanoma and KRAS.", [])
    assert [(a, b) for a, b in added][:1] == [(0, 4)]


def test_a_name_a_hyphen_joins_to_a_protein_change():
    """Round 102 (BioRED: ``SOD1`` of ``D90A-SOD1``): a hyphenated word whose first or last
    part is a protein substitution gives the rest as a mention when completion takes it,
    else each of its parts when it takes them all; not a substitution completion takes as
    a name (``F11R``), nor a rest it does not take (``tau``)."""
    from relx.genes.more_mentions import attached_names

    text = ("D90A-SOD1 and SOD1-G93A mice, BRAF-V600E, P301L-tau, G12D-KRAS-TP53, "
            "F11R-CD9, PD-L1-V600E.")
    names = {"SOD1", "BRAF", "KRAS", "TP53", "F11R", "CD9", "PD-L1"}
    got = [text[a:b] for a, b in attached_names(text, names.__contains__)]
    assert got == ["SOD1", "SOD1", "BRAF", "KRAS", "TP53", "F11R", "CD9", "PD-L1"]
    added = more_mentions("Patients carried JAK2-V617F, and G93A-SOD1 mice were bred.", [])
    text = "Patients carried JAK2-V617F, and G93A-SOD1 mice were bred."
    assert [text[a:b] for a, b in added] == ["JAK2", "SOD1"]


def test_hippocampal_fields_are_no_carbonic_anhydrases():
    text = "Hippocampal CA1 neurons fired; CA3 was silent. SOD1 rose."
    spans = spans_of(text, "CA1", "CA3", "SOD1")
    assert [text[a:b] for a, b in without_other_things(text, spans, [])] == ["SOD1"]
    text = "CA1 and CA2 are carbonic anhydrases of red cells."
    spans = spans_of(text, "CA1", "CA2")
    assert without_other_things(text, spans, []) == spans


def test_names_an_en_dash_joins_are_split_apart():
    """Round 47c (probes 44 and 47): one mention for ``CCL2–CCR2``, ``Beclin-1–Vps34
    complex``; not ``CRISPR–Cas9`` (CRISPR names no gene) nor a hyphenated name."""
    from relx.genes.joined_names import split_en_dashes

    text = "The CCL2\u2013CCR2 axis, the Beclin-1\u2013Vps34 complex, CRISPR\u2013Cas9 and IL-6."
    spans = spans_of(text, "CCL2\u2013CCR2", "Beclin-1\u2013Vps34 complex", "CRISPR\u2013Cas9",
                     "IL-6")
    got = [text[a:b] for a, b in split_en_dashes(text, spans)]
    assert got == ["CCL2", "CCR2", "Beclin-1", "Vps34", "CRISPR\u2013Cas9", "IL-6"]


def test_two_names_a_hyphen_joins_are_split_where_they_act_together():
    """Round 97b: ``Keap1-Nrf2 pathway``, ``PD-1-PD-L1 interaction``, ``TMPRSS2-ERG
    fusion``; not a compound name (``NDP-MSH increased``, ``CK-MB levels``), a prefix or a
    short lower-case word (``pan-PKC complex``, ``beta-MHC complex``) nor one name
    (``PD-L1 expression``)."""
    from relx.genes.joined_names import split_hyphen_joined

    text = ("The Keap1-Nrf2 pathway, the PD-1-PD-L1 interaction and the TMPRSS2-ERG fusion; "
            "NDP-MSH increased CK-MB levels, pan-PKC complex, beta-MHC complex, PD-L1 "
            "expression.")
    words = ["Keap1-Nrf2", "PD-1-PD-L1 interaction", "TMPRSS2-ERG fusion", "NDP-MSH",
             "CK-MB", "pan-PKC", "beta-MHC", "PD-L1"]
    got = [text[a:b] for a, b in split_hyphen_joined(text, spans_of(text, *words))]
    assert got == ["Keap1", "Nrf2", "PD-1", "PD-L1", "TMPRSS2", "ERG", "NDP-MSH", "CK-MB",
                   "pan-PKC", "beta-MHC", "PD-L1"]


def test_two_joined_names_the_tagger_left_out_are_added_before_a_together_word():
    """Round 98: ``the TLR4-MyD88 axis``, ``HMGB1-RAGE signaling`` with nothing tagged; not
    a word a mention overlaps, one name (``PD-L1 pathway``) or a joined word before another
    word (``IL-6-STAT3 levels``)."""
    from relx.genes.joined_names import joined_names_left_out

    text = ("The TLR4-MyD88 axis and HMGB1-RAGE signaling; the PD-L1 pathway; IL-6-STAT3 "
            "levels; the Keap1-Nrf2 pathway.")
    tagged = spans_of(text, "Keap1-Nrf2")
    got = [text[a:b] for a, b in joined_names_left_out(text, tagged)]
    assert got == ["TLR4", "MyD88", "HMGB1", "RAGE", "Keap1-Nrf2"]


def test_a_name_with_its_abbreviation_inside_is_one_mention():
    """Round 54: ``long form (SHORT)end`` is one mention when the bracket holds the long
    form's short form and ``SHORTend`` names the gene the whole span names; not a bracket
    that is no abbreviation of the words before it (``group (G) 2``)."""
    from relx.genes.bracketed_names import with_bracketed_names

    text = ("Toll-like receptor (TLR)4, hepatocyte nuclear factor (HNF)-6, Surfactant "
            "protein (SP)-A and uroplakin (UP) III rose in group (G) 2.")
    got = with_bracketed_names(text, spans_of(text, "Surfactant protein"))
    assert [text[a:b] for a, b in got] == [
        "Toll-like receptor (TLR)4", "hepatocyte nuclear factor (HNF)-6",
        "Surfactant protein (SP)-A", "uroplakin (UP) III"]


def test_a_symbol_and_a_greek_letter_after_a_space_is_a_mention():
    # round 64: the tagger misses `PPAR gamma` and cuts `PI3K gamma`
    text = "PPAR gamma and PI3K γ rose; PKC delta fell; IL-2 gamma chain; PPAR was low."
    got = with_greek_names(text, spans_of(text, "PI3K", "PKC delta", "IL-2", "PPAR"))
    assert [text[a:b] for a, b in got] == [
        "PPAR gamma", "PI3K γ", "PKC delta", "IL-2", "PPAR"]   # IL-2 gamma is IL-2's gene
