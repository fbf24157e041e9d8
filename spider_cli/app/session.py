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
through the table of commands at the end of this module; :meth:`Session.execute` runs a
line as a script does.

The engine's move stack is the game's only history: the moves in notation, the cards they
turned up, game files and the journal are all derived from it (:meth:`Session.history`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.app import replies
from spider_cli.app.analysing import Analysis
from spider_cli.app.interpreter import NO_ANSWERS, Answers, Commands, Prepared
from spider_cli.app.interrupt import HELD
from spider_cli.app.results import (
    Assumed,
    Choice,
    GameReviewed,
    Played,
    Recorded,
    Replayed,
    Reply,
    Resigned,
    Rewound,
    SettingChanged,
    Started,
    Status,
)
from spider_cli.app.storage import Files, start_of
from spider_cli.language import commands as cmd
from spider_cli.language import positions
from spider_cli.language import textfiles as files
from spider_cli.language.gamefiles import DealOrigin, Origin, PositionOrigin
from spider_cli.language.help import help_text
from spider_cli.language.notation import parse_command, resolve
from spider_cli.language.settings import SETTING_VALUES, Settings, setting_value
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

    from spider_cli.analysis.review import Review
    from spider_cli.app.gamelog import Entry, Facts, GameLog, Stored
    from spider_cli.app.timer import Timer

__all__ = ["Session"]


LAST_DEAL = {Source.OURS: OURS_MAX, Source.PYSOL: PYSOL_MAX, Source.KPAT: KPAT_MAX}
"""The last deal number of each numbering."""


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
        self.files = Files(self)
        self.analysis = Analysis(self)

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
            ready = (action.dst,) if self._ready(action.dst) else ()
        elif isinstance(action, Deal):
            ready = tuple(pile for pile in range(PILES) if self._ready(pile))
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

    def _ready(self, pile: int) -> bool:
        """Whether pile ``pile`` ends with a complete suit that could be removed."""
        game = self.game
        cards = game.piles[pile]
        return (
            len(cards) - game.down[pile] >= 13
            and cards[-1] & 15 == ACE
            and game.why_illegal(Remove(pile)) is None
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
        ready = tuple(pile for pile in range(PILES) if self._ready(pile))
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
        :data:`~spider_cli.analysis.chances.TRIES` deals. Bounded by positions alone, so
        the same request gives the same deal on any machine."""
        from spider_cli.analysis import chances

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
        self.changed = True
        if self.timer is not None:
            self.timer = self.timer.fresh(seconds)

    def history_facts(self, game_file: str | None = None) -> Facts:
        """What the history of games records of this game now (``game_file``: its game
        file's text, if the caller has it)."""
        game, origin = self.game, self.origin
        numbered = isinstance(origin, DealOrigin)
        name = self.source_name or (origin.name if isinstance(origin, DealOrigin) else "position")
        from spider_cli.app.gamelog import Facts

        seconds = 0.0 if self.timer is None else self.timer.seconds()
        text = self.files.game_file() if game_file is None else game_file
        return Facts(name, numbered, game.suits, game.moves_made, game.score(), seconds, text)

    def games(self, n: int | None = None) -> list[Entry]:
        """The last ``n`` games of the history (None: :data:`gamelog.RECENT`), the newest
        first."""
        from spider_cli.app.gamelog import RECENT

        n = RECENT if n is None else n
        if n < 1:
            raise SpiderError("games needs a positive number of games")
        return self.games_log().recent(n)

    def reviews(self, entries: list[Entry]) -> dict[int, Stored]:
        """The current reviews kept for these games (of this spider's review version)."""
        kept = self.games_log().reviews([e.number for e in entries])
        if not kept:  # (no review: the analysis need not load)
            return {}
        from spider_cli.analysis.review import version

        versions = {suits: version(suits) for suits in {e.suits for e in entries}}
        return {
            e.number: kept[e.number, versions[e.suits]]
            for e in entries
            if (e.number, versions[e.suits]) in kept
        }

    def keep_review(self, number: int, review: Review) -> None:
        """Keep ``review`` of game ``number`` in the history (HistoryError if it cannot)."""
        import json

        from spider_cli.analysis.review import version

        self.games_log().store_review(
            number,
            version(review.suits),
            review.moves,
            replies.review_summary(review),
            json.dumps(replies.review_json(review)),
        )

    def games_log(self) -> GameLog:
        """The history of games this session reads (opened when first needed)."""
        if self.log is None:  # (sqlite3 is loaded only now: a script need not wait for it)
            from spider_cli.app.gamelog import GameLog

            self.log = GameLog()
        return self.log

    def change_setting(self, name: str, value: bool | str) -> SettingChanged:
        """Change a setting (see :data:`SETTING_VALUES`); autoremove applies to this game from
        its next move (a setting is not a move: the game has not changed)."""
        if name not in SETTING_VALUES or value not in SETTING_VALUES[name].values():
            raise SpiderError(f"{name} cannot be {value}")
        self.settings = self.settings.changed(name, value)
        if name == "autoremove":
            self.game.autoremove = bool(value)
        return SettingChanged(name, value)


def _recorded(game: Game, action: Action, reveals: tuple[tuple[int, Card], ...]) -> Recorded:
    """An action just taken back off ``game``, as the history records it."""
    moved = game.piles[action.src][-action.count :] if isinstance(action, Move) else []
    return Recorded(action, move_text(game, action), reveals, tuple(map(Card, moved)))


# -- the table of commands: each command's handler, its typed result and its reply ---------

COMMANDS: Commands[Session] = Commands()
"""Every command a session runs (:meth:`Session.run`), by the type of its value."""
handles = COMMANDS.handles


def _replied(result: object) -> tuple[object, str]:
    """A typed result and its reply (:func:`replies.text_of`)."""
    return result, replies.text_of(result)


@handles(None, cmd.MoveCommand, cmd.ObviousCommand, cmd.DealCommand, cmd.RemoveCommand)
def _tableau(
    session: Session, command: cmd.TableauCommand | None, prepared: Prepared, answers: Answers
) -> tuple[object, str]:
    """A prepared move, deal or removal pushed, after the cards the player chose for its
    reveals are decided."""
    game = session.game
    if prepared.action is None or prepared.at != game.key():
        raise SpiderError("the position has changed since that command was read: type it again")
    for pile, card in answers.cards:
        game.assume(pile, card)
    return _replied(session.push(prepared.action))


@handles(cmd.Undo)
def _undo(session: Session, command: cmd.Undo, *_: object) -> tuple[object, str]:
    return _replied(session.undo(command.n))


@handles(cmd.Redo)
def _redo(session: Session, command: cmd.Redo, *_: object) -> tuple[object, str]:
    return _replied(session.redo(command.n))


@handles(cmd.Restart)
def _restart(session: Session, *_: object) -> tuple[object, str]:
    return _replied(session.restart())


@handles(cmd.NewCommand, searches=lambda command: command.wanted is not None)
def _new(session: Session, command: cmd.NewCommand, *_: object) -> tuple[object, str]:
    suits = command.suits or session.game.suits
    deal: int | DealSource | None = command.seed
    if command.source is not Source.OURS and command.seed is not None:
        deal = DealSource(command.source, command.seed, suits)
    started, text = _replied(session.new(deal, suits, command.wanted))
    return started, session.analysis.noted(text) if command.wanted is not None else text


@handles(cmd.Load)
def _load(session: Session, command: cmd.Load, *_: object) -> tuple[object, str]:
    return _replied(session.files.load(command.path))


@handles(cmd.Save)
def _save(
    session: Session, command: cmd.Save, prepared: Prepared, answers: Answers
) -> tuple[object, str]:
    if prepared.replaces is not None and answers.replace is False:
        raise SpiderError(f"{files.shown(str(command.path))} is kept as it was: nothing saved")
    return _replied(session.files.save(command.path, command.replace or bool(answers.replace)))


@handles(cmd.Expect)
def _expect(session: Session, command: cmd.Expect, *_: object) -> tuple[object, str]:
    return _replied(session.files.expect(command.path))


@handles(cmd.Open)
def _open(session: Session, command: cmd.Open, *_: object) -> tuple[object, str]:
    return _replied(session.files.open(command.number))


@handles(cmd.Assume)
def _assume(session: Session, command: cmd.Assume, *_: object) -> tuple[object, str]:
    return _replied(session.assume(command.pile - 1, command.card))


@handles(cmd.Set)
def _set(session: Session, command: cmd.Set, *_: object) -> tuple[object, str]:
    return _replied(session.change_setting(*setting_value(command)))


@handles(cmd.ListSettings)
def _settings(session: Session, *_: object) -> tuple[object, str]:
    return None, replies.settings_text(session.settings)


@handles(cmd.Solve, searches=True)
def _solve(session: Session, command: cmd.Solve, *_: object) -> tuple[object, str]:
    report = session.analysis.solve(command.goal, command.constraints, command.each_reveal)
    return report, replies.solve_text(report)


@handles(cmd.Hint, searches=True)
def _hint(session: Session, command: cmd.Hint, *_: object) -> tuple[object, str]:
    advice = session.analysis.hint(command.deeper, command.following)
    return advice, advice.text


@handles(cmd.Odds, searches=True)
def _odds(session: Session, *_: object) -> tuple[object, str]:
    chance = session.analysis.odds()
    return chance, session.analysis.noted(replies.chance_text(chance))


@handles(cmd.Review, searches=lambda command: command.move is None)
def _review(session: Session, command: cmd.Review, *_: object) -> tuple[object, str]:
    if command.move is not None:
        reviewed = session.analysis.reviewed_move(command.move)
        return reviewed, replies.reviewed_text(reviewed)
    done = session.analysis.review()
    return GameReviewed(done), session.analysis.noted(replies.review_text(done))


@handles(cmd.Apply)
def _apply(session: Session, command: cmd.Apply, *_: object) -> tuple[object, str]:
    played = session.analysis.apply(command.n, command.whole)
    return played, "\n".join(replies.played_text(p) for p in played)


@handles(cmd.Auto, searches=True)
def _auto(session: Session, command: cmd.Auto, *_: object) -> tuple[object, str]:
    return _replied(session.analysis.auto(command.n))


@handles(cmd.Moves)
def _moves(session: Session, *_: object) -> tuple[object, str]:
    return None, replies.choices_text(session.choices())


@handles(cmd.Replay)
def _replay(session: Session, *_: object) -> tuple[object, str]:
    return None, replies.history_text(session.history())


@handles(cmd.Complete)
def _complete(session: Session, *_: object) -> tuple[object, str]:
    return None, replies.complete_text(session.game)


@handles(cmd.Locate)
def _locate(session: Session, command: cmd.Locate, *_: object) -> tuple[object, str]:
    return None, replies.locate_text(session.game, command.rank, command.suit)


@handles(cmd.Score)
def _score(session: Session, *_: object) -> tuple[object, str]:
    return None, f"score {session.game.score()}"


@handles(cmd.Show)
def _show(session: Session, command: cmd.Show, *_: object) -> tuple[object, str]:
    return None, replies.show_text(session.game, session.status(), command.pile)


@handles(cmd.Code)
def _code(session: Session, *_: object) -> tuple[object, str]:
    return None, positions.position_code(session.game, hide=True)


@handles(cmd.Help)
def _help(session: Session, command: cmd.Help, *_: object) -> tuple[object, str]:
    return None, help_text(command.topic)


@handles(cmd.Stats)
def _stats(session: Session, *_: object) -> tuple[object, str]:
    from spider_cli.app import stats

    return None, stats.report(session.games_log())


@handles(cmd.Games)
def _games(session: Session, command: cmd.Games, *_: object) -> tuple[object, str]:
    entries = session.games(command.n)
    listed = replies.games_text(entries, session.reviews(entries))
    return None, "\n".join([*session.games_log().take_notices(), listed])


@handles(cmd.Resign)
def _resign(session: Session, *_: object) -> tuple[object, str]:
    return _replied(session.resign())


@handles(cmd.Quit)
def _quit(session: Session, *_: object) -> tuple[object, str]:
    return None, ""
