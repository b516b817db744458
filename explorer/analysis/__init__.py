"""Analysis: what a trained tokenizer and its history say, computed from them.

By role, one folder each:
- `compression`: bytes per token along training (`stats`), the literature's metrics at
  every size (`metrics`, counted by `metric_counts`, a block at a time by `metric_stream`
  and `block_counts`), where a curve bends (`curve_bend`), unseen text (`unseen`), cost per
  language (`language_cost`) and its fairness (`fairness`);
- `vocabulary`: a token's lineage (`lineage`), a vocabulary's check-up (`checkup`,
  `checkup_rows`) and how much of one vocabulary another has (`vocab_overlap`);
- `diffs`: two tokenizers' merges (`merge_diff`) and splits (`split_diff`) compared;
- `pairs`: the pair table at a training step (`pair_table`) and its rewind (`pair_rewind`).

May import `explorer.html`, `explorer.training`, `explorer.encoding` and `explorer.base`;
never `explorer.files`.
"""
