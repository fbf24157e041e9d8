"""The registry of commands: each command type declares, with :func:`command`, the words
that start it (:class:`Word`: as ``help``, completion and the reader's messages name them)
and how the reader builds it from each grammar rule that makes one. The tables it fills,
:data:`WORDS` and :data:`BUILDERS`, are read by help, completion, the explanations of lines
that do not read, and the reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from spider_cli.rules.values import Value

K = TypeVar("K", bound=Value)


class Word(Value):
    """One word that starts a command line.

    ``summary``: a few words shown beside it in the completion menu. ``takes``: what it
    takes, said when its line does not read (None for moves, whose mistakes have their own
    messages). ``group`` and ``overview``: where and how ``help`` lists it (no group: not
    listed, as for a second spelling).
    """

    word: str
    summary: str
    takes: str | None
    group: str | None = None
    overview: tuple[str, ...] = ()


WORDS: dict[str, Word] = {}
"""Every command word, in the order ``help`` lists them (the order of the command classes
in :mod:`commands`); the tests check that the grammar and the table name the same words."""

Builder = Callable[[list[Any]], Value]
"""How the reader makes a command of the values of a grammar rule's parts."""

BUILDERS: dict[str, Builder] = {}
"""For each rule of grammar/commands.lark that makes a command, its builder: the reader's
method of that name (:class:`reader.Reader`)."""


KINDS: list[type[Value]] = []
"""Every command type declared, in order (the tests check it against the ``Command`` union
and the session's table of handlers)."""


def command(*words: Word, **builders: Builder) -> Callable[[type[K]], type[K]]:
    """Declare a command type: the words that start it, as ``help`` lists them, and, by
    rule name, how the reader builds it from each grammar rule that makes one."""

    def register(kind: type[K]) -> type[K]:
        KINDS.append(kind)
        for word in words:
            WORDS[word.word] = word
        BUILDERS.update(builders)
        return kind

    return register
