"""The Train page's folder: its form, the run it asks for, training, results and files."""
