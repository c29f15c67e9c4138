"""The check in the window, without Qt: what the panel lists and what rows and lines say."""
