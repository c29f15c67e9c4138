"""Parse OCR text of a label into collector, date and locality."""

import re

DATE = re.compile(r"\b(1[89]\d\d|20\d\d)(-\d\d)?(-\d\d)?\b")
