"""One game in progress, and the methods that act on it.

A :class:`Session` holds a :class:`~spider_cli.rules.engine.Game` and how it began (its
origin). Its methods are the program's API: they take typed values (engine moves, command
values) and return typed results (immutable values), and every failure is a
:class:`~spider_cli.rules.errors.SpiderError` with a message for a player, leaving the game
as it was. :meth:`Session.execute` reads one typed line (``grammar/commands.lark``), calls
the method it names and writes the result as text, so ``spider run``, game files and the
REPL share one meaning for every command.

The engine's move stack is the game's only history: the moves in notation, the cards they
turned up, game files and the journal are all derived from it (:meth:`Session.history`).
"""

from __future__ import annotations

import os
import stat
import time
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spider_cli.analysis.goals import Constraints, Goal, Wanted
from spider_cli.app.atomic import write_atomically
from spider_cli.app.interrupt import HELD
from spider_cli.language import commands as cmd
from spider_cli.language import gamefiles, positions
from spider_cli.language import textfiles as files
from spider_cli.language.commands import SETTING_VALUES, Settings, setting_value
from spider_cli.language.gamefiles import DealOrigin, Origin, PositionOrigin
from spider_cli.language.help import help_text
from spider_cli.language.notation import parse_command, resolve
from spider_cli.rules.cards import ACE, RANK_WORDS, SUIT_NAMES, Card, card_text
from spider_cli.rules.deals import KPAT_MAX, PYSOL_MAX, DealSource, Source
from spider_cli.rules.engine import SUITS_IN_VARIANT, Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, NotationError, SpiderError
from spider_cli.rules.text import clock_text, move_text
from spider_cli.rules.values import Value, replace

if TYPE_CHECKING:
    from collections.abc import Callable

    from spider_cli.analysis.blindplayer import Mode
    from spider_cli.analysis.chances import Chance, Checked
    from spider_cli.analysis.hints import Advice
    from spider_cli.analysis.solver import Report
    from spider_cli.app.gamelog import Entry, Facts, GameLog, Result
    from spider_cli.app.timer import Timer

__all__ = [
    "SETTING_VALUES",
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
    "Recorded",
    "Replayed",
    "Reply",
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

# ---------------------------------------------------------------------------------------------
# Typed results


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
    the suits it removed (also by autoremove), and the game's status after it."""

    action: Action
    text: str
    turned_up: tuple[tuple[int, Card], ...]
    removed: tuple[int, ...]
    status: Status
    wins: bool = False
    """This action won the game (the win is announced once, not again after a remove)."""


class Recorded(Value):
    """One action of the game's history: its notation (in the position before it) and the
    unknown cards it turned up or dealt ((pile 0..9, card) pairs)."""

    action: Action
    text: str
    reveals: tuple[tuple[int, Card], ...] = ()


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
        from spider_cli.app.gamelog import Result

        return self.result in (Result.WON, Result.LOST)


class Saved(Value):
    """The game written to ``path`` (``name`` as the player wrote it)."""

    name: str
    path: Path


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


class Auto(Value):
    """What ``auto`` played, and why it stopped."""

    moves: tuple[Played, ...]
    stopped: str


# ---------------------------------------------------------------------------------------------


class Session:
    """A game in progress, how it began, and what is needed to save and replay it exactly.

    ``ask_reveal`` is asked which card an unknown card turning up on a pile (0-based) is: the
    REPL sets it; None (or a None answer) lets the engine draw one from the pool.
    ``confirm_replace`` is asked whether ``save`` may replace a file that exists (the REPL
    asks the player); None (a script) refuses: a script says ``save!`` to replace a file.
    ``clock``
    is read by a ``solve ... within N seconds`` (the only search a clock may stop) and to say
    how long a search took; None (the default) leaves searches bounded by positions alone
    (the REPL and the CLI pass ``time.perf_counter``). ``found`` is the rest of the line the
    last ``solve`` or ``hint`` found, for ``apply``, and ``found_at`` the position
    (``Game.key()``) it starts from; ``hinted`` is the position the last hints were asked in
    and how many: asking again there gives the next alternative; ``planned`` the position
    the last hint's line ends in and the value of a space the player had there. ``timer``
    keeps the time played in this game (the REPL and the board keep one; scripts do not):
    each new game gets a fresh one, a resumed game file starts from the time it carries.
    ``source_name`` says
    how the game began, in a word, for the history: the deal's name ("17", "pysol:14934") or
    the name of the position or file loaded. ``log`` is the history of games read by
    ``games``, ``open`` and ``stats`` (None: the one in the player's data directory, opened
    when first needed).
    """

    def __init__(
        self,
        game: Game | None = None,
        origin: Origin | None = None,
        settings: Settings | None = None,
        base_dir: Path | None = None,
        changed: bool = False,
        ask_reveal: Callable[[int, list[Card]], Card | None] | None = None,
        confirm_replace: Callable[[Path], bool] | None = None,
        clock: Callable[[], float] | None = None,
        found: list[Action] | None = None,
        found_at: tuple | None = None,
        hinted: tuple[tuple | None, int] = (None, 0),
        planned: tuple[tuple | None, Mode | None] = (None, None),
        timer: Timer | None = None,
        source_name: str = "",
        log: GameLog | None = None,
    ) -> None:
        self.game = Game.new(0) if game is None else game
        self.origin: Origin = DealOrigin(0) if origin is None else origin
        self.settings = Settings() if settings is None else settings
        self.base_dir = Path.cwd() if base_dir is None else base_dir
        self.changed = changed
        self.ask_reveal = ask_reveal
        self.confirm_replace = confirm_replace
        self.clock = clock
        self.found: list[Action] = [] if found is None else found
        self.found_at = found_at
        self.hinted = hinted
        self.planned = planned
        self.timer = timer
        self.source_name = source_name
        self.log = log

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

    # -- the line interpreter -----------------------------------------------------------------

    def execute(self, line: str) -> Reply:
        """Run one line; raises only SpiderError, leaving the game as it was on failure."""
        command = parse_command(line)
        if command is None:
            return Reply()
        result, text = self._dispatch(command)
        return Reply(text, isinstance(command, cmd.Quit), command, result)

    def _dispatch(self, command: cmd.Command) -> tuple[object, str]:
        """Call the method a command names; its result and the result as text."""
        match command:
            case cmd.MoveCommand() | cmd.ObviousCommand():
                return _text(self.move(command))
            case cmd.DealCommand():
                return _text(self.deal())
            case cmd.RemoveCommand(suit=suit, pile=pile):
                return _text(self.remove(None if pile is None else pile - 1, suit))
            case cmd.Undo(n=n):
                return _text(self.undo(n))
            case cmd.Redo(n=n):
                return _text(self.redo(n))
            case cmd.Restart():
                return _text(self.restart())
            case cmd.NewCommand(seed=seed, suits=suits, source=source, wanted=wanted):
                suits = suits or self.game.suits
                deal: int | DealSource | None = seed
                if source is not Source.OURS and seed is not None:
                    deal = DealSource(source, seed, suits)
                started, text = _text(self.new(deal, suits, wanted))
                return started, _noted(text) if wanted is not None else text
            case cmd.Load(path=path):
                return _text(self.load(path))
            case cmd.Save(path=path, replace=replace):
                return _text(self.save(path, replace))
            case cmd.Expect(path=path):
                return _text(self.expect(path))
            case cmd.Assume(pile=pile, card=card):
                return _text(self.assume(pile - 1, card))
            case cmd.Set():
                return _text(self.change_setting(*setting_value(command)))
            case cmd.ListSettings():
                return None, settings_text(self.settings)
            case cmd.Solve(goal=goal, constraints=constraints, each_reveal=each_reveal):
                report = self.solve(goal, constraints, each_reveal)
                return report, solve_text(report)
            case cmd.Hint(deeper=deeper):
                advice = self.hint(deeper)
                return advice, advice.text
            case cmd.Odds():
                chance = self.odds()
                return chance, _noted(chance_text(chance))
            case cmd.Apply(n=n):
                played = self.apply(n)
                return played, "\n".join(played_text(p) for p in played)
            case cmd.Auto(n=n):
                return _text(self.auto(n))
            case cmd.Moves():
                return None, choices_text(self.choices())
            case cmd.Replay():
                return None, history_text(self.history())
            case cmd.Complete():
                return None, complete_text(self.game)
            case cmd.Locate(rank=rank, suit=suit):
                return None, locate_text(self.game, rank, suit)
            case cmd.Score():
                return None, f"score {self.game.score()}"
            case cmd.Show(pile=pile):
                return None, show_text(self, pile)
            case cmd.Code():
                return None, positions.position_code(self.game, hide=True)
            case cmd.Help(topic=topic):
                return None, help_text(topic)
            case cmd.Stats():
                from spider_cli.app import stats

                return None, stats.report(self.games_log())
            case cmd.Games(n=n):
                return None, games_text(self.games(n))
            case cmd.Open(number=number):
                return _text(self.open(number))
            case cmd.Quit():
                return None, ""
        raise AssertionError(f"no method for {command!r}")  # pragma: no cover

    # -- moves --------------------------------------------------------------------------------

    def move(self, what: Move | cmd.MoveCommand | cmd.ObviousCommand) -> Played:
        """Move cards: an engine move, or a move command as typed (the cards it names, or a
        pile whose cards go to their obvious place)."""
        action = what if isinstance(what, Move) else resolve(self.game, what)
        return self._play(action, ask=True)

    def deal(self) -> Played:
        """Deal a row of ten cards from the hand."""
        return self._play(Deal(), ask=True)

    def remove(self, pile: int | None = None, suit: int | None = None) -> Played:
        """Take a complete suit off pile ``pile`` (0..9); with no pile, off the first pile
        that ends with one (of ``suit``, if given)."""
        command = cmd.RemoveCommand(suit, None if pile is None else pile + 1)
        return self._play(resolve(self.game, command), ask=True)

    def play(self, action: Action) -> Played:
        """Play an engine action (a found line's move, say) without asking about the cards
        it turns up."""
        return self._play(action, ask=False)

    def _play(self, action: Action, ask: bool) -> Played:
        """Check the action against the rules (the one check of a move), then push it."""
        game = self.game
        reason = game.why_illegal(action)
        if reason:
            raise IllegalMoveError(reason)
        if ask and self.ask_reveal is not None:
            for pile in game.unknown_reveals(action):
                pool = [Card(code) for code, n in enumerate(game.pool) if n]
                card = self.ask_reveal(pile, pool)
                if card is not None:
                    game.assume(pile, card)
        text = move_text(game, action)
        return self._changed_by(action, text)

    def _changed_by(self, action: Action, text: str, redo: bool = False) -> Played:
        """Push the action (or redo it, the next one taken back) and say what it changed."""
        game = self.game
        down = game.down[:]
        removed = len(game.removed)
        was_won = game.is_won()
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
        return Played(action, text, turned, gone, status, status.won and not was_won)

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
            taken.append(Recorded(action, move_text(game, action), reveals))
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
            entries.append(Recorded(action, move_text(game, action), reveals))
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
        of the manual's examples by name."""
        name = str(source)
        if positions.is_position_code(name):
            game = positions.parse_position_code(name).to_game()
            origin = PositionOrigin(positions.position_code(game))
            self._begin(game, origin, "position code")
            return Loaded(LoadKind.POSITION_CODE, name, None, origin)
        path, example = self._find(name)
        text = files.read_text(path, name)
        kind = LoadKind.EXAMPLE if example else None
        if gamefiles.is_game_file(text):
            self._resume(gamefiles.read(text), path.parent, path.name)
            moves = self.game.moves_made
            kind = kind or LoadKind.GAME_FILE
            return Loaded(kind, path.name, path, self.origin, game_file=True, moves=moves)
        try:
            game = positions.read_position(text).to_game()
        except NotationError as error:
            if is_script(text):
                raise SpiderError(
                    f"{files.shown(path.name)} is a script of commands, not a position or game "
                    f"file: scripts are run ('spider run {files.shown(name)}'), not shown or "
                    "loaded"
                ) from None
            raise NotationError(
                f"{files.shown(path.name)}: {error.message}",
                error.line,
                error.column,
                error.context,
            ) from None
        origin = PositionOrigin(positions.position_code(game))
        self._begin(game, origin, path.name)
        return Loaded(kind or LoadKind.POSITION_FILE, path.name, path, origin)

    def _path(self, name: str | Path) -> Path:
        return files.path_of(name, self.base_dir)

    def _find(self, name: str) -> tuple[Path, bool]:
        """The file a name means: a file (relative to ``base_dir``), else an example's."""
        path = self._path(name)
        problem = files.missing(path)
        if problem is None:
            return path, False
        from spider_cli.app import examples  # the manual's worked problems, by name

        found = examples.find(name)
        if found is not None:
            return found, True
        if problem == files.NOT_FOUND:
            problem = "no such file or example"
        raise SpiderError(f"cannot read {files.shown(name)}: {problem}")

    def _resume(self, record: gamefiles.GameRecord, base_dir: Path, name: str) -> None:
        """Replay a game file through a fresh session's methods, then take over its game
        (``name``: the file's, for a game that began as a position); errors name the line of
        the file."""
        other = Session(settings=record.settings, base_dir=base_dir)
        origin = record.origin
        with gamefiles.at_line(*record.start):
            other._begin(self._start_of(origin), origin, name)
        for step in record.steps:
            for written in step.assumptions:
                other._replay(written)
            other._replay(step.action)
        for written in record.pending:
            other._replay(written)
        self.settings = other.settings
        start = origin.name if isinstance(origin, DealOrigin) else name
        self._begin(other.game, other.origin, start, record.seconds or 0)
        self.changed = False

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
        entry = self.games_log().entry(number)
        try:
            record = gamefiles.read(entry.game_file)
        except NotationError as error:
            raise SpiderError(f"game {number} of the history cannot be read: {error}") from None
        try:
            self._resume(record, self.base_dir, entry.deal)
        except NotationError as error:
            raise SpiderError(f"game {number} of the history cannot be replayed: {error}") from None
        return Opened(number, entry.deal, entry.result, self.game.moves_made, self.origin)

    def _replay(self, written: gamefiles.Written) -> None:
        """One step of a game file, through the methods; errors name its line."""
        with gamefiles.at_line(written.line, written.text):
            match written.command:
                case cmd.Assume(pile=pile, card=card):
                    self.assume(pile - 1, card)
                case cmd.Set() as command:
                    self.change_setting(*setting_value(command))
                case cmd.DealCommand():
                    self.deal()
                case cmd.RemoveCommand(suit=suit, pile=pile):
                    self.remove(None if pile is None else pile - 1, suit)
                case cmd.MoveCommand() as command:
                    self.move(command)

    def game_file(self) -> str:
        """The game file of this game: its start, moves, reveals and pending assumptions."""
        game = self.game
        moves = [
            gamefiles.SavedMove(e.text, tuple(cmd.Assume(p + 1, c) for p, c in e.reveals))
            for e in self.history()
        ]
        pending = [
            cmd.Assume(p + 1, Card(c)) for p, queue in enumerate(game.assumed) for c in queue
        ]
        text = gamefiles.game_text(
            self.origin,
            self.settings,
            moves,
            pending,
            status_text(self.status()),
            positions.grid(game, hide=True),
        )
        if self.timer is None:
            return text
        return text + gamefiles.time_line(self.timer.seconds())

    def save(self, name: str | Path, replace: bool = False) -> Saved:
        """Write the game file to ``name`` (relative to ``base_dir``), atomically. A file
        that exists is replaced only with ``replace`` or when :attr:`confirm_replace` says
        so (with neither, SpiderError: a script must say ``save!``)."""
        path = self._path(name)
        if not replace and self.would_replace(name) is not None:
            shown = files.shown(str(name))
            if self.confirm_replace is None:
                raise SpiderError(f"{shown} exists: 'save! {shown}' replaces it")
            if not self.confirm_replace(path):
                raise SpiderError(f"{shown} is kept as it was: nothing saved")
        text = self.game_file()
        too_long = files.unreadable(text)
        if too_long:
            shown = files.shown(str(name))
            raise SpiderError(f"cannot save {shown}: the game file would be {too_long}")
        try:
            write_atomically(path, text)
        except (OSError, ValueError) as error:
            raise SpiderError(
                f"cannot save {files.shown(str(name))}: {files.reason(error)}"
            ) from None
        self.changed = False
        return Saved(str(name), path)

    def would_replace(self, name: str | Path) -> Path | None:
        """The file that saving as ``name`` would replace (a file, not a link: a link is
        never written through), or None (also for a name no file can have: saving says why)."""
        try:
            path = self._path(name)
            regular = stat.S_ISREG(path.lstat().st_mode)
        except (SpiderError, OSError, ValueError):
            return None
        return path if regular else None

    def expect(self, name: str | Path) -> Matched:
        """Check that the position is the one in a position file; SpiderError lists the
        differences."""
        path, _example = self._find(str(name))
        expected = positions.read_position(files.read_text(path, str(name)))
        differences = positions.differences(self.game, expected)
        if differences:
            raise SpiderError(
                f"the position is not the one in {files.shown(str(name))}:\n"
                + "\n".join(f"  {d}" for d in differences)
            )
        return Matched(str(name))

    def change_setting(self, name: str, value: bool | str) -> SettingChanged:
        """Change a setting (see :data:`SETTING_VALUES`); autoremove applies to this game."""
        if name not in SETTING_VALUES or value not in SETTING_VALUES[name].values():
            raise SpiderError(f"{name} cannot be {value}")
        self.settings = self.settings.changed(name, value)
        if name == "autoremove":
            self.game.autoremove = bool(value)
            self.changed = True
        return SettingChanged(name, value)

    # -- analysis: solve, hint, apply ---------------------------------------------------------

    def analysed(self) -> Game:
        """The game as its player knows it: a numbered deal hides its face-down cards and
        its hand, so hints and the solver must not use them."""
        if isinstance(self.origin, DealOrigin):
            from spider_cli.analysis.compact import player_view

            return player_view(self.game)
        return self.game

    def solve(
        self, goal: Goal, constraints: Constraints | None = None, each_reveal: bool = False
    ) -> Report:
        """Search the known cards for a line to ``goal`` (``apply`` plays it)."""
        from spider_cli.analysis import solver

        report = solver.answer(
            self.analysed(), goal, constraints or Constraints(), each_reveal, clock=self.clock
        )
        self._remember(report.actions)
        return report

    def hint(self, deeper: bool = False) -> Advice:
        """The blind player's line and why (``apply`` plays it); asked again in the same
        position, the next alternative; ``deeper``: with searches ten times longer. No line
        goes back to a position the game has been in. Where the last hint's line ended, the
        player goes on with the value of a space it had there, as the bench's does."""
        from spider_cli.analysis import hints

        key = self.game.key()
        at, asked = self.hinted
        skip = asked if at == key else 0
        ended, mode = self.planned
        mode = mode if ended == key and mode is not None else hints.Mode.KEEP
        budget = hints.BUDGET * (hints.DEEPER if deeper else 1)
        game, avoid = self.analysed(), self._visited()
        advice = hints.hint(game, budget, avoid, skip, mode)
        if skip and not advice.actions:  # no more alternatives: back to the best
            advice = hints.hint(game, budget, avoid, 0, mode)
            skip = 0
        self.hinted = (key, skip + 1)
        self._remember(advice.actions)
        kept = advice.mode is not hints.Mode.KEEP
        self.planned = (self._ending(advice.actions), advice.mode) if kept else (None, None)
        return advice

    def _ending(self, line: list[Action]) -> tuple | None:
        """The position (its key) the game will be in once ``line`` is played."""
        work = self.game.copy()
        for action in line:
            work.push(action)
        return work.key()

    def odds(self) -> Chance:
        """The share of deals consistent with what the player sees (the face-down cards and
        the hand dealt at random from the cards out of sight) that full-information play
        wins from here; the same position always gets the same answer."""
        from spider_cli.analysis import chances
        from spider_cli.analysis.blind import view_of

        return chances.odds(view_of(self.game))

    def _visited(self) -> frozenset:
        """The positions the game has been in before this one, as hints see them."""
        from spider_cli.analysis.compact import player_view

        view = isinstance(self.origin, DealOrigin)
        work = self.game.copy()
        keys = set()
        while work.moves_made:
            work.pop()
            keys.add(player_view(work).key() if view else work.key())
        return frozenset(keys)

    def auto(self, n: int | None = None, each: Callable[[Played], None] | None = None) -> Auto:
        """Play hint's moves one at a time until ``n`` moves (None: no limit), a deal being
        due, the win, or no move left; ``each`` is called after every move (the REPL redraws
        the board there; a KeyboardInterrupt raised in it stops play, the game as it is)."""
        if n is not None and n < 1:
            raise SpiderError("auto needs a positive number of moves")
        played: list[Played] = []
        why = ""
        start = self.game.moves_made
        try:
            while n is None or len(played) < n:
                if self.game.is_won():
                    why = "the game is won"
                    break
                if self.game.is_lost():
                    why = "the game is lost"
                    break
                if not self.found or self.found_at != self.game.key():
                    advice = self.hint()
                    if not advice.actions or advice.lost:
                        why = advice.text
                        break
                played.extend(self.apply(1))
                if each is not None:
                    each(played[-1])
            else:
                why = f"{len(played)} move{'s' if len(played) != 1 else ''} played"
        except KeyboardInterrupt:
            why = _interrupted(self.game.moves_made - start)
        self.found, self.found_at = [], None
        return Auto(tuple(played), why)

    def _remember(self, line: list[Action]) -> None:
        self.found = list(line)
        self.found_at = self.game.key() if line else None

    def apply(self, n: int | None = None) -> list[Played]:
        """Play the line found last, all of it or its next ``n`` moves."""
        if not self.found:
            raise SpiderError("no line to apply: 'solve' or 'hint' finds one")
        if self.game.key() != self.found_at:
            raise SpiderError("the position has changed since that line was found: solve again")
        count = len(self.found) if n is None else n
        if count < 1:
            raise SpiderError("apply needs a positive number of moves")
        played = [self.play(action) for action in self.found[:count]]
        del self.found[:count]
        self.found_at = self.game.key() if self.found else None
        return played


# ---------------------------------------------------------------------------------------------
# Results as text (what a player reads after each command)


def is_script(text: str) -> bool:
    """Whether a text is a script: every line a command or a comment, one at least."""
    commands = 0
    for line in text.split("\n"):
        try:
            commands += parse_command(line) is not None
        except SpiderError:
            return False
    return commands > 0


def _text(result: object) -> tuple[object, str]:
    return result, text_of(result)


def _noted(text: str) -> str:
    """A search's answer, after a note when the searches ran on the slow Python path."""
    from spider_cli.analysis import native

    note = native.warning()
    return text if note is None else f"{note}\n{text}"


def text_of(result: object) -> str:
    """The reply text for a method's typed result."""
    match result:
        case Played():
            return played_text(result)
        case Rewound():
            return rewound_text(result)
        case Replayed():
            return "replayed " + _listed([p.text for p in result.moves])
        case Started():
            return started_text(result)
        case Loaded():
            return loaded_text(result)
        case Saved():
            return f"saved to {files.shown(result.name)}"
        case Opened():
            return opened_text(result)
        case Matched():
            return f"position matches {files.shown(result.name)}"
        case Auto():
            return auto_text(result)
        case Assumed():
            return f"the next unknown card in pile {result.pile + 1} will be {result.card}"
        case SettingChanged(name=name, value=value):
            return f"{name} is {_setting_word(value)}"
    raise AssertionError(f"no text for {result!r}")  # pragma: no cover


def played_text(played: Played) -> str:
    """The move in notation, then what it changed, one note a line."""
    notes = [f"pile {pile + 1} turns up {card_text(card)}" for pile, card in played.turned_up]
    notes += [f"{SUIT_NAMES[suit]} removed" for suit in played.removed]
    if isinstance(played.action, Deal):
        left = played.status.deals_left
        notes.append(f"{left} deal{'s' if left != 1 else ''} left")
    if played.status.won and not played.wins:  # said once, when the game was won
        notes += [f"score {played.status.score}"]
    else:
        notes += status_notes(played.status)
    return played.text + "".join(f"\n  {note}" for note in notes)


def _interrupted(kept: int) -> str:
    """Why ``auto`` stopped when Ctrl-C stopped it, ``kept`` actions after it began."""
    if not kept:
        return "stopped by Ctrl-C before its first move"
    if kept == 1:
        return "stopped by Ctrl-C; the move it played is kept ('undo' takes it back)"
    return f"stopped by Ctrl-C; the {kept} moves it played are kept ('undo {kept}' takes them back)"


def auto_text(auto: Auto) -> str:
    """Each move ``auto`` played, then why it stopped (unless the last move said so)."""
    return "\n".join([*(played_text(p) for p in auto.moves), *auto_stop(auto)])


def auto_stop(auto: Auto) -> list[str]:
    """Why ``auto`` stopped, unless its last move said so (a win or a loss)."""
    last = auto.moves[-1].status if auto.moves else None
    return [] if last is not None and (last.won or last.lost) else [f"auto stops: {auto.stopped}"]


def status_notes(status: Status) -> list[str]:
    """Notes about the game as a whole: a suit ready to remove, a win, a loss."""
    if status.won:
        return [f"you have won! score {status.score}"]
    if status.lost:
        return [f"no moves left and the hand is empty: the game is lost (score {status.score})"]
    return [f"a complete suit can be removed from pile {pile + 1}" for pile in status.ready]


def settings_text(settings: Settings) -> str:
    """Each setting with its value, and the values it can take (what ``set`` alone says)."""
    lines = []
    for name, values in SETTING_VALUES.items():
        value = getattr(settings, name)
        words = dict.fromkeys(_setting_word(v) for v in values.values())
        lines.append(f"{name} {_setting_word(value)}  (set {name} {'|'.join(words)})")
    return "\n".join(lines)


def _setting_word(value: bool | str) -> str:
    return "on" if value is True else "off" if value is False else value


def status_text(status: Status) -> str:
    return (
        f"deals left {status.deals_left} | removed {status.removed} | "
        f"moves {status.moves} | score {status.score}"
    )


def rewound_text(rewound: Rewound) -> str:
    if rewound.restart:
        return "back to the start of this hand ('redo' replays the moves)"
    return "took back " + _listed([m.text for m in rewound.moves])


LISTED = 10
"""The most moves an ``undo N`` or ``redo N`` names; the rest are counted."""


def _listed(moves: list[str]) -> str:
    """Moves in a line: each of them, or the first :data:`LISTED` and how many more."""
    if len(moves) <= LISTED:
        return ", ".join(moves)
    return ", ".join(moves[:LISTED]) + f" and {len(moves) - LISTED:,} more"


def started_text(started: Started) -> str:
    origin = started.origin
    text = f"deal {origin.name}, {origin.suits} suit{'s' if origin.suits != 1 else ''}"
    chosen = started.chosen
    if chosen is None:
        return text
    text += (
        f": winnable with every card known, {chosen.rank}: a search that sees the face-down "
        f"cards and the hand wins it in {chosen.positions:,} positions"
    )
    if started.skipped == 1:
        text += f"\n(the deal before it was not {started.wanted})"
    elif started.skipped:
        text += f"\n(the {started.skipped} deals before it were not {started.wanted})"
    return text


def loaded_text(loaded: Loaded) -> str:
    if loaded.kind is LoadKind.POSITION_CODE:
        return "position loaded from its code"
    if loaded.game_file:
        return f"resumed {files.shown(loaded.name)}: {loaded.moves} moves replayed"
    return f"loaded {files.shown(loaded.name)}"


def opened_text(opened: Opened) -> str:
    moves = f"{opened.moves} move{'s' if opened.moves != 1 else ''}"
    deal = files.shown(opened.deal)
    said = f"game {opened.number} ({deal}, {opened.result.value}): {moves} replayed"
    if opened.finished:
        return said + "; 'replay' steps through it (playing on is not recorded again)"
    return said + "; play on, or 'replay' to step through it"


GAMES_HEADER = "game  began             deal          suits  moves  score     time  result"


def games_text(entries: list[Entry]) -> str:
    """The games of the history, one a line: number, date, deal, suits, moves, score, time
    played, result (``open N`` brings game N back)."""
    if not entries:
        return "no games in the history yet: a game is recorded once it has a move"
    lines = [GAMES_HEADER]
    for e in entries:
        began = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.started))
        deal = files.shown(e.deal)
        deal = deal if len(deal) <= 13 else deal[:10] + "..."
        lines.append(
            f"{e.number:>4}  {began}  {deal:<13} {e.suits:>5}  {e.moves:>5}  {e.score:>5}"
            f"  {clock_text(e.seconds):>7}  {e.result.value}"
        )
    return "\n".join([*lines, "('open N' brings game N back)"])


def solve_text(report: Report) -> str:
    if report.actions:
        return report.text + "\n('apply' plays the line, 'apply 1' its next move)"
    return report.text


def chance_text(chance: Chance) -> str:
    """What ``odds`` says: the share won with its interval, and what it is the chance of."""
    if not chance.unseen:
        verdict = "wins" if chance.won else "does not win"
        return (
            f"every card is in sight: full-information play {verdict} from here "
            "(within its limit of positions)"
        )
    low, high = chance.interval
    return (
        f"the chance of a win with every card known: {100 * chance.won / chance.samples:.0f}% "
        f"(95% interval {100 * low:.0f}-{100 * high:.0f}%),\nfrom {chance.samples} samples: "
        f"the {chance.unseen} cards out of sight dealt at random, each deal played\n"
        "by a search that sees them all (a player who cannot see them wins less often)"
    )


def history_text(history: list[Recorded]) -> str:
    """The game's moves from the start, numbered (the REPL steps through them instead)."""
    if not history:
        return "no moves yet: this is the start of the game"
    return "\n".join(f"{n}. {entry.text}" for n, entry in enumerate(history, 1))


def choices_text(choices: list[Choice]) -> str:
    if not choices:
        return "no legal moves"
    lines = [("* " if c.natural else "  ") + c.text for c in choices]
    return "\n".join(lines) + "\n(* a natural move: onto the same suit)"


def complete_text(game: Game) -> str:
    sets = game.complete_suits()
    if not sets:
        return "no suit has all thirteen cards face up"
    parts = [
        f"{SUIT_NAMES[suit]}{f' (x{count})' if count > 1 else ''}" for suit, count in sets.items()
    ]
    return "face up in full: " + ", ".join(parts)


def locate_text(game: Game, rank: int, suit: int | None) -> str:
    """Where the copies of a card are, as far as a player can see: face-down cards and
    the hand are not given away, even when the deal knows them."""
    suits = [suit] if suit is not None else SUITS_IN_VARIANT[game.suits]
    lines = []
    for each in suits:
        card = Card.of(rank, each)
        places = []
        hidden = 0
        for where in game.locate(card):
            if where.place == "removed":
                places.append("removed")
            elif where.face_up:
                depth = where.index - game.down[where.pile] + 1
                places.append(f"pile {where.pile + 1} (face-up card {depth})")
            else:
                hidden += 1
        hidden += game.pool[card] + sum(q.count(card) for q in game.assumed)
        if hidden:
            places.append(f"{hidden} not in sight")
        if places:
            lines.append(f"{card}: " + ", ".join(places))
    if not lines:
        return f"no {RANK_WORDS[rank]} in a {game.suits}-suit game"
    return "\n".join(lines)


def show_text(session: Session, pile: int | None) -> str:
    """The tableau and the status line, or one pile (numbered 1..10) in full."""
    game = session.game
    if pile is None:
        return positions.grid(game, hide=True) + "\n" + status_text(session.status())
    if not 1 <= pile <= 10:
        raise SpiderError(f"there is no pile {pile}")
    cards = game.piles[pile - 1]
    if not cards:
        return f"pile {pile} is a space"
    up = game.face_up(pile - 1)
    return f"pile {pile}: {game.down[pile - 1]} face down, then " + " ".join(map(card_text, up))
