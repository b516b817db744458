"""Encoding: text to token ids and back, with the merges a tokenizer holds.

Pre-tokenisation and special tokens (`pretokenize`; Latin-1 text split by `re` in
`latin1_split`), where a text may be cut without changing its chunks (`safe_cuts`), applying
merges to a chunk (`merging`), the `Tokenizer` (encode with spans, decode, `at_vocab_size`;
its special tokens and tokens outside the merges checked in `extra_tokens`), encoding traced
merge by merge (`encode_trace`) and the command line's encode on two cores (`parallel_encode`).
May import `explorer.base` only.
"""
