"""GENIA (BioNLP-ST GE) event extraction: triggers, arguments, assembly, evaluation."""
