"""Tests of `ui/` and the pages through AppTest, one folder per page folder of `ui/`."""
