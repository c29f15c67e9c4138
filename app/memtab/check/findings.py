"""A finding about a line of a document: what a rule found on the line (`Found`: kept
between checks with the file's text, `check.kept`), and the one place it is dressed with
the document's file, scope, project and checkout (`dressed`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab.check.documents import Document
from memtab.check.records import Finding, FindingKind, Fix, Place
from memtab.markdown import text_lines


@dataclass(frozen=True, slots=True)
class Found:
    """What a rule found on a line of a file (None: the whole file), without the file:
    the line as the file holds it, the fix (what it does in words, the line as it should
    read, whether the line occurs once in the file) and the other lines of the finding."""

    line: int | None
    kind: FindingKind
    subject: str
    message: str
    why: str
    text: str = ""
    fix: tuple[str, str, bool] | None = None
    related: tuple[tuple[int, str], ...] = ()


def found_in(
    text: str,
    lines: Sequence[str],
    line: int | None,
    kind: FindingKind,
    *,
    subject: str,
    message: str,
    why: str,
    fix: tuple[str, str] | None = None,
    related: Sequence[int] = (),
) -> Found:
    """A finding on `line` of a file whose text is `text` (`lines`: its lines). `fix`:
    what the fix does in words, and the line as it should read."""
    said = lines[line - 1] if line is not None and 0 < line <= len(lines) else ""
    repair = None
    if fix is not None and line is not None:
        repair = (fix[0], fix[1], text.count(said) == 1)
    others = tuple((number, _line(lines, number)) for number in related)
    return Found(line, kind, subject, message, why, said, repair, others)


def dressed(document: Document, found: Found) -> Finding:
    """`found` as a finding of `document`."""
    fix = None
    if found.fix is not None and found.line is not None:
        description, new_line, unique = found.fix
        fix = Fix(
            description=description,
            old_str=found.text,
            new_str=new_line,
            plannable=document.plannable and unique and bool(found.text),
        )
    return Finding(
        path=document.path,
        line=found.line,
        kind=found.kind,
        message=found.message,
        why=found.why,
        scope=document.scope,
        agent=document.agent,
        subject=found.subject,
        text=found.text,
        workspace=document.workspace,
        project=document.project,
        checkout=str(document.checkout) if document.checkout is not None else None,
        fix=fix,
        related=tuple(_place(document, number, said) for number, said in found.related),
    )


def finding(
    document: Document,
    line: int | None,
    kind: FindingKind,
    *,
    subject: str,
    message: str,
    why: str,
    fix: tuple[str, str] | None = None,
    related: tuple[Place, ...] = (),
) -> Finding:
    """A finding on `line` of `document` (None: the whole file). `fix`: what the fix
    does in words, and the line as it should read."""
    text = document.text if line is not None else ""
    lines = text_lines(text) if line is not None else []
    said = found_in(text, lines, line, kind, subject=subject, message=message, why=why, fix=fix)
    return dressed(document, said).replaced(related=related)


def place(document: Document, line: int, lines: Sequence[str] | None = None) -> Place:
    """`line` of `document` as a place; `lines`: its text's lines, when the caller has
    them (a file cited many times is split once)."""
    if lines is None:
        lines = text_lines(document.text)
    return _place(document, line, _line(lines, line))


def _place(document: Document, line: int, text: str) -> Place:
    return Place(
        path=document.path,
        line=line,
        text=text,
        workspace=document.workspace,
        project=document.project,
    )


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number - 1] if 0 < number <= len(lines) else ""
