"""Analysis: what a trained tokenizer and its history say, computed from them.

Lineage (`lineage`), compression statistics (`stats`), the literature's metrics at every
size (`metrics`, counted by `metric_counts`), where a curve bends (`curve_bend`), cost per
language (`language_cost`) and its fairness (`fairness`), merge and split differences
(`merge_diff`, `split_diff`), vocabulary overlap (`vocab_overlap`), unseen text (`unseen`),
and the pair table at a step with its rewind (`pair_table`, `pair_rewind`).
May import `explorer.html`, `explorer.training`, `explorer.encoding` and `explorer.base`;
never `explorer.files`.
"""
