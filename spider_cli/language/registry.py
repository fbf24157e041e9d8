"""The registry of commands: each command type declares, with :func:`command`, the words
that start it (:class:`Word`: as ``help``, completion and the reader's messages name them)
and how the reader builds it from each grammar rule that makes one. The tables it fills,
:data:`WORDS` and :data:`BUILDERS`, are read by help, completion, the explanations of lines
that do not read, and the reader."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from spider_cli.rules.values import Value

K = TypeVar("K", bound=Value)


class Argument(Enum):
    """What a command's argument is, so that completion can offer its values."""

    PILE = "pile"
    """Any pile (``show``)."""
    HIDDEN_PILE = "hidden pile"
    """A pile with unknown cards still to turn up (``assume``)."""
    COMPLETE_PILE = "complete pile"
    """A pile a complete suit can be removed from (``remove``)."""
    GAME = "game"
    """A game of the history, by number (``open``)."""
    TOPIC = "topic"
    """A help topic (``help``)."""
    SETTING = "setting"
    """A setting's name, then one of its values (``set``)."""
    FILE = "file"
    """A file name (``save``, ``expect``)."""
    FILE_OR_EXAMPLE = "file or example"
    """A file name or one of the manual's examples (``load``)."""


class Word(Value):
    """One word that starts a command line.

    ``summary``: a few words shown beside it in the completion menu. ``takes``: what it
    takes, said when its line does not read (None for moves, whose mistakes have their own
    messages). ``group`` and ``overview``: where and how ``help`` lists it (no group: not
    listed, as for a second spelling). ``argument``: what completion offers after it.
    """

    word: str
    summary: str
    takes: str | None
    group: str | None = None
    overview: tuple[str, ...] = ()
    argument: Argument | None = None


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
