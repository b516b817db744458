"""Tests of `explorer/`, one folder per wing (tests/engine/training/ tests explorer/training/)."""
