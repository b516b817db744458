"""Compare's "Every run on one chart": many tokenizers on one evaluation text, at every size
of each, from one encode per run (section.py lays it out)."""
