"""One game in progress, and the methods that act on it.

A :class:`Session` holds a :class:`~spider_cli.rules.engine.Game` and how it began (its
origin). Its methods are the program's API: they take typed values (engine moves, command
values) and return typed results (:mod:`spider_cli.app.results`), and every failure is a
:class:`~spider_cli.rules.errors.SpiderError` with a message for a player, leaving the game
as it was. A command runs in two phases (:mod:`spider_cli.app.interpreter`): prepared, its
questions answered by the front end, then run; :meth:`Session.execute` runs a line as a
script does.

The engine's move stack is the game's only history: the moves in notation, the cards they
turned up, game files and the journal are all derived from it (:meth:`Session.history`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spider_cli.app import analysing, interpreter, storage
from spider_cli.app.interpreter import Answers, Prepared
from spider_cli.app.interrupt import HELD
from spider_cli.app.results import (
    Assumed,
    Auto,
    Choice,
    Loaded,
    LoadKind,
    Matched,
    Opened,
    Played,
    Recorded,
    Replayed,
    Reply,
    Resigned,
    Rewound,
    Saved,
    SettingChanged,
    Started,
    Status,
)
from spider_cli.language import commands as cmd
from spider_cli.language import positions
from spider_cli.language.commands import SETTING_VALUES, Settings
from spider_cli.language.gamefiles import DealOrigin, Origin, PositionOrigin
from spider_cli.language.notation import resolve
from spider_cli.rules.cards import ACE, Card
from spider_cli.rules.deals import KPAT_MAX, PYSOL_MAX, DealSource, Source
from spider_cli.rules.engine import Action, Deal, Game, Move, PositionKey, Remove
from spider_cli.rules.errors import IllegalMoveError, SpiderError
from spider_cli.rules.goals import Constraints, Goal, Wanted
from spider_cli.rules.text import move_text
from spider_cli.rules.values import replace

if TYPE_CHECKING:
    from collections.abc import Callable

    from spider_cli.analysis.answers import Report
    from spider_cli.analysis.blindplayer import Mode
    from spider_cli.analysis.chances import Chance
    from spider_cli.analysis.hints import Advice
    from spider_cli.app.gamelog import Entry, Facts, GameLog
    from spider_cli.app.timer import Timer

__all__ = [
    "SETTING_VALUES",
    "Answers",
    "Assumed",
    "Auto",
    "Choice",
    "DealOrigin",
    "LoadKind",
    "Loaded",
    "Matched",
    "Opened",
    "Origin",
    "Played",
    "PositionOrigin",
    "Prepared",
    "Recorded",
    "Replayed",
    "Reply",
    "Resigned",
    "Rewound",
    "Saved",
    "Session",
    "SettingChanged",
    "Settings",
    "Started",
    "Status",
]


LAST_DEAL = {Source.PYSOL: PYSOL_MAX, Source.KPAT: KPAT_MAX}
"""The last deal number of the programs whose numbers end (ours do not)."""


class Session:
    """A game in progress, how it began, and what is needed to save and replay it exactly.

    A session never asks the player anything: :meth:`prepare` says which questions a command
    needs answered (which card turns up, replace a file?), and :meth:`run` takes the
    answers. ``clock`` is read by a ``solve ... within N seconds`` (the only search a clock
    may stop) and to say how long a search took; None (the default) leaves searches bounded
    by positions alone (the REPL and the CLI pass ``time.perf_counter``). ``found`` is the
    rest of the line the last ``solve`` or ``hint`` found, for ``apply``, and ``found_at``
    the position (``Game.key()``) it starts from; ``hinted`` is the position the last hint
    was asked in, the rank of the choice given and whether the search was the deeper one
    (``hint next`` gives the following choice); ``planned``
    the position the last hint's line ends in and the value of a space the player had there.
    ``timer``
    keeps the time played in this game (the REPL and the board keep one; scripts do not):
    each new game gets a fresh one, a resumed game file starts from the time it carries.
    ``source_name`` says how the game began, in a word, for the history: the deal's name
    ("17", "pysol:14934") or the name of the position or file loaded. ``log`` is the history
    of games read by ``games``, ``open`` and ``stats`` (None: the one in the player's data
    directory, opened when first needed). ``slow_noted``: the player has been told that the
    searches run on the slow Python path (it is said once).
    """

    def __init__(
        self,
        game: Game | None = None,
        origin: Origin | None = None,
        settings: Settings | None = None,
        base_dir: Path | None = None,
        changed: bool = False,
        clock: Callable[[], float] | None = None,
        found: list[Action] | None = None,
        found_at: PositionKey | None = None,
        hinted: tuple[PositionKey | None, int, bool] = (None, 0, False),
        planned: tuple[PositionKey | None, Mode | None] = (None, None),
        timer: Timer | None = None,
        source_name: str = "",
        log: GameLog | None = None,
        slow_noted: bool = False,
    ) -> None:
        self.game = Game.new(0) if game is None else game
        self.origin: Origin = DealOrigin(0) if origin is None else origin
        self.settings = Settings() if settings is None else settings
        self.base_dir = Path.cwd() if base_dir is None else base_dir
        self.changed = changed
        self.clock = clock
        self.found: list[Action] = [] if found is None else found
        self.found_at = found_at
        self.hinted = hinted
        self.planned = planned
        self.timer = timer
        self.source_name = source_name
        self.log = log
        self.slow_noted = slow_noted

    def copy(self, **changes: Any) -> Session:
        """A session sharing this one's values except ``changes`` (its game is the same
        object unless a new one is given)."""
        return Session(**{**vars(self), **changes})

    def __repr__(self) -> str:
        return f"Session({self.origin!r}, {self.game.moves_made} moves)"

    @classmethod
    def new_game(
        cls,
        seed: int | DealSource | None = None,
        suits: int = 4,
        wanted: Wanted | None = None,
        **kwargs: object,
    ) -> Session:
        """A session at the start of deal ``seed`` (a random one if None), or of the first
        deal from there on of the kind ``wanted``."""
        session = cls(**kwargs)  # type: ignore[arg-type]
        session.new(seed, suits, wanted)
        session.changed = False
        return session

    @classmethod
    def of_position(cls, game: Game, **kwargs: object) -> Session:
        """A session at ``game``, which began as that position."""
        origin = PositionOrigin(positions.position_code(game))
        return cls(game=game, origin=origin, **kwargs)  # type: ignore[arg-type]

    # -- commands, in two phases (spider_cli.app.interpreter) ---------------------------------

    def execute(self, line: str) -> Reply:
        """Run one line as a script does (nothing asked: cards drawn from the pool, no file
        replaced but by ``save!``); raises only SpiderError, leaving the game as it was."""
        return interpreter.execute(self, line)

    def prepare(self, command: cmd.Command | Action) -> Prepared:
        """What ``command`` (or an engine action) will do, and the questions it needs
        answered before it runs."""
        return interpreter.prepare(self, command)

    def run(self, prepared: Prepared, answers: Answers | None = None) -> Reply:
        """Run a prepared command with the answers to its questions (it asks nothing)."""
        return interpreter.run(self, prepared, answers)

    # -- moves --------------------------------------------------------------------------------

    def move(self, what: Move | cmd.MoveCommand | cmd.ObviousCommand) -> Played:
        """Move cards: an engine move, or a move command as typed (the cards it names, or a
        pile whose cards go to their obvious place)."""
        return self.play(what if isinstance(what, Move) else resolve(self.game, what))

    def deal(self) -> Played:
        """Deal a row of ten cards from the hand."""
        return self.play(Deal())

    def remove(self, pile: int | None = None, suit: int | None = None) -> Played:
        """Take a complete suit off pile ``pile`` (0..9); with no pile, off the first pile
        that ends with one (of ``suit``, if given)."""
        return self.play(self.game.removal(pile, suit))

    def play(self, action: Action) -> Played:
        """Check an engine action against the rules, then play it (unknown cards it turns
        up are drawn from the pool unless assumed)."""
        reason = self.game.why_illegal(action)
        if reason:
            raise IllegalMoveError(reason)
        return self.push(action)

    def push(self, action: Action) -> Played:
        """Play an action already checked against the rules (:meth:`prepare` checks)."""
        return self._changed_by(action, move_text(self.game, action))

    def _changed_by(self, action: Action, text: str, redo: bool = False) -> Played:
        """Push the action (or redo it, the next one taken back) and say what it changed."""
        game = self.game
        down = game.down[:]
        removed = len(game.removed)
        was_won = game.is_won()
        moved = (
            tuple(map(Card, game.piles[action.src][-action.count :]))
            if isinstance(action, Move)
            else ()
        )
        with HELD:  # Ctrl-C waits for the move to be whole
            if redo:
                game.redo()
            else:
                game.push(action)
        self.changed = True
        turned: tuple[tuple[int, Card], ...] = ()
        if game.down != down:
            turned = tuple(
                (pile, Card(game.piles[pile][before - 1]))
                for pile, before in enumerate(down)
                if game.down[pile] < before
            )
        gone = tuple(game.removed[removed:]) if len(game.removed) > removed else ()
        status = self.status()
        return Played(action, text, turned, gone, status, status.won and not was_won, moved)

    def undo(self, n: int = 1) -> Rewound:
        """Take back the last ``n`` actions (as many as there are)."""
        if n < 1:
            raise SpiderError("undo needs a positive number of moves")
        if not self.game.moves_made:
            raise IllegalMoveError("nothing to undo: this is the start of the game")
        return self._rewind(n)

    def restart(self) -> Rewound:
        """Take back every action: the same hand from its start (``redo`` replays them)."""
        return replace(self._rewind(self.game.moves_made), restart=True)

    def _rewind(self, n: int) -> Rewound:
        game = self.game
        taken = []
        for _ in range(min(n, game.moves_made)):
            reveals = tuple(game.last_reveals())
            with HELD:
                action = game.pop()
            taken.append(_recorded(game, action, reveals))
        self.changed = True
        return Rewound(tuple(taken))

    def redo(self, n: int = 1) -> Replayed:
        """Replay the next ``n`` actions taken back (as many as there are), turning up the
        same cards."""
        if n < 1:
            raise SpiderError("redo needs a positive number of moves")
        game = self.game
        if game.next_redo() is None:
            raise IllegalMoveError("nothing to redo")
        played: list[Played] = []
        while len(played) < n and (action := game.next_redo()) is not None:
            played.append(self._changed_by(action, move_text(game, action), redo=True))
        return Replayed(tuple(played))

    def resign(self) -> Resigned:
        """Give the game up (the front ends' keeper records it as lost)."""
        return Resigned(self.game.moves_made)

    def assume(self, pile: int, card: Card) -> Assumed:
        """Decide the next unknown card turned up (or dealt) on ``pile`` (0..9)."""
        self.game.assume(pile, card)
        self.changed = True
        return Assumed(pile, card)

    # -- the game's history -------------------------------------------------------------------

    def history(self) -> list[Recorded]:
        """Every action on the engine's move stack, oldest first, in notation, with the
        unknown cards it turned up (walked back on a copy of the game)."""
        game = self.game.copy()
        entries = []
        while game.moves_made:
            reveals = tuple(game.last_reveals())
            action = game.pop()
            entries.append(_recorded(game, action, reveals))
        entries.reverse()
        return entries

    def status(self) -> Status:
        """Deals left, suits removed, moves made, score, and a win, a loss or suits ready."""
        game = self.game
        down = game.down
        ready = tuple(
            pile
            for pile, cards in enumerate(game.piles)
            if len(cards) - down[pile] >= 13
            and cards[-1] & 15 == ACE
            and game.why_illegal(Remove(pile)) is None
        )
        return Status(
            self.origin,
            game.deals_left,
            len(game.removed),
            game.moves_made,
            game.score(),
            game.is_won(),
            game.is_lost(),
            ready,
            None if self.timer is None else self.timer.seconds(),
        )

    def describe_start(self) -> str:
        """One line about how this game began."""
        origin = self.origin
        if isinstance(origin, DealOrigin):
            return f"deal {origin.name}, {origin.suits} suit{'s' if origin.suits != 1 else ''}"
        return "position loaded"

    def allows(self, command: cmd.Command) -> bool:
        """Whether a command could run now as far as the rules go: a move, deal or removal
        only when it is legal in this position; any other command, yes."""
        if not isinstance(command, cmd.TableauCommand):
            return True
        try:
            action = resolve(self.game, command)
        except SpiderError:
            return False
        return self.game.why_illegal(action) is None

    def choices(self) -> list[Choice]:
        """Every legal action, in notation."""
        game = self.game
        return [
            Choice(a, move_text(game, a), isinstance(a, Move) and game.is_natural(a))
            for a in game.legal_moves()
        ]

    # -- new games and files ------------------------------------------------------------------

    def new(
        self, seed: int | DealSource | None = None, suits: int = 4, wanted: Wanted | None = None
    ) -> Started:
        """Start deal number ``seed`` (a random one if None) of the 1, 2 or 4-suit game, or
        the numbered deal ``seed`` names (another program's: its own suits, ``suits``
        unused); with ``wanted``, the first deal from that number on of that kind (the
        game in progress stays if none is found)."""
        if isinstance(seed, DealSource):
            origin = DealOrigin(seed.number, seed.suits, self.settings.sixth, seed.source)
        else:
            if seed is None:
                seed = int.from_bytes(os.urandom(4)) % 10**9
            origin = DealOrigin(seed, suits, self.settings.sixth)
        if wanted is None:
            self._begin(self._start_of(origin), origin, origin.name)
            return Started(origin)
        started = self._choose(origin, wanted)
        self._begin(self._start_of(started.origin), started.origin, started.origin.name)
        return started

    def _choose(self, first: DealOrigin, wanted: Wanted) -> Started:
        """The first deal from ``first`` on, by number, that full-information play wins
        (with the rank of difficulty ``wanted`` names, if any); SpiderError after
        :data:`~spider_cli.analysis.chances.TRIES` deals. Bounded by positions alone, so
        the same request gives the same deal on any machine."""
        from spider_cli.analysis import chances

        last = first.seed + chances.TRIES - 1
        last = min(last, LAST_DEAL.get(first.source, last))
        origins = [replace(first, seed=number) for number in range(first.seed, last + 1)]
        found = chances.first_fitting((self._start_of(o) for o in origins), wanted)
        if found is None:
            tried = f"deals {first.name} to {origins[-1].name}" if len(origins) > 1 else None
            raise SpiderError(
                (f"none of {tried} is" if tried else f"deal {first.name} is not")
                + f" {wanted.value} with every card known (by full-information play, "
                f"{chances.CHECK_LIMIT:,} positions a deal at most); the game goes on: "
                "try another deal number"
            )
        place, checked = found
        return Started(origins[place], checked, place, wanted)

    @staticmethod
    def _start_of(origin: Origin) -> Game:
        if isinstance(origin, DealOrigin) and origin.source is Source.OURS:
            return Game.new(origin.seed, origin.suits, origin.sixth)
        if isinstance(origin, DealOrigin):
            return origin.deal.game()
        return positions.parse_position_code(origin.code).to_game()

    def _begin(self, game: Game, origin: Origin, name: str, seconds: float = 0.0) -> None:
        """Take over a new game (``name``: how it began, in a word; ``seconds``: the time
        already played in it)."""
        game.autoremove = self.settings.autoremove
        self.game = game
        self.origin = origin
        self.source_name = name
        self.changed = True
        if self.timer is not None:
            self.timer = self.timer.fresh(seconds)

    def load(self, source: str | Path) -> Loaded:
        """Read a position code, a position or game file (relative to ``base_dir``), or one
        of the manual's examples by name (:func:`storage.load`)."""
        return storage.load(self, source)

    def history_facts(self, game_file: str | None = None) -> Facts:
        """What the history of games records of this game now (``game_file``: its game
        file's text, if the caller has it)."""
        game, origin = self.game, self.origin
        numbered = isinstance(origin, DealOrigin)
        name = self.source_name or (origin.name if isinstance(origin, DealOrigin) else "position")
        from spider_cli.app.gamelog import Facts

        seconds = 0.0 if self.timer is None else self.timer.seconds()
        text = self.game_file() if game_file is None else game_file
        return Facts(name, numbered, game.suits, game.moves_made, game.score(), seconds, text)

    def games(self, n: int | None = None) -> list[Entry]:
        """The last ``n`` games of the history (None: :data:`gamelog.RECENT`), the newest
        first."""
        from spider_cli.app.gamelog import RECENT

        n = RECENT if n is None else n
        if n < 1:
            raise SpiderError("games needs a positive number of games")
        return self.games_log().recent(n)

    def games_log(self) -> GameLog:
        """The history of games this session reads (opened when first needed)."""
        if self.log is None:  # (sqlite3 is loaded only now: a script need not wait for it)
            from spider_cli.app.gamelog import GameLog

            self.log = GameLog()
        return self.log

    def open(self, number: int) -> Opened:
        """Bring game ``number`` of the history back as it was left, from its game file."""
        return storage.open_game(self, number)

    def game_file(self) -> str:
        """The game file of this game: its start, moves, reveals and pending assumptions."""
        return storage.game_file(self)

    def save(self, name: str | Path, replace: bool = False) -> Saved:
        """Write the game file to ``name`` (relative to ``base_dir``), atomically; a file
        that exists only with ``replace`` (:func:`storage.save`)."""
        return storage.save(self, name, replace)

    def would_replace(self, name: str | Path) -> Path | None:
        """The file that saving as ``name`` would replace, or None."""
        return storage.would_replace(self, name)

    def expect(self, name: str | Path) -> Matched:
        """Check that the position is the one in a position file; SpiderError lists the
        differences."""
        return storage.expect(self, name)

    def change_setting(self, name: str, value: bool | str) -> SettingChanged:
        """Change a setting (see :data:`SETTING_VALUES`); autoremove applies to this game."""
        if name not in SETTING_VALUES or value not in SETTING_VALUES[name].values():
            raise SpiderError(f"{name} cannot be {value}")
        self.settings = self.settings.changed(name, value)
        if name == "autoremove":
            self.game.autoremove = bool(value)
            self.changed = True
        return SettingChanged(name, value)

    # -- analysis: solve, hint, odds, auto, apply (spider_cli.app.analysing) -----------------

    def analysed(self) -> Game:
        """The game as its player knows it: a numbered deal hides its face-down cards and
        its hand, so hints and the solver must not use them."""
        return analysing.analysed(self)

    def solve(
        self, goal: Goal, constraints: Constraints | None = None, each_reveal: bool = False
    ) -> Report:
        """Search the known cards for a line to ``goal`` (``apply`` plays it)."""
        return analysing.solve(self, goal, constraints, each_reveal)

    def hint(self, deeper: bool = False, following: bool = False) -> Advice:
        """The blind player's best line and why (``apply`` plays it); ``following``: its
        next choice after the one given last here (:func:`analysing.hint`)."""
        return analysing.hint(self, deeper, following)

    def odds(self) -> Chance:
        """The share of deals consistent with what the player sees that full-information
        play wins from here (:func:`analysing.odds`)."""
        return analysing.odds(self)

    def auto(self, n: int | None = None, each: Callable[[Played], None] | None = None) -> Auto:
        """Play hint's moves one at a time until ``n`` moves (None: no limit), a deal being
        due, the win, or no move left; ``each`` is called after every move."""
        return analysing.auto(self, n, each)

    def apply(self, n: int | None = None) -> list[Played]:
        """Play the line found last, all of it or its next ``n`` moves."""
        return analysing.apply(self, n)


def _recorded(game: Game, action: Action, reveals: tuple[tuple[int, Card], ...]) -> Recorded:
    """An action just taken back off ``game``, as the history records it."""
    moved = game.piles[action.src][-action.count :] if isinstance(action, Move) else []
    return Recorded(action, move_text(game, action), reveals, tuple(map(Card, moved)))
