"""Plain text escaped for Qt's rich text: what `html.escape` gives, without its package."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from memtab.components.rich_text import escape_html


@given(st.text())
def test_escape_html_is_html_escape(text: str) -> None:
    assert escape_html(text) == html.escape(text)


def test_markup_and_quotes_are_shown_as_typed() -> None:
    shown = "&lt;b&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/b&gt;"
    assert escape_html("""<b>"x" & 'y'</b>""") == shown
