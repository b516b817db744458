"""Compression: bytes per token, the literature's metrics at every size, bends, unseen text,
languages."""
