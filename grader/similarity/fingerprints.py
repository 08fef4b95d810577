"""Fingerprints of Python source: its tokens normalised, hashed in k-grams and winnowed (the MOSS algorithm).

Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) keeps, of every window of W consecutive k-gram hashes,
the smallest (the rightmost on a tie): two texts sharing a run of at least K + W - 1 tokens share a fingerprint,
wherever the run stands in either. The tokens come from Python's own `tokenize`, read as text and never run:
names that are not keywords or builtins become one token, as do strings and numbers, comments and blank lines go,
and a string standing alone as a statement (a docstring) goes, so renamed identifiers, changed literals, comments
and docstrings leave the fingerprints as they were. Hashes are blake2b, never Python's salted hash(), so every run
on every machine gives the same ones.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import keyword
import tokenize
from dataclasses import dataclass

K = 20
"""Tokens in one k-gram: a shared run shorter than this is noise (a line or two of any solution)."""

W = 12
"""k-grams in one winnowing window: a shared run of K + W - 1 tokens is always seen."""

MAX_TOKENS = 200_000
"""Most tokens read from one student's files (a hostile submission's megabytes are cut there)."""

KEPT_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
"""Names kept as written: keywords and builtins, which renaming leaves alone."""

NAME, STRING, NUMBER = "N", "S", "0"
"""What every other name, every string and every number becomes."""

STRUCTURE = {tokenize.NEWLINE: "<end>", tokenize.INDENT: "<indent>", tokenize.DEDENT: "<dedent>"}
"""The tokens of a program's shape, each written as no Python token is."""

STATEMENT_START = frozenset(STRUCTURE.values())
"""After one of these a statement starts."""

DROPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER,
                     getattr(tokenize, "FSTRING_MIDDLE", -1), getattr(tokenize, "FSTRING_END", -1),
                     getattr(tokenize, "TSTRING_MIDDLE", -1), getattr(tokenize, "TSTRING_END", -1)})
"""Tokens that say nothing of the code: comments, blank lines, the text inside an f-string."""

STRING_STARTS = frozenset({tokenize.STRING, getattr(tokenize, "FSTRING_START", -1),
                           getattr(tokenize, "TSTRING_START", -1)})
"""Tokens that open a string (an f-string's expressions stay as code)."""


@dataclass(frozen=True)
class Token:
    """One normalised token and the source line it stands on."""

    text: str
    line: int


@dataclass(frozen=True)
class Print:
    """One fingerprint: a winnowed k-gram's hash, and the lines of its file the k-gram covers."""

    hash: int
    file: str
    first: int
    """First line of the k-gram (1-based)."""
    last: int
    """Last line of the k-gram."""


def tokens(source: str) -> list[Token]:
    """The normalised tokens of source; a file that stops tokenizing (a syntax error) gives those before it."""
    raw: list[tuple[str, int]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in DROPPED:
                continue
            if token.type in STRUCTURE:
                raw.append((STRUCTURE[token.type], token.start[0]))
            elif token.type in STRING_STARTS:
                if raw and raw[-1][0] == STRING and token.type == tokenize.STRING:
                    continue  # "a" "b": implicit concatenation is one string
                raw.append((STRING, token.start[0]))
            elif token.type == tokenize.NUMBER:
                raw.append((NUMBER, token.start[0]))
            elif token.type == tokenize.NAME:
                raw.append((token.string if token.string in KEPT_NAMES else NAME, token.start[0]))
            else:
                raw.append((token.string, token.start[0]))
            if len(raw) >= MAX_TOKENS:
                break
    except (tokenize.TokenError, SyntaxError, ValueError):  # a broken file: what came before the break counts
        pass
    return _without_docstrings(raw)


def _without_docstrings(raw: list[tuple[str, int]]) -> list[Token]:
    """The tokens less every string standing alone as a statement (docstrings, strings used as comments)."""
    kept: list[Token] = []
    for index, (text, line) in enumerate(raw):
        if (text == STRING and (index == 0 or raw[index - 1][0] in STATEMENT_START)
                and index + 1 < len(raw) and raw[index + 1][0] == STRUCTURE[tokenize.NEWLINE]):
            continue
        if text == STRUCTURE[tokenize.NEWLINE] and (not kept or kept[-1].text in STATEMENT_START):
            continue  # the docstring's own end of statement, or an empty line's
        kept.append(Token(text, line))
    return kept


def kgram_hash(texts: list[str]) -> int:
    """A k-gram's hash: the same on every run and machine."""
    return int.from_bytes(hashlib.blake2b("\x1f".join(texts).encode(), digest_size=8).digest(), "big")


def winnow(file: str, found: list[Token], *, k: int = K, w: int = W) -> list[Print]:
    """The fingerprints of one file's tokens: the smallest hash of every window of w k-grams (the rightmost of
    equals), each once; a file shorter than one k-gram has none."""
    texts = [token.text for token in found]
    hashes = [kgram_hash(texts[start:start + k]) for start in range(len(texts) - k + 1)]
    if not hashes:
        return []
    chosen: list[int] = []
    for start in range(max(1, len(hashes) - w + 1)):
        window = hashes[start:start + w]
        smallest = min(window)
        position = start + max(i for i, value in enumerate(window) if value == smallest)
        if not chosen or chosen[-1] != position:
            chosen.append(position)
    return [Print(hashes[p], file, found[p].line, found[min(p + k, len(found)) - 1].line) for p in chosen]


def fingerprint(files: dict[str, str]) -> list[Print]:
    """The fingerprints of a set of files (path to source), in path order; MAX_TOKENS bounds the whole set."""
    prints: list[Print] = []
    budget = MAX_TOKENS
    for path in sorted(files):
        if budget <= 0:
            break
        found = tokens(files[path])[:budget]
        budget -= len(found)
        prints.extend(winnow(path, found))
    return prints
