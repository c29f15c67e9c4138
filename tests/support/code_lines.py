"""Lines of code as the formatter would lay them out, read from the syntax tree: what the ledger
counts (scripts/ledger, tests/support/ledger.py).

Comments, blank lines and docstrings (and any other bare string statement) are not code. Every
statement is laid out from its tree at the project's 100 columns the way ruff's formatter does
it: one line if it fits; else split at its last bracket — the bracket's contents on one line if
they fit there, else one element a line, each laid out the same way. So reflowing a call,
adding or dropping a trailing comma or a blank line, or moving a comment changes no count;
renaming, adding or removing code does. Our own layout rather than the formatter's output: a
ruff release that lays something out one line differently would move a count nobody changed.
Checked against `ruff format` of the unparsed tree: within 1 % over the app
(tests/unit/test_ledger.py).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 100  # pyproject.toml's line-length
INDENT = 4


def is_bare_string(statement: ast.stmt) -> bool:
    """A docstring, or any string standing as a statement (an attribute's docstring)."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def code_lines(statements: Sequence[ast.stmt], depth: int = 0) -> int:
    """How many lines `statements` (at indentation `depth`) take, laid out (module doc)."""
    return sum(_statement(statement, depth) for statement in statements)


@dataclass(frozen=True)
class _Part:
    """One element between a bracket pair: its text, and its node when it can split further."""

    text: str
    node: ast.expr | None = None
    prefix: int = 0  # what stands before the node on its line ("key=", "**", "k: ")


def _fits(depth: int, length: int) -> bool:
    return depth * INDENT + length <= WIDTH


def _body(statements: Sequence[ast.stmt], depth: int) -> int:
    if _is_stub(statements):
        return 0  # `...` stands on its header's line
    counted = code_lines([s for s in statements if not is_bare_string(s)], depth)
    return max(counted, 1)  # a body of only a docstring still holds a statement


def _is_stub(statements: Sequence[ast.stmt]) -> bool:
    code = [s for s in statements if not is_bare_string(s)]
    return (
        len(code) == 1
        and isinstance(code[0], ast.Expr)
        and isinstance(code[0].value, ast.Constant)
        and code[0].value.value is Ellipsis
    )


def _statement(node: ast.stmt, depth: int) -> int:
    if is_bare_string(node):
        return 0
    match node:
        case ast.FunctionDef() | ast.AsyncFunctionDef():
            decorators = sum(_expr(d, depth, 1, 0) for d in node.decorator_list)
            keyword = "async def " if isinstance(node, ast.AsyncFunctionDef) else "def "
            returns = f" -> {ast.unparse(node.returns)}:" if node.returns else ":"
            head = _bracket(f"{keyword}{node.name}(", _parameters(node.args), ")" + returns, depth)
            return decorators + head + _body(node.body, depth + 1)
        case ast.ClassDef():
            decorators = sum(_expr(d, depth, 1, 0) for d in node.decorator_list)
            parts = [_Part(ast.unparse(b), b) for b in node.bases]
            parts += [_keyword(k) for k in node.keywords]
            head = _bracket(f"class {node.name}(", parts, "):", depth) if parts else 1
            return decorators + head + _body(node.body, depth + 1)
        case ast.If():
            lines = _clause("if ", node.test, depth) + _body(node.body, depth + 1)
            rest = node.orelse
            while len(rest) == 1 and isinstance(rest[0], ast.If):  # elif
                lines += _clause("elif ", rest[0].test, depth) + _body(rest[0].body, depth + 1)
                rest = rest[0].orelse
            return lines + (1 + _body(rest, depth + 1) if rest else 0)
        case ast.For() | ast.AsyncFor():
            target = ast.unparse(node.target)
            lines = _clause(f"for {target} in ", node.iter, depth) + _body(node.body, depth + 1)
            return lines + (1 + _body(node.orelse, depth + 1) if node.orelse else 0)
        case ast.While():
            lines = _clause("while ", node.test, depth) + _body(node.body, depth + 1)
            return lines + (1 + _body(node.orelse, depth + 1) if node.orelse else 0)
        case ast.With() | ast.AsyncWith():
            items = [_Part(ast.unparse(item)) for item in node.items]
            joined = ", ".join(part.text for part in items)
            head = 1 if _fits(depth, len(joined) + 6) else _bracket("with (", items, "):", depth)
            return head + _body(node.body, depth + 1)
        case ast.Try() | ast.TryStar():
            lines = 1 + _body(node.body, depth + 1)
            for handler in node.handlers:
                lines += 1 + _body(handler.body, depth + 1)
            if node.orelse:
                lines += 1 + _body(node.orelse, depth + 1)
            if node.finalbody:
                lines += 1 + _body(node.finalbody, depth + 1)
            return lines
        case ast.Match():
            lines = _clause("match ", node.subject, depth)
            for case in node.cases:
                lines += 1 + _body(case.body, depth + 2)
            return lines
        case ast.Assign() | ast.AugAssign() | ast.AnnAssign():
            value = node.value
            if value is None or _fits(depth, len(ast.unparse(node))):
                return 1
            before = len(ast.unparse(node)) - len(ast.unparse(value))
            return _expr(value, depth, before, 0)
        case ast.Return() | ast.Expr() if node.value is not None:
            before = len("return ") if isinstance(node, ast.Return) else 0
            return _expr(node.value, depth, before, 0)
        case ast.Raise() if node.exc is not None and node.cause is None:
            return _expr(node.exc, depth, len("raise "), 0)
        case ast.ImportFrom():
            if _fits(depth, len(ast.unparse(node))):
                return 1
            return 2 + len(node.names)  # an import split is one name a line
        case _:
            return 1


def _clause(keyword: str, test: ast.expr, depth: int) -> int:
    """`if test:` and the like: one line, else the test in brackets of its own, split."""
    if _fits(depth, len(keyword) + len(ast.unparse(test)) + 1):
        return 1
    return 2 + _expr(test, depth + 1, 0, 0, bracketed=True)


def _parameters(arguments: ast.arguments) -> list[_Part]:
    parts: list[_Part] = []
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    for index, (argument, default) in enumerate(zip(positional, defaults, strict=True)):
        parts.append(_Part(_parameter(argument, default)))
        if arguments.posonlyargs and index == len(arguments.posonlyargs) - 1:
            parts.append(_Part("/"))
    if arguments.vararg is not None:
        parts.append(_Part("*" + _parameter(arguments.vararg, None)))
    elif arguments.kwonlyargs:
        parts.append(_Part("*"))
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        parts.append(_Part(_parameter(argument, default)))
    if arguments.kwarg is not None:
        parts.append(_Part("**" + _parameter(arguments.kwarg, None)))
    return parts


def _parameter(argument: ast.arg, default: ast.expr | None) -> str:
    text = argument.arg
    if argument.annotation is not None:
        text += f": {ast.unparse(argument.annotation)}"
    if default is not None:
        text += (" = " if argument.annotation is not None else "=") + ast.unparse(default)
    return text


def _keyword(keyword: ast.keyword) -> _Part:
    name = f"{keyword.arg}=" if keyword.arg is not None else "**"
    return _Part(name + ast.unparse(keyword.value), keyword.value, len(name))


def _expr(node: ast.expr, depth: int, before: int, after: int, *, bracketed: bool = False) -> int:
    """The lines of `node` on a line where `before` and `after` characters stand beside it
    (`bracketed`: inside brackets already, where an operator chain splits without its own)."""
    text = ast.unparse(node)
    if _fits(depth, before + len(text) + after):
        return 1
    beside = (before, after)
    match node:
        case ast.Call():
            parts = [_Part(ast.unparse(a), a) for a in node.args]
            parts += [_keyword(k) for k in node.keywords]
            return _bracket(ast.unparse(node.func) + "(", parts, ")", depth, beside)
        case ast.List() | ast.Tuple() | ast.Set():
            parts = [_Part(ast.unparse(e), e) for e in node.elts]
            return _bracket("(", parts, ")", depth, beside, literal=True)
        case ast.Dict():
            parts = [
                _Part(f"{ast.unparse(k)}: {ast.unparse(v)}", v, len(ast.unparse(k)) + 2)
                if k is not None
                else _Part("**" + ast.unparse(v), v, 2)
                for k, v in zip(node.keys, node.values, strict=True)
            ]
            return _bracket("{", parts, "}", depth, beside, literal=True)
        case ast.ListComp() | ast.SetComp() | ast.GeneratorExp() | ast.DictComp():
            element = (
                f"{ast.unparse(node.key)}: {ast.unparse(node.value)}"
                if isinstance(node, ast.DictComp)
                else ast.unparse(node.elt)
            )
            parts = [_Part(element)]
            for generator in node.generators:
                head = f"for {ast.unparse(generator.target)} in "
                iterated = generator.iter
                parts.append(_Part(head + ast.unparse(iterated), iterated, len(head)))
                parts += [_Part(f"if {ast.unparse(test)}", test, 3) for test in generator.ifs]
            return _bracket("(", parts, ")", depth, beside, commas=False)
        case ast.Subscript():
            index = node.slice
            parts = (
                [_Part(ast.unparse(e), e) for e in index.elts]
                if isinstance(index, ast.Tuple)
                else [_Part(ast.unparse(index), index)]
            )
            return _bracket(ast.unparse(node.value) + "[", parts, "]", depth, beside)
        case ast.BoolOp() | ast.BinOp() | ast.Compare():
            if bracketed:
                return sum(_expr(o, depth, 4, 0, bracketed=True) for o in _operands(node))
            return 2 + sum(_expr(o, depth + 1, 4, 0, bracketed=True) for o in _operands(node))
        case _:
            return 1


def _operands(node: ast.expr) -> list[ast.expr]:
    """The operands a long operator chain is split between, one a line."""
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    assert isinstance(node, ast.BinOp)
    left = _operands(node.left) if isinstance(node.left, ast.BinOp) else [node.left]
    return [*left, node.right]


def _bracket(
    head: str,
    parts: Sequence[_Part],
    tail: str,
    depth: int,
    beside: tuple[int, int] = (0, 0),
    *,
    commas: bool = True,
    literal: bool = False,
) -> int:
    """The lines of `head` + `parts` + `tail` split at the bracket (module doc), `beside`: what
    stands before and after them on their line; a `literal` list, tuple, set or dict of two or
    more split is one element a line, as the formatter always splits it."""
    joined = (", " if commas else " ").join(part.text for part in parts)
    if _fits(depth, sum(beside) + len(head) + len(joined) + len(tail)):
        return 1
    if len(parts) <= 1 or (_fits(depth + 1, len(joined)) and not literal):
        inner = 1
        if len(parts) == 1 and parts[0].node is not None and not _fits(depth + 1, len(joined)):
            inner = _expr(parts[0].node, depth + 1, parts[0].prefix, 0, bracketed=True)
        return 2 + inner
    return 2 + sum(
        _expr(part.node, depth + 1, part.prefix, 1, bracketed=True) if part.node is not None else 1
        for part in parts
    )
