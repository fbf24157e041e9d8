"""The command interpreter: one game in progress, and the commands that act on it.

A :class:`Session` reads one line at a time (the grammar in ``grammar/commands.lark``) and
applies it to its :class:`~spider_cli.rules.engine.Game`. The REPL, ``spider run`` and game files
all go through :meth:`Session.execute`, so there is one meaning for every command. Every
failure is a :class:`~spider_cli.rules.errors.SpiderError` with a message for a player, and a
failed command leaves the game exactly as it was.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spider_cli.analysis import hints, solver
from spider_cli.analysis.compact import player_view
from spider_cli.app import stats
from spider_cli.app.atomic import write_atomically
from spider_cli.language import commands as cmd
from spider_cli.language import gamefiles, positions
from spider_cli.language.help import help_text
from spider_cli.language.notation import parse_command, resolve
from spider_cli.rules.cards import RANK_WORDS, SUIT_NAMES, Card, card_text
from spider_cli.rules.engine import SUITS_IN_VARIANT, Action, Deal, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, NotationError, SpiderError
from spider_cli.rules.text import move_text


@dataclass
class Reply:
    """What a command has to say, and whether the player asked to leave."""

    text: str = ""
    quit: bool = False
    command: cmd.Command | None = None
    """The command that was run (the REPL chooses how to show its result by its type)."""


@dataclass
class Settings:
    """Settings a player can change with ``set NAME VALUE``."""

    autoremove: bool = False
    sixth: str = "left"


SETTING_VALUES = {
    "autoremove": {
        "on": True,
        "off": False,
        "true": True,
        "false": False,
        "yes": True,
        "no": False,
        "1": True,
        "0": False,
    },
    "sixth": {"left": "left", "spread": "spread", "1,4,7,10": "spread"},
}


@dataclass
class Session:
    """A game in progress plus what is needed to save, resume and replay it exactly.

    ``start`` holds the command lines that set up the starting position (``new 17 suits 2``
    or ``load spider:...``); ``history`` holds, for every action on the game's move stack,
    the lines that replay it (the ``assume`` lines for unknown cards it turned up, then the
    move in notation).
    """

    game: Game = field(default_factory=lambda: Game.new(0))
    start: list[str] = field(default_factory=lambda: ["new 0 suits 4"])
    settings: Settings = field(default_factory=Settings)
    base_dir: Path = field(default_factory=Path.cwd)
    history: list[list[str]] = field(default_factory=list)
    redo_lines: list[list[str]] = field(default_factory=list)
    changed: bool = False
    in_game_file: bool = False
    ask_reveal: Callable[[int, list[Card]], Card | None] | None = None
    """Asked which card an unknown card turning up on a pile (0-based) is: the REPL sets it;
    None (or a None answer) lets the engine draw one from the pool."""
    found: list[Action] = field(default_factory=list)
    """The rest of the line the last ``solve`` or ``hint`` found, for ``apply``."""
    found_at: tuple | None = None
    """The position (``Game.key()``) that line starts from."""

    @classmethod
    def new_game(cls, seed: int | None = None, suits: int = 4, **kwargs: object) -> Session:
        session = cls(**kwargs)  # type: ignore[arg-type]
        session._new(seed, suits)
        session.changed = False
        return session

    # -- running commands ---------------------------------------------------------------------

    def execute(self, line: str) -> Reply:
        """Run one line; raises only SpiderError, leaving the game as it was on failure."""
        command = parse_command(line)
        if command is None:
            return Reply()
        handler = self._handlers().get(type(command))
        if handler is None:  # pragma: no cover - every command class has a handler
            raise SpiderError(f"{type(command).__name__} is not available here")
        if self.in_game_file and not isinstance(command, GAME_FILE_COMMANDS):
            raise SpiderError("a game file holds only its start, moves, 'assume' and 'set'")
        reply = handler(command)
        reply.command = command
        return reply

    def _handlers(self) -> dict[type, object]:
        return {
            cmd.MoveCommand: self._do_move,
            cmd.ObviousCommand: self._do_move,
            cmd.DealCommand: self._do_move,
            cmd.RemoveCommand: self._do_move,
            cmd.NewCommand: self._do_new,
            cmd.Restart: self._do_restart,
            cmd.Undo: self._do_undo,
            cmd.Redo: self._do_redo,
            cmd.Assume: self._do_assume,
            cmd.Moves: self._do_moves,
            cmd.Complete: self._do_complete,
            cmd.Locate: self._do_locate,
            cmd.Score: self._do_score,
            cmd.Show: self._do_show,
            cmd.Code: self._do_code,
            cmd.Load: self._do_load,
            cmd.Save: self._do_save,
            cmd.Expect: self._do_expect,
            cmd.Set: self._do_set,
            cmd.Help: self._do_help,
            cmd.Quit: lambda _command: Reply("", quit=True),
            cmd.Replay: self._do_replay,
            cmd.Stats: self._do_stats,
            cmd.Hint: self._do_hint,
            cmd.Solve: self._do_solve,
            cmd.Apply: self._do_apply,
        }

    # -- moves --------------------------------------------------------------------------------

    def _do_move(self, command: object) -> Reply:
        action = resolve(self.game, command)
        reason = self.game.why_illegal(action)
        if reason:
            raise IllegalMoveError(reason)
        if self.ask_reveal is not None:
            for pile in self.game.unknown_reveals(action):
                pool = [Card(code) for code, n in enumerate(self.game.pool) if n]
                card = self.ask_reveal(pile, pool)
                if card is not None:
                    self.game.assume(pile, card)
        return Reply(self.play(action))

    def play(self, action: Action) -> str:
        """Apply a legal action, record it for saving, and describe what happened."""
        game = self.game
        text = move_text(game, action)
        down_before = game.down[:]
        removed_before = len(game.removed)
        game.push(action)
        self.history.append([f"assume {p + 1} {c}" for p, c in game.last_reveals()] + [text])
        self.redo_lines.clear()
        self.changed = True
        return text + self._what_happened(down_before, removed_before)

    def _what_happened(self, down_before: list[int], removed_before: int) -> str:
        game = self.game
        notes = []
        for pile, before in enumerate(down_before):
            if game.down[pile] < before:
                notes.append(f"pile {pile + 1} turns up {card_text(game.piles[pile][before - 1])}")
        for suit in game.removed[removed_before:]:
            notes.append(f"{SUIT_NAMES[suit]} removed")
        if isinstance(game.move_stack[-1], Deal) if game.move_stack else False:
            left = game.deals_left
            notes.append(f"{left} deal{'s' if left != 1 else ''} left")
        notes.extend(self.status_notes())
        return "".join(f"\n  {note}" for note in notes)

    def status_notes(self) -> list[str]:
        """Notes about the game as a whole: a suit ready to remove, a win, a loss."""
        game = self.game
        if game.is_won():
            return [f"you have won! score {game.score()}"]
        if game.is_lost():
            return [f"no moves left and the hand is empty: the game is lost (score {game.score()})"]
        ready = [a for a in game.legal_moves() if isinstance(a, Remove)]
        return [f"a complete suit can be removed from pile {a.pile + 1}" for a in ready]

    def _do_undo(self, command: cmd.Undo) -> Reply:
        count = command.n
        if count < 1:
            raise SpiderError("undo needs a positive number of moves")
        if not self.history:
            raise IllegalMoveError("nothing to undo: this is the start of the game")
        count = min(count, len(self.history))
        texts = []
        for _ in range(count):
            self.game.pop()
            lines = self.history.pop()
            self.redo_lines.append(lines)
            texts.append(lines[-1])
        self.changed = True
        return Reply("took back " + ", ".join(texts))

    def _do_redo(self, command: cmd.Redo) -> Reply:
        count = command.n
        if count < 1:
            raise SpiderError("redo needs a positive number of moves")
        if not self.redo_lines:
            raise IllegalMoveError("nothing to redo")
        texts = []
        for _ in range(min(count, len(self.redo_lines))):
            self.game.redo()
            lines = self.redo_lines.pop()
            self.history.append(lines)
            texts.append(lines[-1])
        self.changed = True
        return Reply("replayed " + ", ".join(texts))

    def _do_restart(self, _command: object) -> Reply:
        while self.history:
            self.game.pop()
            self.redo_lines.append(self.history.pop())
        self.changed = True
        return Reply("back to the start of this hand ('redo' replays the moves)")

    def _do_assume(self, command: cmd.Assume) -> Reply:
        self.game.assume(command.pile - 1, command.card)
        self.redo_lines.clear()
        self.changed = True
        return Reply(f"the next unknown card in pile {command.pile} will be {command.card}")

    # -- new games and files ------------------------------------------------------------------

    def _new(self, seed: int | None, suits: int) -> None:
        if seed is None:
            seed = secrets.randbelow(10**9)
        game = Game.new(seed, suits, self.settings.sixth)
        self._replace(game, [f"new {seed} suits {suits}"])

    def _replace(self, game: Game, start: list[str]) -> None:
        if self.settings.sixth != "left" and start[0].startswith("new"):
            start = [f"set sixth {self.settings.sixth}", *start]
        game.autoremove = self.settings.autoremove
        self.game = game
        self.start = start
        self.history = []
        self.redo_lines = []
        self.changed = True

    def _do_new(self, command: cmd.NewCommand) -> Reply:
        self._new(command.seed, command.suits or 4)
        return Reply(self.describe_start())

    def describe_start(self) -> str:
        """One line about how this game began."""
        first = self.start[-1]
        if first.startswith("new"):
            words = first.split()
            return f"deal {words[1]}, {words[3]} suit{'s' if words[3] != '1' else ''}"
        return "position loaded"

    def _path(self, text: str) -> Path:
        return (self.base_dir / Path(text).expanduser()).resolve()

    def _do_load(self, command: cmd.Load) -> Reply:
        target = command.path
        if positions.is_position_code(target):
            game = positions.parse_position_code(target).to_game()
            self._replace(game, [f"load {positions.position_code(game)}"])
            return Reply("position loaded from its code")
        if self.in_game_file:
            raise SpiderError("a game file starts from a deal number or a position code")
        path = self._resolve_file(target)
        text = positions.read_text_file(path)
        if gamefiles.is_game_file(text):
            resumed = gamefiles.resume(text, base_dir=path.parent, settings=self.settings)
            self._adopt(resumed)
            return Reply(f"resumed {path.name}: {len(self.history)} moves replayed")
        try:
            game = positions.read_position(text).to_game()
        except NotationError as error:
            raise NotationError(
                f"{path.name}: {error.message}", error.line, error.column, error.context
            ) from None
        self._replace(game, [f"load {positions.position_code(game)}"])
        return Reply(f"loaded {path.name}")

    def _resolve_file(self, target: str) -> Path:
        path = self._path(target)
        if path.exists():
            return path
        from spider_cli.app import examples  # the manual's worked problems, by name

        found = examples.find(target)
        if found is not None:
            return found
        raise SpiderError(f"cannot read {target}: no such file or example")

    def _adopt(self, other: Session) -> None:
        """Take over the game of a session that replayed a game file."""
        self.game = other.game
        self.start = other.start
        self.history = other.history
        self.redo_lines = []
        self.settings = other.settings
        self.game.autoremove = self.settings.autoremove
        self.changed = False

    def _do_save(self, command: cmd.Save) -> Reply:
        path = self._path(command.path)
        try:
            write_atomically(path, gamefiles.game_text(self))
        except OSError as error:
            raise SpiderError(f"cannot save {command.path}: {error.strerror or error}") from None
        self.changed = False
        return Reply(f"saved to {command.path}")

    def _do_expect(self, command: cmd.Expect) -> Reply:
        path = self._resolve_file(command.path)
        expected = positions.read_position(positions.read_text_file(path))
        differences = positions.differences(self.game, expected)
        if differences:
            raise SpiderError(
                f"the position is not the one in {command.path}:\n"
                + "\n".join(f"  {d}" for d in differences)
            )
        return Reply(f"position matches {command.path}")

    def _do_set(self, command: cmd.Set) -> Reply:
        name = command.name.lower()
        values = SETTING_VALUES.get(name)
        if values is None:
            raise SpiderError(f"no setting called {name!r} (settings: {', '.join(SETTING_VALUES)})")
        value = values.get(str(command.value).lower())
        if value is None:
            raise SpiderError(f"{name} can be {', '.join(sorted(set(map(str, values))))}")
        setattr(self.settings, name, value)
        if name == "autoremove":
            self.game.autoremove = bool(value)
            self.changed = True
        return Reply(f"{name} is {'on' if value is True else 'off' if value is False else value}")

    # -- questions ----------------------------------------------------------------------------

    def _do_moves(self, _command: object) -> Reply:
        game = self.game
        actions = game.legal_moves()
        lines = []
        for action in actions:
            natural = isinstance(action, Move) and game.is_natural(action)
            lines.append(("* " if natural else "  ") + move_text(game, action))
        if not lines:
            return Reply("no legal moves")
        return Reply("\n".join(lines) + "\n(* a natural move: onto the same suit)")

    def _do_complete(self, _command: object) -> Reply:
        sets = self.game.complete_suits()
        if not sets:
            return Reply("no suit has all thirteen cards face up")
        parts = [
            f"{SUIT_NAMES[suit]}{f' (x{count})' if count > 1 else ''}"
            for suit, count in sets.items()
        ]
        return Reply("face up in full: " + ", ".join(parts))

    def _do_locate(self, command: cmd.Locate) -> Reply:
        """Where the copies of a card are, as far as a player can see: face-down cards and
        the hand are not given away, even when the deal knows them."""
        game = self.game
        suits = [command.suit] if command.suit is not None else SUITS_IN_VARIANT[game.suits]
        lines = []
        for suit in suits:
            card = Card.of(command.rank, suit)
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
            return Reply(f"no {RANK_WORDS[command.rank]} in a {game.suits}-suit game")
        return Reply("\n".join(lines))

    def _do_score(self, _command: object) -> Reply:
        return Reply(f"score {self.game.score()}")

    def _do_show(self, command: cmd.Show) -> Reply:
        game = self.game
        if command.pile is None:
            return Reply(positions.grid(game, hide=True) + "\n" + self.status_line())
        pile = command.pile - 1
        if not 0 <= pile < 10:
            raise SpiderError(f"there is no pile {command.pile}")
        up = game.face_up(pile)
        if not game.piles[pile]:
            return Reply(f"pile {command.pile} is a space")
        return Reply(
            f"pile {command.pile}: {game.down[pile]} face down, then "
            + " ".join(card_text(c) for c in up)
        )

    def status_line(self) -> str:
        game = self.game
        return (
            f"deals left {game.deals_left} | removed {len(game.removed)} | "
            f"moves {len(self.history)} | score {game.score()}"
        )

    def _do_code(self, _command: object) -> Reply:
        return Reply(positions.position_code(self.game, hide=True))

    def _do_help(self, command: cmd.Help) -> Reply:
        return Reply(help_text(command.topic))

    def _do_replay(self, _command: object) -> Reply:
        """The game's moves from the start, numbered (the REPL steps through them instead)."""
        if not self.history:
            return Reply("no moves yet: this is the start of the game")
        return Reply("\n".join(f"{n}. {lines[-1]}" for n, lines in enumerate(self.history, 1)))

    def _do_stats(self, _command: object) -> Reply:
        return Reply(stats.report())

    # -- analysis: hint, solve, apply (spider_cli/hints.py, spider_cli/solver.py) ---------------

    def analysed(self) -> Game:
        """The game as its player knows it: a numbered deal hides its face-down cards and
        its hand, so hints and the solver must not use them."""
        if self.start[-1].startswith("new"):
            return player_view(self.game)
        return self.game

    def _remember(self, line: list[Action]) -> None:
        self.found = list(line)
        self.found_at = self.game.key() if line else None

    def _do_hint(self, _command: object) -> Reply:
        advice = hints.hint(self.analysed())
        self._remember(advice.actions)
        return Reply(advice.text)

    def _do_solve(self, command: cmd.Solve) -> Reply:
        try:
            report = solver.answer(
                self.analysed(), command.goal, command.constraints, command.each_reveal
            )
        except ValueError as error:
            raise SpiderError(str(error)) from None
        self._remember(report.actions)
        text = report.text
        if report.actions:
            text += "\n('apply' plays the line, 'apply 1' its next move)"
        return Reply(text)

    def _do_apply(self, command: cmd.Apply) -> Reply:
        """Play the line found last, all of it or its next N moves, as if typed."""
        if not self.found:
            raise SpiderError("no line to apply: 'solve' or 'hint' finds one")
        if self.game.key() != self.found_at:
            raise SpiderError("the position has changed since that line was found: solve again")
        count = len(self.found) if command.n is None else command.n
        if count < 1:
            raise SpiderError("apply needs a positive number of moves")
        texts = []
        for action in self.found[:count]:
            reason = self.game.why_illegal(action)
            if reason:  # pragma: no cover - a found line is legal from where it was found
                raise SpiderError(f"the line no longer plays: {reason}")
            texts.append(self.play(action))
        del self.found[:count]
        self.found_at = self.game.key() if self.found else None
        return Reply("\n".join(texts))


GAME_FILE_COMMANDS = (
    cmd.MoveCommand,
    cmd.DealCommand,
    cmd.RemoveCommand,
    cmd.Assume,
    cmd.Set,
    cmd.NewCommand,
    cmd.Load,
)
