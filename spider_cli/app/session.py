"""One game in progress, and the methods that act on it.

A :class:`Session` holds a :class:`~spider_cli.rules.engine.Game` and how it began (its
origin), and owns two parts: its game files (``files``, :class:`~spider_cli.app.storage.Files`:
load, save, open, expect) and its analysis (``analysis``,
:class:`~spider_cli.app.analysing.Analysis`: solve, hint, odds, apply, auto, and the line
found last). Its methods are the program's API: they take typed values (engine moves,
command values) and return typed results (:mod:`spider_cli.app.results`), and every failure
is a :class:`~spider_cli.rules.errors.SpiderError` with a message for a player, leaving the
game as it was. A command runs in two phases (:mod:`spider_cli.app.interpreter`):
:meth:`Session.prepare`, its questions answered by the front end, then :meth:`Session.run`,
through the table of commands (:data:`COMMANDS`), which the handlers of the commands
(:mod:`spider_cli.app.handlers`, above this module) register into; :meth:`Session.execute`
runs a line as a script does.

The engine's move stack is the game's only history: the moves in notation, the cards they
turned up, game files and the journal are all derived from it (:meth:`Session.history`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.app.analysing import Analysis, Straighten
from spider_cli.app.interpreter import NO_ANSWERS, Answers, Commands, Prepared
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
    Rewound,
    Saved,
    Started,
    Status,
    Stopped,
)
from spider_cli.app.storage import Began, Files, start_of
from spider_cli.app.words.advice import stop_text
from spider_cli.language import commands as cmd
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.gamefiles import DealOrigin, Origin, PositionOrigin
from spider_cli.language.notation import parse_command, resolve
from spider_cli.language.settings import Settings
from spider_cli.rules.cards import ACE, Card
from spider_cli.rules.deals import KPAT_MAX, OURS_MAX, PYSOL_MAX, DealSource, Source
from spider_cli.rules.engine import PILES, Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, SpiderError
from spider_cli.rules.goals import Wanted
from spider_cli.rules.placing import removal
from spider_cli.rules.text import move_text
from spider_cli.rules.values import replace

if TYPE_CHECKING:
    from collections.abc import Callable

    from spider_cli.analysis import Review
    from spider_cli.app.files.gamelog import GameLog
    from spider_cli.app.timer import Timer

__all__ = ["COMMANDS", "Session"]


LAST_DEAL = {Source.OURS: OURS_MAX, Source.PYSOL: PYSOL_MAX, Source.KPAT: KPAT_MAX}
"""The last deal number of each numbering."""


def removable(game: Game, pile: int) -> bool:
    """Whether pile ``pile`` of ``game`` ends with a complete suit that could be removed."""
    cards = game.piles[pile]
    return (
        len(cards) - game.down[pile] >= 13
        and cards[-1] & 15 == ACE
        and game.why_illegal(Remove(pile)) is None
    )


def status_of(game: Game, origin: Origin, played: float | None = None) -> Status:
    """``game`` at a glance (the toolbar's line), as begun from ``origin``: the session's
    game, or a position of it the analysis view stands on."""
    return Status(
        origin,
        game.deals_left,
        len(game.removed),
        game.moves_made,
        game.score(),
        game.is_won(),
        game.is_lost(),
        tuple(pile for pile in range(PILES) if removable(game, pile)),
        played,
    )


class Session:
    """A game in progress, how it began, and what is needed to save and replay it exactly.

    A session never asks the player anything: :meth:`prepare` says which questions a command
    needs answered (which card turns up, replace a file?), and :meth:`run` takes the
    answers. ``clock`` is read by a ``solve ... within N seconds`` (the only search a clock
    may stop) and to say how long a search took; None (the default) leaves searches bounded
    by positions alone (the REPL and the CLI pass ``time.perf_counter``). ``timer`` keeps
    the time played in this game (the REPL and the board keep one; scripts do not): each
    new game gets a fresh one, a resumed game file starts from the time it carries. ``log``
    is the history of games read by ``games``, ``open`` and ``stats`` (None: the one in the
    player's data directory, opened when first needed). ``base_dir``: where the names of
    files are read from.
    """

    def __init__(
        self,
        game: Game | None = None,
        origin: Origin | None = None,
        settings: Settings | None = None,
        base_dir: Path | None = None,
        clock: Callable[[], float] | None = None,
        timer: Timer | None = None,
        log: GameLog | None = None,
    ) -> None:
        self.game = Game.new(0) if game is None else game
        self.origin: Origin = DealOrigin(0) if origin is None else origin
        self.settings = Settings() if settings is None else settings
        self.base_dir = Path.cwd() if base_dir is None else base_dir
        self.clock = clock
        self.timer = timer
        self.log = log
        self.changed = False
        """The game has changed since it was last saved or begun from a file."""
        self.source_name = ""
        """How the game began, in a word, for the history: the deal's name ("17",
        "pysol:14934") or the name of the position or file loaded."""
        self.source_title = ""
        """The title of the manual's example the game began from ("" for any other)."""
        self.files = Files(self)
        self.analysis = Analysis(self)
        self.scripting = False
        """A script is running (``run FILE``): it may not run another."""

    def copy(self, game: Game | None = None) -> Session:
        """A session with this one's game (the same object unless ``game`` is given), origin
        and settings, and an analysis of its own (no line found yet)."""
        other = Session(
            self.game if game is None else game,
            self.origin,
            self.settings,
            self.base_dir,
            self.clock,
            self.timer,
            self.log,
        )
        other.changed, other.source_name = self.changed, self.source_name
        return other

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
        command = parse_command(line)
        if command is None:
            return Reply()
        return self.run(self.prepare(command))

    def prepare(self, command: cmd.Command | Action) -> Prepared:
        """What ``command`` (or an engine action, a click's) will do, and the questions it
        needs answered before it runs. A move, deal or removal is resolved and checked here
        (SpiderError says why it cannot be played)."""
        if isinstance(command, Move | Deal | Remove):
            return self._prepared(None, command)
        if isinstance(command, cmd.TableauCommand):
            return self._prepared(command, resolve(self.game, command))
        if isinstance(command, cmd.Save) and not command.replace:
            return Prepared(command, replaces=self.files.would_replace(command.path))
        if isinstance(command, cmd.NewCommand) and command.seed is not None:
            # the number checked now, before a front end asks whether to leave the game
            DealSource(command.source, command.seed, command.suits or self.settings.suits)
        if isinstance(command, cmd.Open):
            self.games_log().entry(command.number)  # (SpiderError: no such game)
        return Prepared(command)

    def _prepared(self, command: cmd.Command | None, action: Action) -> Prepared:
        """A move, deal or removal checked against the rules, with the cards it turns up."""
        game = self.game
        refused = game.refusal(action)
        if refused:  # with the part of the command it is about, to point at it
            raise IllegalMoveError(refused[0], part=refused[1])
        reveals = tuple(game.unknown_reveals(action))
        if not reveals:  # (most moves: the pool is built only when a card can turn up)
            return Prepared(command, action, game.key(), (), (), None)
        pool = tuple(Card(code) for code, n in enumerate(game.pool) for _ in range(n))
        return Prepared(command, action, game.key(), reveals, pool)

    def run(self, prepared: Prepared, answers: Answers = NO_ANSWERS) -> Reply:
        """Run a prepared command with the answers to its questions (it asks nothing; none:
        cards drawn from the pool, no file replaced); raises only SpiderError, leaving the
        game as it was on failure. A command is the player at play: the watch, if any,
        goes on (see :meth:`Timer.touch`)."""
        if self.timer is not None:
            self.timer.touch()
        return COMMANDS.run(self, prepared, answers)

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
        return self.play(removal(self.game, pile, suit))

    def play(self, action: Action) -> Played:
        """Check an engine action against the rules, then play it (unknown cards it turns
        up are drawn from the pool unless assumed)."""
        refused = self.game.refusal(action)
        if refused:
            raise IllegalMoveError(refused[0], part=refused[1])
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
        won = game.is_won()
        lost = not won and game.is_lost()
        ready: tuple[int, ...] = ()
        if isinstance(action, Move):
            ready = (action.dst,) if removable(self.game, action.dst) else ()
        elif isinstance(action, Deal):
            ready = tuple(pile for pile in range(PILES) if removable(self.game, pile))
        score = game.score() if won or lost else None
        return Played(
            action,
            text,
            turned,
            gone,
            moved,
            game.deals_left,
            ready,
            won,
            won and not was_won,
            lost,
            score,
        )

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

    def apply(self, n: int | None = None, whole: bool = False) -> list[Played]:
        """Play what was found last (:meth:`Analysis.take`): a hint's move (``whole``: its
        whole line), ``solve``'s whole line, or the next ``n`` moves of either."""
        return [self.play(action) for action in self.analysis.take(n, whole)]

    def auto(self, n: int | None = None, each: Callable[[Played], None] | None = None) -> Auto:
        """Play hint's moves one at a time (:meth:`Analysis.step`) until ``n`` moves (None:
        no limit), a deal being due, the win, or no move left; ``each`` is called with every
        move as it stands (the REPL redraws the board there; a KeyboardInterrupt raised in
        it stops play, the game as it is). A move is shown once the next is known, so a move
        that the next one straightens is shown only straightened."""
        if n is not None and n < 1:
            raise SpiderError("auto needs a positive number of moves")
        played: list[Played] = []
        start, shown, why = self.game.moves_made, 0, ""

        def show() -> None:  # the moves played that stand, not shown yet
            nonlocal shown
            while each is not None and shown < len(played):
                shown += 1
                each(played[shown - 1])

        try:
            while n is None or len(played) < n:
                step = self.analysis.step(played)
                if isinstance(step, Stopped):
                    why = stop_text(self.analysis.analysed(), step)
                    break
                if isinstance(step, Straighten):  # the cards moved last go on, in one move
                    self.undo(1)
                    played[-1] = self.play(step.move)
                else:
                    show()
                    played.append(self.play(step))
            else:
                why = f"{len(played)} move{'s' if len(played) != 1 else ''} played"
            show()
        except KeyboardInterrupt:
            why = _interrupted(self.game.moves_made - start)
        self.analysis.forget()
        return Auto(tuple(played), why)

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
        played = None if self.timer is None else self.timer.seconds()
        return status_of(self.game, self.origin, played)

    def describe_start(self) -> str:
        """One line about how this game began."""
        origin = self.origin
        if isinstance(origin, DealOrigin):
            return f"deal {origin.name}, {origin.suits} suit{'s' if origin.suits != 1 else ''}"
        name = files.shown(self.source_name)
        if not name or (isinstance(origin, PositionOrigin) and name == "position code"):
            return "a position loaded from its code" if name else "a position"
        if self.source_title:
            return f"{name}, a position of the manual: {self.source_title}"
        return f"{name}, a position"

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

    # -- new games --------------------------------------------------------------------------

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
            self.begin(start_of(origin), origin, origin.name)
            return Started(origin)
        started = self._choose(origin, wanted)
        self.begin(start_of(started.origin), started.origin, started.origin.name)
        return started

    def _choose(self, first: DealOrigin, wanted: Wanted) -> Started:
        """The first deal from ``first`` on, by number, that full-information play wins
        (with the rank of difficulty ``wanted`` names, if any); SpiderError after
        :data:`~spider_cli.analysis.chance.odds.TRIES` deals. Bounded by positions alone, so
        the same request gives the same deal on any machine."""
        from spider_cli.analysis.chance import odds as chances

        last = first.seed + chances.TRIES - 1
        last = min(last, LAST_DEAL.get(first.source, last))
        origins = [replace(first, seed=number) for number in range(first.seed, last + 1)]
        found = chances.first_fitting((start_of(o) for o in origins), wanted)
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

    def begin(self, game: Game, origin: Origin, name: str, seconds: float = 0.0) -> None:
        """Take over a new game (``name``: how it began, in a word; ``seconds``: the time
        already played in it): a new deal, a file read, a game of the history opened."""
        game.autoremove = self.settings.autoremove
        self.game = game
        self.origin = origin
        self.source_name = name
        self.source_title = ""
        self.changed = True
        if self.timer is not None:
            self.timer = self.timer.fresh(seconds)

    def _take(self, began: Began) -> None:
        """Take over the game a file began (its settings, if it carries them)."""
        if began.settings is not None:
            self.settings = began.settings
        self.begin(began.game, began.origin, began.name, began.seconds)
        self.changed = not began.saved

    def load(self, source: str | Path) -> Loaded:
        """Make a position code, a position or game file (relative to ``base_dir``), or
        one of the manual's examples by name the session's game."""
        began, loaded = self.files.load(source)
        self._take(began)
        if loaded.kind is LoadKind.EXAMPLE and loaded.path is not None:
            from spider_cli.app import examples

            example = examples.called(loaded.path.name)
            self.source_title = example.title if example else ""
        return loaded

    def open(self, number: int) -> Opened:
        """Bring game ``number`` of the history back as it was left."""
        began, opened = self.files.open(number)
        self._take(began)
        return opened

    def save(self, name: str | Path, replace: bool = False) -> Saved:
        """Write the game file to ``name`` (see :meth:`Files.save`); the game is saved."""
        saved = self.files.save(name, replace)
        self.changed = False
        return saved

    def expect(self, name: str | Path) -> Matched:
        """Check that the position is the one in a position file (see
        :meth:`Files.expect`)."""
        return self.files.expect(name)

    def kept_review(self, game: str, suits: int, moves: int) -> Review | None:
        """The review kept in the history of the game ``game`` identifies (see
        :func:`spider_cli.analysis.review.fingerprint`), of ``suits`` suits and ``moves``
        moves, under this spider's review version; None if there is none."""
        import json

        from spider_cli.analysis import version
        from spider_cli.app.files.reviewdata import BadReview, review_of

        for text in self.games_log().kept_reviews(version(suits), moves):
            try:
                kept = review_of(json.loads(text))
            except (ValueError, BadReview):
                continue
            if kept.game == game and not kept.stopped:
                return kept
        return None

    def games_log(self) -> GameLog:
        """The history of games this session reads (opened when first needed)."""
        if self.log is None:  # (sqlite3 is loaded only now: a script need not wait for it)
            from spider_cli.app.files.gamelog import GameLog

            self.log = GameLog()
        return self.log


COMMANDS: Commands[Session] = Commands()
"""Every command a session runs (:meth:`Session.run`), by the type of its value: the
handlers register here (:mod:`spider_cli.app.handlers`)."""


def _recorded(game: Game, action: Action, reveals: tuple[tuple[int, Card], ...]) -> Recorded:
    """An action just taken back off ``game``, as the history records it."""
    moved = game.piles[action.src][-action.count :] if isinstance(action, Move) else []
    return Recorded(action, move_text(game, action), reveals, tuple(map(Card, moved)))


def _interrupted(kept: int) -> str:
    """Why ``auto`` stopped when Ctrl-C stopped it, ``kept`` actions after it began."""
    if not kept:
        return "stopped by Ctrl-C before its first move"
    if kept == 1:
        return "stopped by Ctrl-C; the move it played is kept ('undo' takes it back)"
    return f"stopped by Ctrl-C; the {kept} moves it played are kept ('undo {kept}' takes them back)"
