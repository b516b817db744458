"""The app in headless Chromium: Train to coloured tokens, an Animate step, what the browser
does."""
