"""Commands in two phases: read what a command will do and the questions it needs answered
(:func:`prepare`), then run it with the answers (:func:`run`), which asks nothing.

A move that turns up an unknown card asks which card it is; a ``save`` over a file that
exists asks whether it may replace it. Each front end asks these its own way before the
command runs (the line mode at a prompt, the board in its command line, a script never),
so a command never stops in the middle to ask. A typed line is read once, a move resolved
once and checked against the rules once. ``spider run``, game files and both front ends
share one meaning for every command (``grammar/commands.lark``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.app import replies
from spider_cli.app.results import Played, Reply
from spider_cli.language import commands as cmd
from spider_cli.language import positions
from spider_cli.language import textfiles as files
from spider_cli.language.commands import setting_value
from spider_cli.language.help import help_text
from spider_cli.language.notation import parse_command, resolve
from spider_cli.rules.cards import Card
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Action, Deal, Move, PositionKey, Remove
from spider_cli.rules.errors import IllegalMoveError, SpiderError
from spider_cli.rules.values import Value

if TYPE_CHECKING:
    from spider_cli.app.session import Session

__all__ = ["Answers", "Prepared", "execute", "prepare", "run"]


class Prepared(Value):
    """A command read and checked, and the questions it needs answered before it runs."""

    command: cmd.Command | None
    """The command (None for an engine action, chosen with the mouse)."""
    action: Action | None = None
    """The engine action a move, deal or removal means here, legal (None for the others)."""
    at: PositionKey | None = None
    """The position ``action`` was checked in (it runs only there)."""
    reveals: tuple[int, ...] = ()
    """Piles (0..9) where the action turns up an unknown card: which card is it?"""
    pool: tuple[Card, ...] = ()
    """The cards an unknown card can be (each copy once), when there are ``reveals``."""
    replaces: Path | None = None
    """The file a ``save`` would replace: may it?"""


class Answers(Value):
    """The answers to a prepared command's questions. ``cards``: (pile 0..9, card) for the
    reveals the player chose (the others are drawn from the pool); ``replace``: whether the
    file may be replaced (None: not asked, as in a script, which must say ``save!``)."""

    cards: tuple[tuple[int, Card], ...] = ()
    replace: bool | None = None


NO_ANSWERS = Answers()
"""A script's answers: none (cards drawn from the pool, no file replaced)."""


def execute(session: Session, line: str) -> Reply:
    """Run one line with no questions asked (a script's way); raises only SpiderError,
    leaving the game as it was on failure."""
    command = parse_command(line)
    if command is None:
        return Reply()
    return run(session, prepare(session, command))


def prepare(session: Session, command: cmd.Command | Action) -> Prepared:
    """What ``command`` will do and what it needs to know first. A move, deal or removal is
    resolved and checked here (SpiderError says why it cannot be played); an engine action
    (a click's) is checked."""
    game = session.game
    if isinstance(command, Move | Deal | Remove):
        return _prepared(session, None, command)
    if isinstance(command, cmd.TableauCommand):
        return _prepared(session, command, resolve(game, command))
    if isinstance(command, cmd.Save) and not command.replace:
        return Prepared(command, replaces=session.would_replace(command.path))
    return Prepared(command)


def _prepared(session: Session, command: cmd.Command | None, action: Action) -> Prepared:
    """A move, deal or removal checked against the rules, with the cards it turns up."""
    game = session.game
    reason = game.why_illegal(action)
    if reason:
        raise IllegalMoveError(reason)
    reveals = tuple(game.unknown_reveals(action))
    if not reveals:  # (most moves: the pool is built only when a card can turn up)
        return Prepared(command, action, game.key(), (), (), None)
    pool = tuple(Card(code) for code, n in enumerate(game.pool) for _ in range(n))
    return Prepared(command, action, game.key(), reveals, pool)


def run(session: Session, prepared: Prepared, answers: Answers | None = None) -> Reply:
    """Run a prepared command with its answers (none: cards drawn from the pool, no file
    replaced); raises only SpiderError, leaving the game as it was on failure."""
    answers = NO_ANSWERS if answers is None else answers
    command = prepared.command
    result, text = _dispatch(session, prepared, answers)
    return Reply(text, isinstance(command, cmd.Quit), command, result)


def _played(session: Session, prepared: Prepared, answers: Answers) -> Played:
    """Push a prepared action, after deciding the cards the player chose for its reveals."""
    game = session.game
    if prepared.action is None or prepared.at != game.key():
        raise SpiderError("the position has changed since that command was read: type it again")
    for pile, card in answers.cards:
        game.assume(pile, card)
    return session.push(prepared.action)


def _dispatch(session: Session, prepared: Prepared, answers: Answers) -> tuple[object, str]:
    """Call the method a command names; its result and the result as text."""
    command = prepared.command
    match command:
        case (
            None
            | cmd.MoveCommand()
            | cmd.ObviousCommand()
            | cmd.DealCommand()
            | cmd.RemoveCommand()
        ):
            return _text(_played(session, prepared, answers))
        case cmd.Undo(n=n):
            return _text(session.undo(n))
        case cmd.Redo(n=n):
            return _text(session.redo(n))
        case cmd.Restart():
            return _text(session.restart())
        case cmd.NewCommand(seed=seed, suits=suits, source=source, wanted=wanted):
            suits = suits or session.game.suits
            deal: int | DealSource | None = seed
            if source is not Source.OURS and seed is not None:
                deal = DealSource(source, seed, suits)
            started, text = _text(session.new(deal, suits, wanted))
            return started, _noted(session, text) if wanted is not None else text
        case cmd.Load(path=path):
            return _text(session.load(path))
        case cmd.Save(path=path, replace=replace):
            if prepared.replaces is not None and answers.replace is False:
                shown = files.shown(str(path))
                raise SpiderError(f"{shown} is kept as it was: nothing saved")
            return _text(session.save(path, replace or bool(answers.replace)))
        case cmd.Expect(path=path):
            return _text(session.expect(path))
        case cmd.Assume(pile=pile, card=card):
            return _text(session.assume(pile - 1, card))
        case cmd.Set():
            return _text(session.change_setting(*setting_value(command)))
        case cmd.ListSettings():
            return None, replies.settings_text(session.settings)
        case cmd.Solve(goal=goal, constraints=constraints, each_reveal=each_reveal):
            report = session.solve(goal, constraints, each_reveal)
            return report, replies.solve_text(report)
        case cmd.Hint(deeper=deeper, following=following):
            advice = session.hint(deeper, following)
            return advice, advice.text
        case cmd.Odds():
            chance = session.odds()
            return chance, _noted(session, replies.chance_text(chance))
        case cmd.Apply(n=n):
            played = session.apply(n)
            return played, "\n".join(replies.played_text(p) for p in played)
        case cmd.Auto(n=n):
            return _text(session.auto(n))
        case cmd.Moves():
            return None, replies.choices_text(session.choices())
        case cmd.Replay():
            return None, replies.history_text(session.history())
        case cmd.Complete():
            return None, replies.complete_text(session.game)
        case cmd.Locate(rank=rank, suit=suit):
            return None, replies.locate_text(session.game, rank, suit)
        case cmd.Score():
            return None, f"score {session.game.score()}"
        case cmd.Show(pile=pile):
            return None, replies.show_text(session, pile)
        case cmd.Code():
            return None, positions.position_code(session.game, hide=True)
        case cmd.Help(topic=topic):
            return None, help_text(topic)
        case cmd.Stats():
            from spider_cli.app import stats

            return None, stats.report(session.games_log())
        case cmd.Games(n=n):
            listed = replies.games_text(session.games(n))
            return None, "\n".join([*session.games_log().take_notices(), listed])
        case cmd.Open(number=number):
            return _text(session.open(number))
        case cmd.Resign():
            return _text(session.resign())
        case cmd.Quit():
            return None, ""
    raise AssertionError(f"no method for {command!r}")  # pragma: no cover


def _text(result: object) -> tuple[object, str]:
    return result, replies.text_of(result)


def _noted(session: Session, text: str) -> str:
    """A search's answer, after a note when the searches run on the slow Python path: once
    in a session (``slow_noted``)."""
    from spider_cli.analysis import native

    note = native.warning()
    if note is None or session.slow_noted:
        return text
    session.slow_noted = True
    return f"{note}\n{text}"
