"""Placeholder until this page is written."""

import streamlit as st

st.title("train")
