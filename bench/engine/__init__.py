"""The engine against its anchors (tiktoken, HF tokenizers), in the same run: ratios."""
