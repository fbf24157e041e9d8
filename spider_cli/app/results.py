"""What the session's methods return: immutable typed values, one a kind of answer.

A front end chooses how to show each (the line mode and the board draw a ``Played`` their
own way); :mod:`spider_cli.app.words.replies` writes each as the text a script prints.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.language import commands as cmd
from spider_cli.language.gamefiles import DealOrigin, Origin
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Action, Game
from spider_cli.rules.goals import Wanted
from spider_cli.rules.values import Value

if TYPE_CHECKING:
    from spider_cli.analysis import Advice, Checked, Lost, Mark, Review
    from spider_cli.app.files.gamelog import Result

__all__ = [
    "Assumed",
    "Auto",
    "Choice",
    "GameReviewed",
    "LoadKind",
    "Loaded",
    "Matched",
    "Opened",
    "Played",
    "PlayedOn",
    "Recorded",
    "Replayed",
    "Reply",
    "Reviewed",
    "Rewound",
    "Saved",
    "SettingChanged",
    "Started",
    "Status",
    "Stop",
    "Stopped",
]


class Status(Value):
    """The game at a glance (the toolbar's line): piles are numbered 0..9, as in the engine."""

    origin: Origin
    deals_left: int
    removed: int
    moves: int
    score: int
    won: bool
    lost: bool
    ready: tuple[int, ...]
    """Piles ending with a complete suit, King to Ace, that could be removed."""
    played: float | None = None
    """Seconds played in this game, when the session keeps time (at the prompt)."""


class Played(Value):
    """An action played: its notation, the cards it turned up ((pile 0..9, card) pairs),
    the suits it removed (also by autoremove), and what it changed in the game as a whole.
    Only what a reply says is worked out: the score only once the game is over (the
    session's :meth:`~spider_cli.app.session.Session.status` gives the whole status)."""

    action: Action
    text: str
    turned_up: tuple[tuple[int, Card], ...]
    removed: tuple[int, ...]
    moved: tuple[Card, ...]
    """The cards a move carried, the top one first (none for a deal or a removal)."""
    deals_left: int
    ready: tuple[int, ...]
    """Piles on which this action completed a suit that could be removed (a move's
    destination, or any pile after a deal): said once, by the action that completed it."""
    won: bool
    """The game is won after it."""
    wins: bool
    """This action won the game (the win is announced once, not again after a remove)."""
    lost: bool
    score: int | None
    """The score once the game is over (won or lost), else None."""


class Recorded(Value):
    """One action of the game's history: its notation (in the position before it), the
    unknown cards it turned up or dealt ((pile 0..9, card) pairs) and, for a move, the cards
    it moved (bottom card first, as :attr:`Played.moved`)."""

    action: Action
    text: str
    reveals: tuple[tuple[int, Card], ...] = ()
    moved: tuple[Card, ...] = ()


class Rewound(Value):
    """Actions taken back (by ``undo`` or ``restart``), the last one played first."""

    moves: tuple[Recorded, ...]
    restart: bool = False


class Replayed(Value):
    """Actions replayed by ``redo``, in the order played."""

    moves: tuple[Played, ...]


class Started(Value):
    """A new numbered deal; ``chosen``: how full-information play won it, when a deal of a
    kind was asked for (``wanted``), and ``skipped`` the deals before it that were not."""

    origin: DealOrigin
    chosen: Checked | None = None
    skipped: int = 0
    wanted: Wanted | None = None


class LoadKind(Enum):
    """What ``load`` read."""

    POSITION_CODE = "position code"
    POSITION_FILE = "position file"
    GAME_FILE = "game file"
    EXAMPLE = "example"


class Loaded(Value):
    """What ``load`` read: ``name`` as the player wrote it (a file's own name for files),
    ``path`` the file read (None for a code), ``moves`` the moves a game file replayed."""

    kind: LoadKind
    name: str
    path: Path | None
    origin: Origin
    game_file: bool = False
    moves: int = 0


class Ran(Value):
    """A script run in the game in progress (``run FILE``): its name, the replies of the
    lines it ran, in order, and where it stopped when a line was refused (``FILE:LINE:
    error: ...``; None: it ran to its end)."""

    name: str
    replies: tuple[str, ...]
    stopped: str | None = None


class PlayedOn(Value):
    """A new game begun from a position of another (the board's analysis view: play on from
    the position after move ``move`` of the game reviewed, ``number`` of the history if it
    is recorded), as a position file begins one; the other game is left as it was."""

    origin: Origin
    move: int
    number: int | None = None


class Opened(Value):
    """Game ``number`` of the history, brought back as it was left (``moves`` replayed)."""

    number: int
    deal: str
    result: Result
    moves: int
    origin: Origin

    @property
    def finished(self) -> bool:
        """The game had ended (won or lost): playing on from it is not recorded again."""
        from spider_cli.app.files.gamelog import Result

        return self.result in (Result.WON, Result.LOST)


class Saved(Value):
    """The game written to ``path`` (``name`` as the player wrote it)."""

    name: str
    path: Path


class Resigned(Value):
    """The player gave the game up after ``moves`` moves: the history records it as lost."""

    moves: int


class Matched(Value):
    """``expect``: the position is the one in the file."""

    name: str


class Assumed(Value):
    """The next unknown card turned up on ``pile`` (0..9) will be ``card``."""

    pile: int
    card: Card


class SettingChanged(Value):
    name: str
    value: bool | str


class Choice(Value):
    """A legal action, in notation; ``natural`` for a move onto its own suit."""

    action: Action
    text: str
    natural: bool


class Reply(Value):
    """What a command has to say, and whether the player asked to leave."""

    text: str = ""
    quit: bool = False
    command: cmd.Command | None = None
    """The command that was run (the REPL chooses how to show its result by its type)."""
    result: object = None
    """The typed result of the method the command called, if any."""


class GameReviewed(Value):
    """``review``: the game's review (:class:`spider_cli.analysis.review.Review`)."""

    review: Review


class Reviewed(Value):
    """``review N``: the position before move ``move`` as its player saw it, the move
    played there, the review's mark on it (None: not marked), and the blind player's chance
    of a win before it; the chance after the move played, the blind player's own move
    there ("": the same, or none) and the chance after it, and the review's verdict when
    this is the move after which the deal was lost with every card known (else None)."""

    move: int
    before: Game
    played: str
    mark: Mark | None
    chance: float
    after: float = 0.0
    better: str = ""
    better_chance: float | None = None
    lost: Lost | None = None


class Stop(Enum):
    """Why ``auto`` stops before its moves run out (its words:
    :func:`spider_cli.app.words.advice.stop_text`)."""

    WON = "won"
    """The game is won."""
    LOST = "lost"
    """The game is lost."""
    NO_MOVE = "no move"
    """The hint has no move to play, or only the least bad one (the game looks lost)."""


class Stopped(Value):
    """``auto``'s step when it stops: why, and the hint that has no move (for
    :attr:`Stop.NO_MOVE`)."""

    why: Stop
    advice: Advice | None = None


class Auto(Value):
    """What ``auto`` played, and why it stopped."""

    moves: tuple[Played, ...]
    stopped: str
