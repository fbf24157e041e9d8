"""The table of commands (:data:`COMMANDS`): for each command type, its handler, which
gives the command's typed result and its reply, and whether it searches. A handler acts on
the session through :class:`Seat`, what the commands need of one, so that this module sits
below the session's (:mod:`spider_cli.app.session`), which runs the table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from spider_cli.app.interpreter import Answers, Commands, Prepared, Shown
from spider_cli.app.results import GameReviewed
from spider_cli.app.words import replies
from spider_cli.language import commands as cmd
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.help import help_text
from spider_cli.language.settings import Settings, setting_value
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from spider_cli.app.analysing import Analysis
    from spider_cli.app.files.gamelog import Entry, GameLog, Stored
    from spider_cli.app.results import (
        Assumed,
        Auto,
        Choice,
        Loaded,
        Matched,
        Opened,
        Played,
        Ran,
        Recorded,
        Replayed,
        Resigned,
        Rewound,
        Saved,
        SettingChanged,
        Started,
        Status,
    )
    from spider_cli.rules.cards import Card
    from spider_cli.rules.engine import Action, Game
    from spider_cli.rules.goals import Wanted


class Seat(Protocol):
    """What the commands need of a session (:class:`~spider_cli.app.session.Session`)."""

    game: Game
    settings: Settings
    analysis: Analysis

    def push(self, action: Action) -> Played: ...
    def undo(self, n: int = 1) -> Rewound: ...
    def redo(self, n: int = 1) -> Replayed: ...
    def restart(self) -> Rewound: ...
    def resign(self) -> Resigned: ...
    def assume(self, pile: int, card: Card) -> Assumed: ...
    def apply(self, n: int | None = None, whole: bool = False) -> list[Played]: ...
    def auto(self, n: int | None = None) -> Auto: ...
    def new(
        self, seed: int | DealSource | None = None, suits: int = 4, wanted: Wanted | None = None
    ) -> Started: ...
    def load(self, source: str | Path) -> Loaded: ...
    def open(self, number: int) -> Opened: ...
    def save(self, name: str | Path, replace: bool = False) -> Saved: ...
    def expect(self, name: str | Path) -> Matched: ...
    def run_script(self, name: str) -> Ran: ...
    def change_setting(self, name: str, value: bool | str) -> SettingChanged: ...
    def choices(self) -> list[Choice]: ...
    def history(self) -> list[Recorded]: ...
    def status(self) -> Status: ...
    def games(self, n: int | None = None) -> list[Entry]: ...
    def reviews(self, entries: list[Entry]) -> dict[int, Stored]: ...
    def games_log(self) -> GameLog: ...


COMMANDS: Commands[Seat] = Commands()
"""Every command a session runs (:meth:`~spider_cli.app.session.Session.run`), by the type
of its value."""
handles = COMMANDS.handles


def _replied(result: object) -> tuple[object, str]:
    """A typed result and its reply (:func:`replies.text_of`)."""
    return result, replies.text_of(result)


@handles(None, cmd.MoveCommand, cmd.ObviousCommand, cmd.DealCommand, cmd.RemoveCommand)
def _tableau(
    session: Seat, command: cmd.TableauCommand | None, prepared: Prepared, answers: Answers
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
def _undo(session: Seat, command: cmd.Undo, *_: object) -> tuple[object, str]:
    return _replied(session.undo(command.n))


@handles(cmd.Redo)
def _redo(session: Seat, command: cmd.Redo, *_: object) -> tuple[object, str]:
    return _replied(session.redo(command.n))


@handles(cmd.Restart)
def _restart(session: Seat, *_: object) -> tuple[object, str]:
    return _replied(session.restart())


@handles(cmd.NewCommand, searches=lambda command: command.wanted is not None)
def _new(session: Seat, command: cmd.NewCommand, *_: object) -> tuple[object, str]:
    suits = command.suits or session.game.suits
    deal: int | DealSource | None = command.seed
    if command.source is not Source.OURS and command.seed is not None:
        deal = DealSource(command.source, command.seed, suits)
    started, text = _replied(session.new(deal, suits, command.wanted))
    return started, session.analysis.noted(text) if command.wanted is not None else text


@handles(cmd.Load)
def _load(session: Seat, command: cmd.Load, *_: object) -> tuple[object, str]:
    return _replied(session.load(command.path))


@handles(cmd.Save)
def _save(
    session: Seat, command: cmd.Save, prepared: Prepared, answers: Answers
) -> tuple[object, str]:
    if prepared.replaces is not None and answers.replace is False:
        raise SpiderError(f"{files.shown(str(command.path))} is kept as it was: nothing saved")
    return _replied(session.save(command.path, command.replace or bool(answers.replace)))


@handles(cmd.Expect)
def _expect(session: Seat, command: cmd.Expect, *_: object) -> tuple[object, str]:
    return _replied(session.expect(command.path))


@handles(cmd.RunScript, searches=True)
def _run(session: Seat, command: cmd.RunScript, *_: object) -> tuple[object, str]:
    return _replied(session.run_script(command.path))


@handles(cmd.Open)
def _open(session: Seat, command: cmd.Open, *_: object) -> tuple[object, str]:
    return _replied(session.open(command.number))


@handles(cmd.Assume)
def _assume(session: Seat, command: cmd.Assume, *_: object) -> tuple[object, str]:
    return _replied(session.assume(command.pile - 1, command.card))


@handles(cmd.Set)
def _set(session: Seat, command: cmd.Set, *_: object) -> tuple[object, str]:
    return _replied(session.change_setting(*setting_value(command)))


@handles(cmd.ListSettings)
def _settings(session: Seat, *_: object) -> tuple[object, str]:
    return None, replies.settings_text(session.settings)


@handles(cmd.Solve, searches=True)
def _solve(session: Seat, command: cmd.Solve, *_: object) -> tuple[object, str]:
    report = session.analysis.solve(command.goal, command.constraints, command.each_reveal)
    return report, replies.solve_text(report)


@handles(cmd.Hint, searches=True)
def _hint(session: Seat, command: cmd.Hint, *_: object) -> tuple[object, str]:
    advice = session.analysis.hint(command.deeper, command.following)
    return advice, advice.text


@handles(cmd.Odds, searches=True)
def _odds(session: Seat, *_: object) -> tuple[object, str]:
    chance = session.analysis.odds()
    return chance, session.analysis.noted(replies.chance_text(chance))


@handles(cmd.Review, searches=True)
def _review(session: Seat, command: cmd.Review, *_: object) -> tuple[object, str]:
    if command.move is not None:
        reviewed = session.analysis.reviewed_move(command.move)
        return reviewed, replies.reviewed_text(reviewed)
    done = session.analysis.review(again=command.again)
    return GameReviewed(done), session.analysis.noted(replies.review_text(done))


@handles(cmd.Apply)
def _apply(session: Seat, command: cmd.Apply, *_: object) -> tuple[object, str]:
    played = session.apply(command.n, command.whole)
    return played, "\n".join(replies.played_text(p) for p in played)


@handles(cmd.Auto, searches=True, streams=True)
def _auto(session: Seat, command: cmd.Auto, *_: object) -> tuple[object, str]:
    return _replied(session.auto(command.n))


@handles(cmd.Moves, shown=Shown.READ)
def _moves(session: Seat, *_: object) -> tuple[object, str]:
    return None, replies.choices_text(session.choices())


@handles(cmd.Replay, shown=Shown.STEPPED)
def _replay(session: Seat, *_: object) -> tuple[object, str]:
    return None, replies.history_text(session.history())


@handles(cmd.Complete)
def _complete(session: Seat, *_: object) -> tuple[object, str]:
    return None, replies.complete_text(session.game)


@handles(cmd.Locate)
def _locate(session: Seat, command: cmd.Locate, *_: object) -> tuple[object, str]:
    return None, replies.locate_text(session.game, command.rank, command.suit)


@handles(cmd.Score)
def _score(session: Seat, *_: object) -> tuple[object, str]:
    return None, f"score {session.game.score()}"


@handles(cmd.Show, shown=Shown.BOARD)
def _show(session: Seat, command: cmd.Show, *_: object) -> tuple[object, str]:
    return None, replies.show_text(session.game, session.status(), command.pile)


@handles(cmd.Code)
def _code(session: Seat, *_: object) -> tuple[object, str]:
    return None, positions.position_code(session.game, hide=True)


@handles(cmd.Help, shown=Shown.READ)
def _help(session: Seat, command: cmd.Help, *_: object) -> tuple[object, str]:
    return None, help_text(command.topic)


@handles(cmd.Stats, shown=Shown.READ)
def _stats(session: Seat, *_: object) -> tuple[object, str]:
    from spider_cli.app.files import stats

    return None, stats.report(session.games_log())


@handles(cmd.Games, shown=Shown.READ)
def _games(session: Seat, command: cmd.Games, *_: object) -> tuple[object, str]:
    entries = session.games(command.n)
    listed = replies.games_text(entries, session.reviews(entries))
    return None, "\n".join([*session.games_log().take_notices(), listed])


@handles(cmd.Resign)
def _resign(session: Seat, *_: object) -> tuple[object, str]:
    return _replied(session.resign())


@handles(cmd.Quit)
def _quit(session: Seat, *_: object) -> tuple[object, str]:
    return None, ""
