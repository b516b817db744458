"""Encoding: text to token ids and back, with the merges a tokenizer holds.

Pre-tokenisation and special tokens (`pretokenize`), where a text may be cut without changing
its chunks (`safe_cuts`), applying merges to a chunk (`merging`, `chunk_encoder`), the
`Tokenizer` (encode with spans, decode, `at_vocab_size`; its special tokens and tokens outside
the merges checked in `extra_tokens`), encoding through tiktoken where it gives the same ids
(`tiktoken_path`, `engine_agreement`), encoding traced merge by merge (`encode_trace`) and the
command line's encode on two cores (`parallel_encode`).
May import `explorer.base` only.
"""
