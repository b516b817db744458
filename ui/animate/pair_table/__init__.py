"""Animate's pair table: the pairs with the highest counts at a step, cached (tables), drawn
beside the passage (view) as one escaped HTML table (table_html)."""
