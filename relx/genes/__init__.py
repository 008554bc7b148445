"""Genes: finding their names in a lexicon, their species, and grounding a document's
mentions to gene ids.

- :mod:`relx.genes.lexicon`: the HGNC/MGI/RGD/FamPlex lexicon and ``Grounder`` (a name ->
  candidate ids);
- :mod:`relx.genes.species`: organisms in text and each gene mention's species;
- :mod:`relx.genes.document`: grounding a document's mentions in their species, with
  abbreviations and confidence;
- :mod:`relx.genes.orthologs`, :mod:`relx.genes.famplex`: human <-> mouse/rat orthologs,
  FamPlex families and their members;
- :mod:`relx.genes.ncbi_gene`: the NCBI Gene ids of human and mouse genes;
- :mod:`relx.genes.same_gene`: whether two mentions denote the same gene.

The data files they read are built by ``lab/lexicon_build.py`` (``make lexicon``).
"""
