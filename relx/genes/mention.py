"""The gene name inside a mention: the words a tagger leaves around it.

A gene mention often carries words that are not part of the name: what is said of the gene
(``SLCO1B1*5``, ``FGFR3 G380R mutation``, ``IL1B-511CC``, ``GJB2 variants``, ``SLC6A4
promoter region``, ``b-catenin GOF mutants``) or where it was measured (``serum GH``, ``human
tryptophan hydroxylase``). :func:`name_parts` gives the sub-spans worth grounding when the
whole mention grounds to nothing, best first; :func:`relx.genes.document.resolve` tries them
in order and records the one it grounded. :func:`spelling_forms` gives the other ways a
name is written (``b-catenin`` for beta-catenin, ``receptor type 4``);
:func:`bracket_names` the names of a long form with its abbreviation written inside
(``cyclooxygenase (COX)-2``: ``cyclooxygenase-2`` and ``COX-2``).
"""

from __future__ import annotations

import re

__all__ = ["MIRNA", "abbreviated", "american_spelling", "bracket_names", "name_parts",
           "receptor_forms", "spelling_forms", "sub_name", "type_forms"]

#: Words after a gene name that say something of it (lower case; plurals listed).
AFTER_WORDS = frozenset("""
gene genes variant variants polymorphism polymorphisms mutation mutations mutant mutants
allele alleles locus loci promoter promoters region regions mrna mrnas transcript transcripts
protein proteins subunit subunits antibody antibodies antigen antigens inhibitor inhibitors
family families isoform isoforms splice haplotype haplotypes genotype genotypes snp snps
single nucleotide exon exons intron introns codon codons deficient deficiency knockout
knockouts ko null gof lof expression level levels carrier carriers oncoprotein oncoproteins
product products oncogene oncogenes protooncogene protooncogenes proto-oncogene proto-oncogenes
peptide peptides oligomer oligomers fibril fibrils aggregate aggregates
complex complexes activity activities binding site sites element elements enhancer enhancers
""".split())

#: Words before a gene name that say where or in what state it was found (lower case).
BEFORE_WORDS = frozenset("""
human mouse murine rat serum plasma brain tumor tumour endothelial pituitary hepatic renal
phosphorylated phospho total recombinant soluble circulating urinary functional
""".split())

_AA = ("Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|Val|"
       "Ter|Stop|X")
#: A token naming a variant of the gene: ``G380R``, ``Arg399Gln``, ``-670``, ``6N``,
#: ``511CC``, ``rs1045642``, ``c.677C>T``, ``p.R47H``, ``-/-``, ``V175M`` (a bare number
#: only after ``exon``, ``codon``...: ``VEGF receptor 1`` keeps its number).
_VARIANT_TOKEN = re.compile(
    rf"^(?:[A-Z]\d+[A-Z*]|(?:{_AA})\d+(?:{_AA}|\*)|[-\u2212+]\d+[ACGTN]{{0,2}}|"
    r"\d{2,}[ACGT]{1,2}|\d+(?:[ACGT]{2}|N)|rs\d+|[cgp]\.\S+|\*\d+[A-Z]?\d*|[-\u2212+]/[-\u2212+])$")
_NUMBERED = frozenset({"exon", "exons", "intron", "introns", "codon", "codons"})
#: A class word after a name (``JAK kinases``, ``Sp1 transcription factor``, ``caspase
#: protease``, ``IL-2R beta chain``, ``SHP-1 phosphatase``): one is stripped,
#: ``transcription`` with ``factor``, ``tyrosine`` or ``serine/threonine`` with ``kinase``.
CLASS_AFTER = frozenset("""
kinase kinases factor factors protease proteases proteinase proteinases chain chains
phosphatase phosphatases
""".split())
_CLASS_FIRST_WORD = {"factor": ("transcription",), "kinase": ("tyrosine", "serine/threonine")}
#: A name whose ``kinase`` is another gene, its upstream kinase (``ERK kinase``, ``MAPK
#: kinase``: MEKs; ``JNK kinase``: MKKs; ``MAP kinase kinase``).
_KINASE_OF = re.compile(r"(?:^|[\s-])(?:ERKs?|MAPKs?|MAP|MEKs?|MAPKKs?|MAP2Ks?|MKKs?|JNKs?|"
                        r"SAPKs?|\w*kinases?)$", re.IGNORECASE)
_WRITTEN_AS_SYMBOL = re.compile(r"[A-Z0-9]")
_PARTICIPLE_END = re.compile(r"-(?:associated|related|dependent|activated|regulated|induced|"
                             r"inducible|interacting|binding|like|responsive|specific)$",
                             re.IGNORECASE)
_CHAIN_LETTER = re.compile(r"[A-Za-z]|alpha|beta|gamma|delta|epsilon|zeta|kappa|lambda|"
                           r"[\u03b1-\u03c9]")
#: Written onto the name: ``FAS-670``, ``IL1B-511CC``, ``IL1B-31TT``, ``SLCO1B1*5``,
#: ``CYP2F1*2A``, ``Thra1(PV``, ``X-/-``, ``X-deficient``, a splice variant ``FLNBv4``, a
#: peptide's residue range or, after a Greek letter, its length (``PTH(1-34)``,
#: ``angiotensin-(1-7)``, ``Aβ1-42``, ``Abeta40``; round 83) (not ``RAB-28``, ``miR-483``).
_ATTACHED = re.compile(
    r"(?:[-\u2212]\d{3,}[ACGTN]{0,2}|[-\u2212]\d{1,2}[ACGT]{1,2}|\*\d+[A-Z]?\d*|\([^()]*|"
    r"[-\u2212+]/[-\u2212+]|-(?:deficient|null|knockout|mutant|mutants)|(?<=[A-Z0-9]{2})v\d+|"
    r"-?\(\d{1,3}[-\u2013]\d{1,3}\)|(?:(?<=\u03b2)|(?<=eta))\d{1,3}(?:[-\u2013]\d{1,3})?)$")
_MIRNA = re.compile(r"(?:^|-)(?:mi[Rr]|MIR|let)$")
#: A molecular mass before a name (``18-kDa translocator protein``; round 109)
_MASS_BEFORE = re.compile(r"^(?:an?\s+|the\s+)?\d+(?:\.\d+)?\s?-?\s?k(?:Da|D|da)[\s-]+(?=\S{2})")
#: A name with ``-binding`` written onto it before a site word (``AP-1-binding sites``;
#: round 108); not ``IGF-binding protein``, which a part without ``protein`` would be.
_BINDING_SITE = re.compile(r"^(?P<name>\S.+?)[-\u2010]binding"
                           r"\s+(?:sites?|elements?|regions?|sequences?|motifs?)$", re.IGNORECASE)
_BEFORE_ATTACHED = re.compile(r"^(?:phosphorylated|phospho)-(?=\w)", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")
#: A word after a gene's name that makes the span another thing (``androgen receptor
#: antagonist flutamide``, ``TSPO ligand``): the name is the words before it.
_ATTRIBUTE_WORD = re.compile(
    r"(?:^|(?<=[\s-]))(?:antagonists?|agonists?|ligands?|blockers?|inhibitors?)(?=$|[\s,;])",
    re.IGNORECASE)
#: A participle written onto the name (``apoE-containing``, ``DISC1-related``,
#: ``NF-kappaB-dependent``): the name is what comes before the hyphen.
_PARTICIPLE = re.compile(
    r"-(?:containing|related|mediated|dependent|induced|expressing|positive|negative|"
    r"specific|derived|associated|regulated|stimulated|activated|targeted)(?=$|[\s,;])"
    r"(?!\s+(?:protein|kinase|receptor|factor|channel|enzyme|ligase|phosphatase|"
    r"transporter|subunit|domain)s?\b)", re.IGNORECASE)


def _is_context(token: str, after: bool, before: str = "") -> bool:
    word = token.strip(",;:").lower()
    if after:
        return (word in AFTER_WORDS or bool(_VARIANT_TOKEN.match(token)) or
                (token.isdigit() and before.lower() in _NUMBERED))
    return word in BEFORE_WORDS


def name_parts(text: str) -> list[tuple[int, int]]:
    """Sub-spans ``(start, end)`` of ``text`` that may be the gene's name, best first:
    the mention without the words around it (``FGFR3 G380R mutation`` -> ``FGFR3``), then
    without what is written onto it (``IL1B-511CC`` -> ``IL1B``). Never the whole text;
    [] when nothing is around the name."""
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[tuple[int, int]] = []
    if not tokens:
        return out
    mass = _MASS_BEFORE.match(text)
    rest = text[mass.end():] if mass is not None else ""
    if mass is not None and not (rest.islower() and " " not in rest):   # not "76-kDa receptor"
        out.append((mass.end(), len(text)))
    i, j = 0, len(tokens)
    while j - i > 1 and _is_context(text[slice(*tokens[j - 1])], True,
                                    text[slice(*tokens[j - 2])]):
        j -= 1
    word = text[slice(*tokens[j - 1])].lower()
    if j - i > 1 and word in CLASS_AFTER:
        k = j - 1
        if k > i and text[slice(*tokens[k - 1])].lower() in _CLASS_FIRST_WORD.get(
                word.rstrip("s"), ()):
            k -= 1
        before = text[slice(*tokens[k - 1])] if k > i else ""
        symbol = len(before) >= 3 and _WRITTEN_AS_SYMBOL.search(before) is not None
        if word.startswith(("kinase", "phosphatase")):   # "glycogen synthase kinase": GSK3
            strip = symbol and not _KINASE_OF.search(text, 0, tokens[k - 1][1])
        elif word.startswith("chain"):   # "IL-2R beta chain", not "heavy chain", "B chain"
            strip = symbol or (k - i >= 2 and _CHAIN_LETTER.fullmatch(before) is not None)
        else:
            strip = bool(before)
        if strip and not _PARTICIPLE_END.search(before):   # "TNFR-associated factors"
            j = k
    while j - i > 1 and _is_context(text[slice(*tokens[i])], after=False):
        i += 1
    start, end = tokens[i][0], tokens[j - 1][1]
    m = _BEFORE_ATTACHED.match(text[start:end])
    if m and end - start - m.end() >= 2:
        start += m.end()
    span = (start, end)
    if span != (0, len(text)):
        out.append(span)
    for _ in range(2):
        m = _ATTACHED.search(text, start, end)
        if m is None or m.start() - start < 2 or _MIRNA.search(text, start, m.start()):
            break
        end = m.start()
        out.append((start, end))
    m = _BINDING_SITE.match(text)
    if m is not None:
        out.append((0, m.end("name")))
    for pattern in (_ATTRIBUTE_WORD, _PARTICIPLE):
        m = pattern.search(text)
        if m is not None:
            end = len(text[:m.start()].rstrip(" -"))
            if end >= 2:
                out.append((0, end))
    return [s for s in dict.fromkeys(out) if s != (0, len(text))]


_LATIN_GREEK = {"a": "alpha", "b": "beta", "g": "gamma", "d": "delta", "k": "kappa"}
#: A Latin letter written for a Greek one: ``b-catenin``, ``TGF-b1``, ``IFN-g``,
#: ``TGF- b``, ``dopamine b-hydroxylase`` (a lone letter: not the ``a`` of ``Bcl-xa``).
_LATIN_LETTER = re.compile(r"(?:(?<=^)|(?<=[\s(]))([abgdk])(?=-[A-Za-z])|"
                           r"(?<=[A-Za-z0-9][-\s])([abgdk])(?=\d?$|\d?[\s/)])|"
                           r"(?<=[A-Z]-\s)([abgdk])(?=\d?$)")
#: ``interleukin-1``, ``interleukin 12``: the families' names are their abbreviations
_INTERLEUKIN = re.compile(r"\binterleukin[-\s]?(?=\d)", re.IGNORECASE)
#: ``interferon-alpha``, ``interferon gamma``: ``IFN-alpha`` (round 105; the family
#: ``interferon alpha`` is no human key, and a mouse designation reached IFNL1)
_INTERFERON = re.compile(
    r"\binterferon[-\s]+(?=(?:alpha|beta|gamma|delta|epsilon|kappa|lambda|omega|tau|zeta|"
    r"[\u03b1-\u03c9]|[abgdk]\b|\d))", re.IGNORECASE)
#: ``tumor necrosis factor receptor``, ``... receptor-associated factor 6``: ``TNF ...``
_TNF = re.compile(r"\btumou?r[-\s]+necrosis[-\s]+factor\b", re.IGNORECASE)
#: a molecular weight written before a name: ``p39c-jun``, ``pp60v-src``, ``p210bcr-abl``
_WEIGHT_BEFORE = re.compile(r"^p{1,2}\d{2,3}(?=(?:[cv]-)?[A-Za-z]{3})")
_TYPE_NUMBER = re.compile(r"\s+type\s+(?=\d+[a-z]?$)", re.IGNORECASE)
_RECEPTOR_TYPE = re.compile(r"^(?P<x>.+?)\s+receptor\s+type\s+(?P<n>\d+[a-z]?)$",
                            re.IGNORECASE)


def abbreviated(text: str) -> str:
    """``text`` with interleukins, interferons and tumour necrosis factor written as
    abbreviations (``interleukin-1`` -> ``IL-1``, ``interferon-alpha`` -> ``IFN-alpha``,
    ``tumor necrosis factor-related ...`` -> ``TNF-related ...``), as the lexicons write
    the names built on them."""
    return _TNF.sub("TNF", _INTERFERON.sub("IFN-", _INTERLEUKIN.sub("IL-", text)))


def spelling_forms(text: str) -> list[str]:
    """Other spellings of a mention, to try when it grounds to nothing: Greek letters
    written as Latin ones (``b-catenin`` -> ``beta-catenin``, ``TGF-b1`` -> ``TGF-beta1``,
    ``IFN-g`` -> ``IFN-gamma``), a type number (``plasminogen activator inhibitor
    type 1`` -> ``... inhibitor 1``, ``melanocortin receptor type 4`` -> ``melanocortin 4
    receptor``), an abbreviation's receptor as a symbol (``FGF receptor 2`` -> ``FGFR2``,
    ``PDGF receptor beta`` -> ``PDGFRbeta``), a numbered collagen (``type VII collagen``,
    ``collagen 2`` -> ``COL7A1``, ``COL2A1``), a phosphorylated form written without its
    hyphen (``pSTAT3`` -> ``STAT3``), a form of the protein written onto its name
    (truncated ``tBid``, soluble ``sICAM-1``, recombinant human ``rhEPO``, precursor
    ``procaspase-9``), British spellings (``tumour necrosis factor``, ``haem``), a Roman
    numeral at the end written as a number (``ICAM-I`` -> ``ICAM-1``, ``cyclooxygenase-II``
    -> ``cyclooxygenase-2``), an interleukin or tumour necrosis factor by its
    abbreviation (``interleukin-1`` -> ``IL-1``, ``tumor necrosis factor receptor`` -> ``TNF
    receptor``), a name without the molecular weight before it (``p39c-jun`` ->
    ``c-jun``), a coagulation factor by its number (``factor XI`` ->
    ``coagulation factor XI``) and nitric oxide written ``NO`` in a synthase's name
    (``endothelial NO synthase``)."""
    out = []
    american = american_spelling(text)
    greek = _LATIN_LETTER.sub(lambda m: _LATIN_GREEK[m.group(m.lastindex)], american)
    for form in dict.fromkeys((greek, american, text)):
        m = _RECEPTOR_TYPE.match(form)
        if m:
            out.append(f"{m['x']} {m['n']} receptor")
        typed = _TYPE_NUMBER.sub(" ", form)
        out.extend([typed, form, abbreviated(form), _WEIGHT_BEFORE.sub("", form)])
        m = _ABBREVIATION_RECEPTOR.match(form)
        if m:
            out.extend([f"{m['x']}R{m['n']}", f"{m['x']}R-{m['n']}"])
        m = _COLLAGEN.match(form) or _COLLAGEN_AFTER.match(form)
        if m:
            out.append(f"COL{_arabic(m['n'])}A1")
        m = _FACTOR.match(form)
        if m:
            out.append(f"coagulation factor {m['n']}")
        m = _ROMAN_END.match(form)
        if m and not _ROMAN_WORD.match(m["x"]):   # not a range: "I-IV"
            out.append(f"{m['x']}{m['sep']}{_arabic(m['n'])}")
    if _PHOSPHO_ATTACHED.match(text):
        out.append(text[1:])
    m = _FORM_ATTACHED.match(text)
    if m and len(re.sub(r"\W", "", text[m.end():])) >= 3:
        out.append(text[m.end():])
    return [f for f in dict.fromkeys(out) if f != text]


#: British spellings in protein names, as NCBI and HGNC write them (``tumour`` -> ``tumor``,
#: ``haem``/``leukaemia``/``ischaemia`` -> ``hem``..., ``oestrogen``/``oedema`` ->
#: ``estrogen``, ``sulphate`` -> ``sulfate``).
_BRITISH = ((re.compile(r"(?<=tum)our", re.IGNORECASE), "or"),
            (re.compile(r"\b(h)aem\b", re.IGNORECASE), r"\1eme"),
            (re.compile(r"(?<=[a-z])a(?=em)", re.IGNORECASE), ""),
            (re.compile(r"(?<![a-z])o(?=e[a-z]{3})"), ""),
            (re.compile(r"(?<![a-zA-Z])Oe(?=[a-z]{3})"), "E"),
            (re.compile(r"(?<=su)lph", re.IGNORECASE), "lf"),
            (re.compile(r"(gonado|cortico|thyro|somato|melano|mammo|lacto)trophin",
                        re.IGNORECASE), r"\1tropin"))


#: nitric oxide written ``NO`` in its synthases' names (``endothelial NO synthase``)
_NO_SYNTHASE = re.compile(r"\bNO(?=[\s-]+synthases?\b)")
#: calcium written ``Ca2+`` before a slash (``Ca2+/calmodulin-dependent protein kinase``)
CALCIUM_SLASH = re.compile(r"\bCa2\+(?=/)")


#: a microRNA as papers write it after miRBase: its species prefix, its gene's name and its
#: arm (``hsa-miR-21-5p``, ``mmu-let-7a``, ``miR-155*``; naming rounds 74, 77 and 78)
MIRNA = (r"(?:(?P<prefix>hsa|mmu|rno)-)?(?P<gene>(?:micro-?RNA|miRNA|miR|let)-?\d+[a-z]?\d*"
         r"(?:-\d+)?)(?P<arm>-[35]p|\*)?")


_LIGAND_SUBTYPE = re.compile(
    r"^(?P<ligand>[A-Za-z][A-Za-z-]*[A-Za-z])\s+(?P<sub>[A-Za-z0-9-]*\d[A-Za-z0-9-]*)\s+"
    r"receptors?$", re.IGNORECASE)


def receptor_forms(text: str) -> list[str]:
    """The lexicon's ways of writing a receptor named by ligand, subtype and ``receptor``
    (``serotonin 2C receptor``: ``serotonin receptor 2C``, ``5-HT2C receptor``;
    ``cannabinoid CB1 receptor``: ``CB1 cannabinoid receptor``, ``CB1 receptor``), most
    specific first; [] for another mention (naming round 75)."""
    m = _LIGAND_SUBTYPE.match(text.strip())
    if m is None:
        return []
    ligand, sub = m["ligand"], m["sub"]
    forms = [f"{ligand} receptor {sub}"]
    if ligand.lower() == "serotonin":
        forms.append(f"5-HT{sub.removeprefix('5-HT').removeprefix('5HT')} receptor")
    if sub[0].isalpha():
        forms += [f"{sub} {ligand} receptor", f"{sub} receptor"]
    return forms


#: interferons and myosins are typed by their class (``type I IFN receptor``: the receptor
#: of type I interferons; ``type II myosin``: conventional myosin), not numbered
_TYPED_LIGAND = re.compile(r"(?:IFN|interferon|myosin)\b", re.IGNORECASE)
_TYPE_ARABIC = {"I": "1", "II": "2", "III": "3", "IV": "4"}
_TYPE_WORD = r"type[\s-]+(?P<n>IV|I{1,3}|[1-4])(?P<l>[AB])?"
#: a type before the name, before its last word, or after it (round 85)
_TYPE_FORMS = (re.compile(rf"^{_TYPE_WORD}\s+(?P<head>.+?)s?$", re.IGNORECASE),
               re.compile(rf"^(?P<first>.+?)\s+{_TYPE_WORD}\s+(?P<last>\S+?)s?$", re.IGNORECASE),
               re.compile(rf"^(?P<head>.+?)s?\s+{_TYPE_WORD}$", re.IGNORECASE))


def type_forms(text: str) -> list[str]:
    """The lexicon's ways of writing a receptor or enzyme numbered as a type (``type I IL-1
    receptor``: ``IL-1 receptor 1``, ``IL-1 receptor type 1``; ``activin type IB
    receptor``: ``activin receptor 1B``, ``activin receptor type 1B``); [] when ``text``
    has no such type (naming round 85)."""
    for k, pattern in enumerate(_TYPE_FORMS):
        m = pattern.match(text.strip())
        if m is None:
            continue
        number = _TYPE_ARABIC.get(m["n"].upper(), m["n"]) + (m["l"] or "").upper()
        head = f"{m['first']} {m['last']}" if k == 1 else m["head"]
        if (len(head) < 2 or head.lower().startswith("type") or _TYPED_LIGAND.match(head)
                or head[-1].isdigit() or head.lower() in ("receptor", "receptors")):
            return []   # no name beside the class word, or a number already ("IL-1")
        ligand, _, rest = head.partition(" ")   # "type I IGF receptor": IGF-1 receptor
        first = [f"{ligand}-{number} {rest}"] if k == 0 and rest else []
        return [*first, f"{head} {number}", f"{head} type {number}"]
    return []


def american_spelling(text: str) -> str:
    """``text`` spelled the American way (the lexicons' way), nitric oxide written out in a
    synthase's name (``NO synthase``), calcium before a slash (``Ca2+/calmodulin``); ``text``
    when it is."""
    for pattern, to in _BRITISH:
        text = pattern.sub(to, text)
    return CALCIUM_SLASH.sub("calcium", _NO_SYNTHASE.sub("nitric oxide", text))


_ABBREVIATION_RECEPTOR = re.compile(
    r"^(?P<x>[A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*)\s+receptor[-\s]+"
    r"(?P<n>\d+[A-Za-z]?|[IVX]+|alpha|beta|gamma|delta)$")
_COLLAGEN = re.compile(r"^(?:type\s+)?(?P<n>[IVX]+|\d+)\s+collagen$", re.IGNORECASE)
_COLLAGEN_AFTER = re.compile(r"^collagen\s+(?:type\s+)?(?P<n>[IVX]+|\d+)$", re.IGNORECASE)
#: ``pSTAT3``, ``pAKT``, ``pJNK``: ``p`` then a symbol in capitals (not ``pRb``, ``p53``)
_PHOSPHO_ATTACHED = re.compile(r"^p[A-Z]{2,}[A-Za-z0-9]*$")
#: Truncated ``tBid``, soluble ``sICAM-1``/``sIL-6R``, recombinant human ``rhEPO``,
#: precursor ``procaspase-9``/``proIL-1beta``: the letters, then the name (not ``tRNA``).
_FORM_ATTACHED = re.compile(r"^(?:rh|[ts])(?=[A-Z](?!NA$))|"
                            r"^pro(?=[A-Z]|caspase|insulin|collagen|renin|glucagon)")
_ROMAN = {"I": 1, "V": 5, "X": 10}
_ROMAN_NUMBER = r"X{0,1}(?:IX|IV|V?I{1,3}|V|X)"
#: a name ending in a Roman numeral after a hyphen or a space (``ICAM-I``, ``COX-II``)
_ROMAN_END = re.compile(rf"^(?P<x>.*[A-Za-z].*?)(?P<sep>[-\s])(?P<n>{_ROMAN_NUMBER})$")
_ROMAN_WORD = re.compile(rf"^{_ROMAN_NUMBER}$")
#: a coagulation factor by its number (``factor XI``, ``Factor VIII``)
_FACTOR = re.compile(rf"^factor\s+(?P<n>{_ROMAN_NUMBER})$", re.IGNORECASE)


def _arabic(n: str) -> int:
    """``VII`` -> 7, ``12`` -> 12."""
    if n.isdigit():
        return int(n)
    values = [_ROMAN[c] for c in n.upper()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v
               for i, v in enumerate(values))


_MEMBER = (r"(?:\d+[A-Za-z]?\d*(?:/\d+)?|(?:alpha|beta|gamma|delta|kappa)\d*|"
           r"[\u03b1-\u03c9]\d*|[A-Za-z]\d*)")
_MEMBER_END = r"(?![\w\u03b1-\u03c9]|-\w)"
_SHORT = r"\((?P<short>[A-Za-z][\w-]*)\)"
_IN_MENTION = re.compile(
    rf"^(?P<long>.*?\w)\s*{_SHORT}\s*[-\s]?(?P<member>{_MEMBER}){_MEMBER_END}$")
_AFTER_LONG = re.compile(rf"^\s*{_SHORT}\s*[-\s]?(?P<member>{_MEMBER}){_MEMBER_END}")
_AFTER_SHORT = re.compile(rf"^\)\s*[-\s]?(?P<member>{_MEMBER}){_MEMBER_END}")


def bracket_names(text: str, before: str = "", after: str = "") -> list[str]:
    """The names of a gene whose abbreviation is written inside its long form, long form
    first: ``cyclooxygenase (COX)-2`` -> ``cyclooxygenase-2``, ``COX-2``. The mention may
    be the long form only, then ``after`` (the document text after it) holds the rest
    (``Toll-like receptor`` + `` (TLR) 4``), or the short form only, then ``before`` ends
    with ``(`` (``NOD`` of ``nucleotide oligomerisation domain (NOD) 2``). [] otherwise."""
    text = text.strip()
    m = _IN_MENTION.match(text)
    if m:
        return [f"{m['long']}-{m['member']}", f"{m['short']}-{m['member']}"]
    if "(" in text or ")" in text:
        return []
    m = _AFTER_LONG.match(after)
    if m:
        return [f"{text}-{m['member']}", f"{m['short']}-{m['member']}"]
    m = _AFTER_SHORT.match(after)
    if m and before.rstrip().endswith("("):
        return [f"{text}-{m['member']}"]
    return []


#: Last words that make a different thing of the name before them (``IFN receptor`` is
#: not IFN): a run of words without them does not name the mention.
HEAD_WORDS = frozenset("""
receptor receptors ligand ligands inhibitor inhibitors activator activators antagonist
agonist binding kinase kinases phosphatase phosphatases regulator associated related
like induced inducible interacting
""".split())
_MEMBER_WORD = re.compile(r"^(?:\d+[A-Za-z]?\d*|[A-Za-z]\d*|(?:alpha|beta|gamma|delta|kappa)"
                          r"\d*|[\u03b1-\u03c9]\d*|I{1,3}|IV|VI{0,3}|IX|X)$")


_SYMBOL = re.compile(r"^(?=.*\d|(?:.*[A-Z]){2})[A-Za-z][A-Za-z0-9]+$")


def sub_name(text: str, words: list[tuple[int, int]], i: int, j: int) -> bool:
    """True when ``words[i:j]`` (spans of ``text``) may name the gene of the whole mention:
    the run ends the mention (its head: ``actin`` of ``sarcomeric actin``, ``Stat3`` of
    ``Jak-Stat3``), or is one word written as a symbol (``mTOR`` of ``mTOR-Ragulator
    complex``) not followed by a member's number or letter (not ``RAB`` of ``RAB-28``) or a
    head that makes another thing of it (not ``IFN`` of ``IFN receptor``)."""
    if j == len(words):
        return True
    run = text[words[i][0]:words[j - 1][1]]
    return j - i == 1 and bool(_SYMBOL.match(run)) and not (
        _MEMBER_WORD.match(text[slice(*words[j])]) or
        text[slice(*words[j])].lower() in HEAD_WORDS)
