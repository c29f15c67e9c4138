"""Read label crops with Tesseract."""

import pytesseract


def read_label(image) -> str:
    return pytesseract.image_to_string(image, lang="eng+lat", config="--psm 6")
