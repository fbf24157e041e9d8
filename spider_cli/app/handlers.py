"""The table of commands: each command a session runs (:meth:`Session.run
<spider_cli.app.session.Session.run>`), by the type of its value, with its handler, its
typed result and its reply (:mod:`spider_cli.app.interpreter` keeps the table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.app import replies
from spider_cli.app.interpreter import Answers, Commands, Prepared
from spider_cli.app.results import GameReviewed
from spider_cli.language import commands as cmd
from spider_cli.language import positions
from spider_cli.language import textfiles as files
from spider_cli.language.help import help_text
from spider_cli.language.settings import setting_value
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from spider_cli.app.session import Session

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
