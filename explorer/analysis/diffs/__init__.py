"""Two tokenizers compared: their merges by the bytes they make, their splits of one text."""
