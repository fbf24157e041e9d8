"""The manual's notation: a typed line of text becomes a command, a command an action.

Reading is :mod:`spider_cli.language.reader` (:func:`parse_command`), and saying why a line
does not read is :mod:`spider_cli.language.explain`; both are reached from here too.
:func:`resolve` finds what a move, removal or deal command names in a game and returns the
engine action (for the caller to check against the rules), or raises
:class:`IllegalMoveError` with the precise reason; the rules it needs (as many cards as fit,
the obvious place, the pile with a complete suit) are the engine's :class:`Game`'s. Writing
goes the other way in :mod:`spider_cli.rules.text`, and reads back:
``resolve(game, parse_command(move_text(game, action))) == action`` for every legal action.
"""

from __future__ import annotations

from spider_cli.language.commands import (
    DealCommand,
    MoveCommand,
    ObviousCommand,
    RunSpec,
    TableauCommand,
)
from spider_cli.language.explain import command_parser
from spider_cli.language.reader import (
    MAX_DIGITS,
    clear_line_cache,
    parse_command,
    parse_question,
    read_run,
)
from spider_cli.rules.cards import card_text, run_text
from spider_cli.rules.engine import DEAL, PILES, Action, Game, Move
from spider_cli.rules.errors import IllegalMoveError, Part
from spider_cli.rules.placing import fitting_move, obvious, removal

__all__ = [
    "MAX_DIGITS",
    "clear_line_cache",
    "command_parser",
    "parse_command",
    "parse_question",
    "read_run",
    "resolve",
]


def _index(pile: int, part: Part) -> int:
    """The engine's index (0..9) of a pile numbered as typed (1..10), the ``part`` of its
    command (for the error when there is no such pile)."""
    if not 1 <= pile <= PILES:
        raise IllegalMoveError(f"there is no pile {pile}", part=part)
    return pile - 1


def _bottom_text(game: Game, pile: int) -> str:
    """How a pile ends, for messages: "it ends with 4h" or "it is a space"."""
    cards = game.piles[pile]
    return f"it ends with {card_text(cards[-1])}" if cards else "it is a space"


def resolve(game: Game, cmd: TableauCommand) -> Action:
    """The engine action a command names in ``game``; IllegalMoveError says why none is named.

    The action found is not checked against the rules (a move onto a card of the wrong rank,
    a deal onto a space): the caller checks it once, with ``game.why_illegal``, the one
    source of the rules' messages. Only where the command leaves a choice (two piles end
    with the card named) is the first legal one taken.
    """
    if isinstance(cmd, ObviousCommand):
        return obvious(game, cmd.pile - 1)
    if isinstance(cmd, MoveCommand):
        return _resolve_move(game, cmd)
    if isinstance(cmd, DealCommand):
        return DEAL
    return removal(game, None if cmd.pile is None else cmd.pile - 1, cmd.suit)


def _resolve_move(game: Game, cmd: MoveCommand) -> Move:
    """Find the source, the cards and the destination a move command names."""
    run = cmd.run
    if run is not None and run.bottom is not None and run.top_suit not in (None, run.bottom.suit):
        raise IllegalMoveError(f"{run} is not a same-suit run", part=Part.CARDS)
    if cmd.src is not None:
        sources = [_index(cmd.src, Part.SOURCE)]
    elif run is not None and run.bottom is not None:
        sources = [i for i, cards in enumerate(game.piles) if cards and cards[-1] == run.bottom]
        if not sources:
            raise IllegalMoveError(f"no pile ends with {run.bottom}", part=Part.CARDS)
    else:
        raise IllegalMoveError("say which pile to move from, as in 'from 3'")
    if len(sources) == 1:
        return _move_from(game, cmd, sources[0])
    first_error: IllegalMoveError | None = None
    for src in sources:  # when two piles end with the card named, the first that can move
        try:
            move = _move_from(game, cmd, src)
            refused = game.refusal(move)
            if not refused:
                return move
            raise IllegalMoveError(refused[0], part=refused[1])
        except IllegalMoveError as error:
            first_error = first_error or error
    assert first_error is not None
    raise first_error


def _move_from(game: Game, cmd: MoveCommand, src: int) -> Move:
    """The move of ``cmd`` out of pile ``src`` (0-based), not checked against the rules."""
    cards = game.piles[src]
    if not cards:
        raise IllegalMoveError(f"pile {src + 1} is a space", part=Part.SOURCE)
    run = cmd.run
    if run is not None and run.bottom is not None and cards[-1] != run.bottom:
        raise IllegalMoveError(_not_at_bottom(game, src, run), part=Part.CARDS)
    dst = _destination(game, cmd, src)
    if run is None:
        return fitting_move(game, src, dst)
    if run.count is None:
        count = _count_from_top(game, src, run)
        if not count:
            raise IllegalMoveError(
                f"pile {src + 1} has no {run} in its movable run", part=Part.CARDS
            )
    else:
        count = run.count
    return Move(src, dst, count)


def _destination(game: Game, cmd: MoveCommand, src: int) -> int:
    """The pile (0-based) a move goes to: named, ending with a card, or a space."""
    if cmd.onto is not None:
        if cmd.dst is not None:
            dst = _index(cmd.dst, Part.DESTINATION)
            cards = game.piles[dst]
            if not cards or cards[-1] != cmd.onto:
                where = f"pile {cmd.dst} ({_bottom_text(game, dst)})"
                raise IllegalMoveError(
                    f"{cmd.onto} is not at the bottom of {where}", part=Part.DESTINATION
                )
            return dst
        for dst, cards in enumerate(game.piles):
            if dst != src and cards and cards[-1] == cmd.onto:
                return dst
        raise IllegalMoveError(f"no pile ends with {cmd.onto}", part=Part.DESTINATION)
    if cmd.into_space:
        if cmd.dst is not None:
            dst = _index(cmd.dst, Part.DESTINATION)
            if game.piles[dst]:
                raise IllegalMoveError(f"pile {cmd.dst} is not a space", part=Part.DESTINATION)
            return dst
        spaces = game.spaces()
        if not spaces:
            raise IllegalMoveError("there is no space", part=Part.DESTINATION)
        return spaces[0]
    if cmd.dst is None:
        raise IllegalMoveError("say where to: 'to PILE'")
    return _index(cmd.dst, Part.DESTINATION)


def _count_from_top(game: Game, src: int, run: RunSpec) -> int:
    """How many cards move when the run's top card and those below it leave pile ``src``.

    0 when the top card is not in the pile's movable run.
    """
    cards = game.piles[src]
    for count in range(1, game.run_length(src) + 1):
        card = cards[-count]
        if card & 15 == run.top_rank and run.top_suit in (None, card >> 4):
            return count
    return 0


def _not_at_bottom(game: Game, src: int, run: RunSpec) -> str:
    """Why ``run`` cannot leave pile ``src``, whose last card is not the run's bottom card.

    A single card higher up the movable run gets a hint: write the run from it.
    """
    where = f"pile {src + 1} ({_bottom_text(game, src)})"
    if run.count != 1:
        return f"{run} is not at the bottom of {where}"
    count = _count_from_top(game, src, run)
    if not count:
        return f"pile {src + 1} has no {run} in its movable run"
    hint = run_text(game.piles[src][-count:])
    return f"{run} is not at the bottom of {where}: to move it and the cards below it, write {hint}"
