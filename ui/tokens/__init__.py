"""The Tokens page's folder: its inputs, the encoded text's summary, and encoding step by step."""
