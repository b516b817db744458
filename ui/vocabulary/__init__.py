"""The Vocabulary page's folder: the token table, its search, a token's lineage, the charts."""
