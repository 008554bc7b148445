# relx developer commands. `make test` is what CI runs (.ci/run).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
SHARED ?= ../shared
PPI := $(SHARED)/corpora/ppi

.PHONY: install test test-fast lint wheel jit-cache array-cache demo results bench clean parser-corpus train-parser \
	parser-corpus-g8 finetune-parser ner-corpus train-ner pipeline default-model event-model silver silver-biored \
	vectors hedging lexicon gene-naming calibration gene-corpora ner-genes-corpus train-ner-genes bench-genes

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $@

install: $(VENV)/.installed

# the wheel (and sdist) in dist/, with the shipped models and the compiled code of
# jit-cache as package data; .ci/run installs it into a fresh environment outside the
# checkout and runs it there
wheel: install jit-cache array-cache
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# relx's numba functions compiled for portable CPU levels (relx/_jit, not in git): a new
# environment loads them instead of compiling on its first relx extract (relx.numba_cache)
jit-cache: install
	$(BIN)/python -m lab.jit_cache

# the gene lexicon's start-up tables (relx/_arrays, not in git): a new environment reads
# them instead of building them on its first relx extract (relx.array_cache)
array-cache: install
	$(BIN)/python -m lab.array_ship

LINTED := relx tests benchmarks dev lab

lint: install
	$(BIN)/ruff check $(LINTED)

# everything, slow tests included (what CI runs); one pytest worker per core (at most 4),
# each test file on one worker (its module fixtures built once)
PYTEST_WORKERS ?= -n auto --maxprocesses 4 --dist loadfile

test: install
	$(BIN)/ruff check $(LINTED)
	$(BIN)/python -m pytest -q $(PYTEST_WORKERS)

# the tests not marked slow (@pytest.mark.slow: each over ~1 s on a quiet machine, or
# reading whole corpora); at most 2 minutes on 2 cores (87 s wall, 1,381 tests, quiet, 2026-11-28)
test-fast: install
	$(BIN)/ruff check $(LINTED)
	$(BIN)/python -m pytest -q -m "not slow" $(PYTEST_WORKERS)

# Extract gene relations (relx extract's default), mention-level interactions, then GENIA
# events, from the bundled sample abstracts with the shipped models.
demo: install
	$(BIN)/relx extract corpora/abstracts --out runs/demo --format tsv \
	    --report runs/demo/report.html
	$(BIN)/relx extract --task ppi corpora/abstracts --out runs/demo-ppi --format tsv \
	    --report runs/demo-ppi/report.html
	$(BIN)/relx extract --task events corpora/abstracts --out runs/demo-events \
	    --report runs/demo-events/report.html

# --- recipes for what relx ships (models/, relx/data/); their code is in lab/ or relx ------
# The parse pipeline models/relx_bio_sm, in this order: parser-corpus, train-parser,
# parser-corpus-g8, finetune-parser, ner-corpus, train-ner, pipeline.
parser-corpus: install
	$(BIN)/python -m lab.parser corpus --shared $(SHARED) --out runs/parser/corpus

train-parser: parser-corpus
	$(BIN)/python -m spacy train configs/parser.cfg --output runs/parser/model \
	    --paths.train runs/parser/corpus/train.spacy --paths.dev runs/parser/corpus/dev.spacy

# fine-tune towards PubMed abstracts: GENIA future_use weighted 8x against CRAFT
parser-corpus-g8: install
	$(BIN)/python -m lab.parser corpus --shared $(SHARED) --out runs/parser/corpus-g8 \
	    --genia-repeat 8

finetune-parser: parser-corpus-g8
	$(BIN)/python -m spacy train configs/parser-finetune.cfg --output runs/parser/finetune \
	    --paths.source runs/parser/model/model-best \
	    --paths.train runs/parser/corpus-g8/train.spacy --paths.dev runs/parser/corpus-g8/dev.spacy

ner-corpus: install
	$(BIN)/relx ner build --shared $(SHARED) --out runs/ner/corpus

train-ner: ner-corpus
	$(BIN)/python -m spacy train configs/ner.cfg --code relx/parse/ner.py \
	    --output runs/ner/model --paths.train runs/ner/corpus/train.spacy \
	    --paths.dev runs/ner/corpus/dev.spacy

# gene NER for today's literature (docs/genes.md): the JSONL gene corpora + GE/PPI, variant g3.
# The corpora are converted from public repository snapshots (SNAPSHOTS: owner+name/ folders,
# commits pinned in lab/genes/corpora.py) into GENES.
GENES ?= $(SHARED)/corpora/genes
SNAPSHOTS ?= /work/.mirror

gene-corpora: install
	$(BIN)/python -m lab.genes.corpora all --snapshots $(SNAPSHOTS) --out $(GENES)

ner-genes-corpus: install
	$(BIN)/python -m relx.parse.ner build --shared $(SHARED) --genes $(GENES) \
	    --weights bc2gm=1,bionlp13cg=4 --ge-repeat 2 --out runs/ner-genes/corpus

train-ner-genes: ner-genes-corpus
	$(BIN)/python -m spacy train configs/ner-genes.cfg --code relx/parse/ner.py \
	    --output runs/ner-genes/model --paths.train runs/ner-genes/corpus/train.spacy \
	    --paths.dev runs/ner-genes/corpus/dev.spacy

# NER round 3 (issue 50, docs/genes.md): g3 + BioRED train's fit split, fine-tuned from 0.4.1's NER;
# the shipped 0.5.0 is round 3b (lr 0.0002, its last checkpoint): make train-ner-genes-r3, then
# make pipeline NER_MODEL=runs/ner-genes-r3b/model/model-last
BIORED := $(SHARED)/corpora/biored/Train.PubTator.gz
ner-genes-r3-corpus: install
	$(BIN)/python -m relx.parse.ner build --shared $(SHARED) --genes $(GENES) \
	    --weights bc2gm=1,bionlp13cg=4 --ge-repeat 2 --biored $(BIORED) --biored-weight 4 \
	    --out runs/ner-genes-r3/corpus

# starts from g3's NER (make train-ner-genes). The same weights as relx_bio_sm 0.4.1's ner
# without its start bias: while models/ holds 0.4.1, `python -m lab.genes.ner_init --out
# runs/ner-genes-r3/g3-init` gets them without retraining (G3_NER=runs/ner-genes-r3/g3-init)
G3_NER ?= runs/ner-genes/model/model-best
train-ner-genes-r3: ner-genes-r3-corpus
	$(BIN)/python -m spacy train configs/ner-genes-r3b.cfg --code relx/parse/ner.py \
	    --output runs/ner-genes-r3b/model --paths.train runs/ner-genes-r3/corpus/train.spacy \
	    --paths.dev runs/ner-genes-r3/corpus/dev.spacy --paths.init_ner $(G3_NER)

bench-genes: install
	$(BIN)/python benchmarks/bench_genes.py --genes $(GENES) --external

# the shipped pipeline: the parser (make finetune-parser) and the gene NER (make
# train-ner-genes); then its GE 2011 devel NER figures into its meta.json
# (the NER's entity-start bias chosen on dev: python -m lab.genes.ner_bias sweep, docs/genes.md)
NER_START_BIAS := 0.5
NER_MODEL ?= runs/ner-genes/model/model-best
pipeline: install
	$(BIN)/python -m lab.genes.ner_bias write --model $(NER_MODEL) \
	    --delta $(NER_START_BIAS) --out runs/ner-genes/model-biased
	$(BIN)/python -m lab.parser assemble --parser runs/parser/finetune/model-best \
	    --ner runs/ner-genes/model-biased --out models/relx_bio_sm --record-ner $(GE)/devel

GE := $(SHARED)/corpora/bionlp-st-ge/2011
GE13 := $(SHARED)/corpora/bionlp-st-ge/2013
SILVER := runs/silver/ge2011-2013-silver.jsonl
SILVER_2011 := runs/silver/ge2011-silver.jsonl
EXCLUDE_PPI := --exclude $(PPI)/AImed-learning-format.xml.gz \
    --exclude $(PPI)/BioInfer-learning-format.xml.gz --exclude $(PPI)/IEPA-learning-format.xml.gz

# silver PPI pairs from the GE 2011 train + devel and GE 2013 train events (documents sharing
# a sentence with the PPI corpora dropped; a document in both editions read once); extra
# training data of the shipped model and the silver rows of the ablation
# (GE 2011 only: the ablation's best-silver row)
silver: $(SILVER) $(SILVER_2011)

$(SILVER): | install
	$(BIN)/relx silver-ppi $(GE)/train $(GE)/devel $(GE13)/train --out $@ $(EXCLUDE_PPI)

$(SILVER_2011): | install
	$(BIN)/relx silver-ppi $(GE)/train $(GE)/devel --out $@ $(EXCLUDE_PPI)

# silver PPI pairs from BioRED train's fit split (gene pairs of a document-level relation;
# issue 51, docs/relations.md): document labels, and the trigger-word multi-instance labels
SILVER_BIORED := runs/silver/biored-fit.jsonl
SILVER_BIORED_MI := runs/silver/biored-fit-trigger.jsonl
silver-biored: $(SILVER_BIORED) $(SILVER_BIORED_MI)

$(SILVER_BIORED): | install
	$(BIN)/python -m lab.relations.biored_pairs --out $@ --parses runs/silver/biored-fit-parses.jsonl

$(SILVER_BIORED_MI): $(SILVER_BIORED)
	$(BIN)/python -m lab.relations.biored_pairs --out $@ --labels trigger \
	    --parses runs/silver/biored-fit-parses.jsonl

# EigenWord vectors of the ../shared corpus text (entities blinded; about a minute): a
# training input of configs/ppi-best.toml and its ablation rows, not shipped (a fitted model
# carries the vectors it uses)
VECTORS := runs/vectors/eigenwords.npz
vectors: $(VECTORS)

$(VECTORS): | install
	$(BIN)/relx train-vectors --shared $(SHARED) --out $@

# models/ppi-default: configs/ppi-best.toml on the three PPI corpora + the silver pairs
default-model: install $(SILVER) $(VECTORS)
	$(BIN)/relx train --config configs/ppi-best.toml --out models/ppi-default --version 0.18.0 \
	    --train $(PPI)/AImed-learning-format.xml.gz \
	    --train $(PPI)/BioInfer-learning-format.xml.gz \
	    --train $(PPI)/IEPA-learning-format.xml.gz \
	    --train $(SILVER)

# models/ppi-default/calibration.json (the probability map relx extract applies) and
# docs/reliability.svg: lab/calibration.py. The held-out scores are the trained model's own
# out-of-fold member probabilities, which need the model as `relx train` saved it
# (ppi-default 0.18.0 at commit 50023b9; the shipped 0.18.1 is it repacked, scores bitwise
# equal) and its training files in training order (make default-model's)
CALIB := runs/calib
CALIB_MODEL := 50023b9
calibration: $(CALIB)/internal_scores.npz
	$(BIN)/python -m lab.calibration fit $< --method isotonic \
	    --out models/ppi-default/calibration.json --svg docs/reliability.svg

$(CALIB)/internal_scores.npz: | install $(SILVER)
	mkdir -p $(CALIB)/ppi-0.18.0
	for f in pipeline.skops meta.json config.toml; do \
	    git show $(CALIB_MODEL):models/ppi-default/$$f > $(CALIB)/ppi-0.18.0/$$f || exit 1; done
	$(BIN)/python -m lab.calibration internal --model $(CALIB)/ppi-0.18.0 \
	    --train $(PPI)/AImed-learning-format.xml.gz \
	    --train $(PPI)/BioInfer-learning-format.xml.gz \
	    --train $(PPI)/IEPA-learning-format.xml.gz --train $(SILVER) --out $@

# relx/data/hedging.json.gz, the relation negation / speculation detector
# (relx.learn.hedging): lab/hedging.py on the GE 2011 + 2013 train events with the setting
# chosen by `python -m lab.hedging cv` (docs/output.md), then its GE 2011 devel report
HEDGING_PARAMS := {"C": 3.0, "min_count": 2, "min_lift": 2.0, "seed_cues": true}
hedging: install
	$(BIN)/python -m lab.hedging train --train $(GE)/train --train $(GE13)/train \
	    --params '$(HEDGING_PARAMS)' --out relx/data/hedging.json.gz
	$(BIN)/python -m lab.hedging evaluate --test $(GE)/devel --out docs/runs/hedging-devel.json

# relx/data/lexicon.tsv.gz, the HGNC + MGI + RGD + FamPlex + NCBI Gene grounding lexicon, and
# orthologs.tsv.gz, famplex_relations.tsv.gz, ncbi_gene.tsv.gz (HGNC/MGI/RGD -> NCBI Gene ids)
# beside it: lab/lexicon.py (lab.lexicon_build) on ../shared/lexicons
# HCOP: an HCOP ortholog table (python -m lab.hcop on babelgene's R/sysdata.rda,
# github.com/igordot/babelgene @ ab61c52) for rat NCBI Gene ids; without it the shipped rat rows
# are kept.
# HGNC_NAMES: an HGNC complete set (alias and previous names); the shipped lexicon used
# hgnc_complete_set.txt.gz of 2018-11-07 from github.com/lyijin/common @ 436e3ec. Without it
# the shipped file's rows other than NCBI's are kept (--keep-rows), so those names stay.
lexicon: install
	$(BIN)/python -m lab.lexicon build --shared $(SHARED) --out relx/data/lexicon.tsv.gz \
		$(if $(HGNC_NAMES),--hgnc-names $(HGNC_NAMES),--keep-rows relx/data/lexicon.tsv.gz) \
		$(if $(HCOP),--hcop $(HCOP))

# relx/data/gene_ranker.json, family_members.json, confidence_calibration.json: the learned
# parts of gene naming (relx.genes.ranker, .members, .confidence), fitted in this order on
# BioRED train's fit split (docs/genes.md: the development split is never used)
gene-naming: install
	mkdir -p runs/names
	$(BIN)/python -m lab.genes.ranker --shared $(SHARED) --report runs/names/ranker.json
	$(BIN)/python -m lab.genes.family_members --shared $(SHARED)
	$(BIN)/python -m lab.genes.confidence --shared $(SHARED) --report runs/names/confidence.json

# every report behind docs/results.md (lab/results.py); a finished report is kept, so this
# resumes
results: install $(SILVER) $(SILVER_2011) $(VECTORS) docs/runs/parser.json docs/runs/ner.json \
	    docs/runs/ge-events.json
	$(BIN)/python -m lab.results --shared $(SHARED) --out docs/results.md --runs docs/runs --raw

docs/runs/parser.json: | install
	$(BIN)/relx parser evaluate --json \
	    --conllu $(SHARED)/treebanks/genia/stanford_basic/dev.conllu.stanford > $@.tmp && mv $@.tmp $@

docs/runs/ner.json: | install
	$(BIN)/relx ner evaluate --json --standoff $(GE)/devel > $@.tmp && mv $@.tmp $@

# GE events: trained on GE 2011 train + GE 2013 train (a document in both is read once),
# tested on GE 2011 devel (python -m lab.ge: relx.ge.cli.evaluate_ge); event-model is the
# shipped models/ge-events, same recipe
docs/runs/ge-events.json: | install
	$(BIN)/python -m lab.ge evaluate --config configs/ge-events.toml --train $(GE)/train \
	    --train $(GE13)/train --test $(GE)/devel --cache-dir runs/events/cache --report $@

event-model: install
	$(BIN)/relx train --task events --config configs/ge-events.toml --out models/ge-events \
	    --version 0.4.0 --train $(GE)/train --train $(GE13)/train --cache-dir runs/events/cache

# kernel throughput and training seconds (benchmarks/bench_kernels.py builds the vectors
# itself when they are missing)
bench: install
	$(BIN)/python benchmarks/bench_kernels.py

clean:
	rm -rf $(VENV) runs .pytest_cache dist build
