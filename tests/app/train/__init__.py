"""Tests of ui/train/."""
