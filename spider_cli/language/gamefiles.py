"""Game files: the manual's SAVE IN FILE, as a script of our own commands.

A game file is plain text. Its first line is :data:`MAGIC`; then come the lines that set up
the start (``new 17 suits 4``, or ``load`` with a position code, after any ``set`` lines),
then every move in notation, each preceded by ``assume`` lines naming the unknown cards it
turned up, so that replaying it is exact. Pending assumptions follow the moves. The current
tableau is appended as ``#`` comments for a person to read. Resuming replays every line
through a fresh session, so each move is checked by the same rules as at the prompt.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from spider_cli.language import positions
from spider_cli.rules.cards import card_text
from spider_cli.rules.errors import NotationError, SpiderError

if TYPE_CHECKING:
    from spider_cli.app.session import Session, Settings

MAGIC = "# spider game file, version 1"


def is_game_file(text: str) -> bool:
    return text.startswith(MAGIC)


def game_text(session: Session) -> str:
    """The game file for a session: start, moves with their reveals, pending assumptions."""
    game = session.game
    lines = [MAGIC]
    if session.settings.autoremove:
        lines.append("set autoremove on")
    lines += session.start
    for entry in session.history:
        lines += entry
    for pile, queue in enumerate(game.assumed):
        lines += [f"assume {pile + 1} {card}" for card in map(card_text, queue)]
    lines.append("")
    lines.append(f"# position after {len(session.history)} moves ({session.status_line()}):")
    lines += ["# " + row if row else "#" for row in positions.grid(game, hide=True).splitlines()]
    return "\n".join(lines) + "\n"


def resume(text: str, base_dir: Path, settings: Settings) -> Session:
    """Replay a game file into a new session; errors name the line and column."""
    from spider_cli.app.session import Session, Settings

    session = Session(settings=Settings(sixth=settings.sixth), base_dir=base_dir)
    session.in_game_file = True
    started = False
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            reply_needed = line.strip() and not line.lstrip().startswith("#")
            if not reply_needed:
                continue
            words = line.split()
            is_start = words[0].lower() in ("new", "load")
            if is_start and started:
                raise SpiderError("a game file has only one start ('new' or 'load')")
            if not is_start and not started and words[0].lower() != "set":
                raise SpiderError("the game file does not say how the game starts")
            session.execute(line)
            started = started or is_start
        except NotationError as error:
            raise NotationError(
                f"in the game file: {error.message}",
                number,
                error.column or 1,
                error.context,
            ) from None
        except SpiderError as error:
            raise NotationError(f"in the game file: {error}", number, 1, line) from None
    if not started:
        raise NotationError("the game file does not say how the game starts", 1, 1, "")
    session.in_game_file = False
    session.changed = False
    return session
