"""A finding about a line of a document: the one place a rule's result is dressed with
the document's file, scope, project and checkout."""

from __future__ import annotations

from memtab.check.documents import Document
from memtab.check.records import Finding, FindingKind, Fix, Place
from memtab.markdown import text_lines


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
    lines = text_lines(document.text)
    text = lines[line - 1] if line is not None and 0 < line <= len(lines) else ""
    repair = None
    if fix is not None and line is not None:
        description, new_line = fix
        unique = document.text.count(text) == 1
        repair = Fix(
            description=description,
            old_str=text,
            new_str=new_line,
            plannable=document.plannable and unique and bool(text),
        )
    return Finding(
        path=document.path,
        line=line,
        kind=kind,
        message=message,
        why=why,
        scope=document.scope,
        agent=document.agent,
        subject=subject,
        text=text,
        workspace=document.workspace,
        project=document.project,
        checkout=str(document.checkout) if document.checkout is not None else None,
        fix=repair,
        related=related,
    )


def place(document: Document, line: int) -> Place:
    lines = text_lines(document.text)
    return Place(
        path=document.path,
        line=line,
        text=lines[line - 1] if 0 < line <= len(lines) else "",
        workspace=document.workspace,
        project=document.project,
    )
