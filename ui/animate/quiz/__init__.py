"""Animate's quiz "Predict the next merge": the questions and score as plain values
(questions), and the panel that shows the pair table or the quiz in its place (panel)."""
