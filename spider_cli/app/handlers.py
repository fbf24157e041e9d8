"""The commands' handlers: for each command type, the function that runs it on the session,
registered in the session's table of commands (:data:`~spider_cli.app.session.COMMANDS`)
with whether it searches, how its reply is shown and whether it streams its moves. A
handler reaches the session directly, and gives the command's typed result and its reply.
This module sits above the session's, which runs the table and never imports it; the
application's package imports it (``spider_cli/app/__init__.py``), so every session has
its commands. A new command is its grammar, its command class and its handler here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spider_cli.app.interpreter import Answers, Prepared, Shown
from spider_cli.app.results import GameReviewed, Ran, Resigned, SettingChanged
from spider_cli.app.session import COMMANDS, Session
from spider_cli.app.storage import locate
from spider_cli.app.words import replies
from spider_cli.app.words.advice import hint_text
from spider_cli.language import commands as cmd
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.help import help_text
from spider_cli.language.places import in_line
from spider_cli.language.settings import SETTING_VALUES, setting_value
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.errors import SpiderError

if TYPE_CHECKING:
    from spider_cli.app.files.gamelog import Entry, Stored

__all__ = ["COMMANDS", "current_reviews"]

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
    return _replied(session.load(command.path))


@handles(cmd.Save)
def _save(
    session: Session, command: cmd.Save, prepared: Prepared, answers: Answers
) -> tuple[object, str]:
    if prepared.replaces is not None and answers.replace is False:
        raise SpiderError(f"{files.shown(str(command.path))} is kept as it was: nothing saved")
    return _replied(session.save(command.path, command.replace or bool(answers.replace)))


@handles(cmd.Expect)
def _expect(session: Session, command: cmd.Expect, *_: object) -> tuple[object, str]:
    return _replied(session.expect(command.path))


@handles(cmd.RunScript, searches=True)
def _run(session: Session, command: cmd.RunScript, *_: object) -> tuple[object, str]:
    """Run a script's lines (a file, or an example's name) in this game as ``spider run``
    does: nothing asked, the first line refused ends it (what the lines before it did is
    kept), and a ``quit`` in it ends the script, not the session. A script does not run
    another."""
    if session.scripting:
        raise SpiderError("a script cannot run another script ('run' inside 'run')")
    name = command.path
    path, _example = locate(name, session.base_dir)
    text = files.read_text(path, name)
    said: list[str] = []
    session.scripting = True
    try:
        for number, line in enumerate(files.script_lines(text), start=1):
            try:
                if len(line) > files.MAX_LINE:
                    raise SpiderError(f"the line has {len(line):,} characters")
                reply = session.execute(line)
            except SpiderError as error:
                where = files.named(f"{name}:{number}")
                reason = files.shown(str(in_line(error, line)), newlines=True)
                return _replied(Ran(name, tuple(said), f"{where}: error: {reason}"))
            said.append(reply.text)
            if reply.quit:
                break
    finally:
        session.scripting = False
    return _replied(Ran(name, tuple(said)))


@handles(cmd.Open)
def _open(session: Session, command: cmd.Open, *_: object) -> tuple[object, str]:
    return _replied(session.open(command.number))


@handles(cmd.Assume)
def _assume(session: Session, command: cmd.Assume, *_: object) -> tuple[object, str]:
    return _replied(session.assume(command.pile - 1, command.card))


@handles(cmd.Set)
def _set(session: Session, command: cmd.Set, *_: object) -> tuple[object, str]:
    """Change a setting (see :data:`SETTING_VALUES`); autoremove applies to this game from
    its next move (a setting is not a move: the game has not changed)."""
    name, value = setting_value(command)
    if name not in SETTING_VALUES or value not in SETTING_VALUES[name].values():
        raise SpiderError(f"{name} cannot be {value}")
    session.settings = session.settings.changed(name, value)
    if name == "autoremove":
        session.game.autoremove = bool(value)
    return _replied(SettingChanged(name, value))


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
    return advice, hint_text(session.analysis.analysed(), advice)


@handles(cmd.Odds, searches=True)
def _odds(session: Session, *_: object) -> tuple[object, str]:
    chance = session.analysis.odds()
    return chance, session.analysis.noted(replies.chance_text(chance))


@handles(cmd.Review, searches=True)
def _review(session: Session, command: cmd.Review, *_: object) -> tuple[object, str]:
    if command.move is not None:
        reviewed = session.analysis.reviewed_move(command.move)
        return reviewed, replies.reviewed_text(reviewed, session.game)
    done = session.analysis.review(again=command.again)
    return GameReviewed(done), session.analysis.noted(replies.review_text(done, session.game))


@handles(cmd.Apply)
def _apply(session: Session, command: cmd.Apply, *_: object) -> tuple[object, str]:
    played = session.apply(command.n, command.whole)
    return played, "\n".join(replies.played_text(p) for p in played)


@handles(cmd.Auto, searches=True, streams=True)
def _auto(session: Session, command: cmd.Auto, *_: object) -> tuple[object, str]:
    return _replied(session.auto(command.n))


@handles(cmd.Moves, shown=Shown.READ)
def _moves(session: Session, *_: object) -> tuple[object, str]:
    return None, replies.choices_text(session.choices())


@handles(cmd.Replay, shown=Shown.STEPPED)
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


@handles(cmd.Show, shown=Shown.BOARD)
def _show(session: Session, command: cmd.Show, *_: object) -> tuple[object, str]:
    return None, replies.show_text(session.game, session.status(), command.pile)


@handles(cmd.Code)
def _code(session: Session, *_: object) -> tuple[object, str]:
    return None, positions.position_code(session.game, hide=True)


@handles(cmd.Help, shown=Shown.READ)
def _help(session: Session, command: cmd.Help, *_: object) -> tuple[object, str]:
    return None, help_text(command.topic)


@handles(cmd.Stats, shown=Shown.READ)
def _stats(session: Session, *_: object) -> tuple[object, str]:
    from spider_cli.app.files import stats

    return None, stats.report(session.games_log())


@handles(cmd.Games, shown=Shown.READ)
def _games(session: Session, command: cmd.Games, *_: object) -> tuple[object, str]:
    """The last games of the history (``games N``: N of them; none: :data:`gamelog.RECENT`),
    the newest first, each with its review if one of this spider's is kept."""
    from spider_cli.app.files.gamelog import RECENT

    n = RECENT if command.n is None else command.n
    if n < 1:
        raise SpiderError("games needs a positive number of games")
    entries = session.games_log().recent(n)
    listed = replies.games_text(entries, current_reviews(session, entries))
    return None, "\n".join([*session.games_log().take_notices(), listed])


def current_reviews(session: Session, entries: list[Entry]) -> dict[int, Stored]:
    """The reviews the session's history keeps for these games, of this spider's review
    version, by game number."""
    kept = session.games_log().reviews([e.number for e in entries])
    if not kept:  # (no review: the analysis need not load)
        return {}
    from spider_cli.analysis import version

    versions = {suits: version(suits) for suits in {e.suits for e in entries}}
    return {
        e.number: kept[e.number, versions[e.suits]]
        for e in entries
        if (e.number, versions[e.suits]) in kept
    }


@handles(cmd.Resign)
def _resign(session: Session, *_: object) -> tuple[object, str]:
    """Give the game up (the front ends' keeper records it as lost)."""
    return _replied(Resigned(session.game.moves_made))


@handles(cmd.Quit)
def _quit(session: Session, *_: object) -> tuple[object, str]:
    return None, ""
