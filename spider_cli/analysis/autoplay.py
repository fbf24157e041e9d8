"""Full-information play: win a numbered deal with every card known (``spider solve
--seed``, ``spider bench``).

A beam search in the manner of KPatience's solver (spidersolver2), in Python: positions
ranked by their "chaos" (:func:`spider_cli.analysis.compact.rank_key`), a beam for each number of
deals made, widened until it wins or its positions run out. Not exhaustive: "no win found"
is not a proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from spider_cli.analysis import detours, native
from spider_cli.analysis.compact import (
    FACE_DOWN,
    ONE_BYTE,
    Start,
    State,
    actions,
    apply,
    completes_suit,
    encode,
    rank_key,
    run_length,
)
from spider_cli.analysis.goals import PLAY_LIMIT, Clock, Expired, deadline
from spider_cli.rules.cards import UNKNOWN
from spider_cli.rules.engine import DEAL, PILES, Action, Game, Move, Remove
from spider_cli.rules.text import move_text

MAX_LEVELS = 400
"""A beam gives up after this many moves (wins take 100 to 300): a wider beam comes next."""

WIDTHS = (4, 16, 64, 256, 1024, 4096)
"""The beam widths tried in turn (a wider beam gets what the narrower ones left of the
limit: at the default limit, 4096 is reached only when 1024 fails early)."""

SEARCH_VERSION = 1
"""The version of full-information play. Anyone who changes what :func:`play` finds (its
moves, ranking, widths, levels, detours, a second stage) must raise it: ``spider bench``
keeps results under :func:`search_key`, and a stored result of another version is then
played again rather than reported as this search's. tests/test_search_version.py fails
when the results of a few deals change while the version stays."""


def search_key() -> str:
    """Everything that decides what :func:`play` finds, as text: the key of its stored
    results (``spider bench --db``). The path is not in it: the compiled core and the Python
    path find the same lines in the same positions (tests/test_core.py compares them)."""
    widths = "-".join(map(str, WIDTHS))
    return f"beam version {SEARCH_VERSION}, widths {widths}, {MAX_LEVELS} levels"


PER_SECOND = 100_000
"""About the positions :func:`play` examines in a second on the Python path, and on the
compiled core (:data:`PER_SECOND_CORE`): "within N seconds" buys N times as many (at most
:data:`PLAY_LIMIT`), whether or not a clock also caps the time."""

PER_SECOND_CORE = 1_500_000

Trail = tuple["Trail", Action] | None
"""A beam node's line, newest action last: (the line before it, the action), None at the
start; shared between a node's children, and unwound only for the winning line."""


def play_limit(seconds: float | None) -> int:
    """The positions :func:`play` may examine for "within ``seconds``" (None: the default)."""
    rate = PER_SECOND if native.core() is None else PER_SECOND_CORE
    return PLAY_LIMIT if not seconds else min(PLAY_LIMIT, round(seconds * rate))


@dataclass
class PlayResult:
    """The outcome of :func:`play`: a winning line, or none within the limits."""

    won: bool
    actions: list[Action]
    positions: int
    seconds: float | None  # measured only when play was given a clock
    width: int
    texts: list[str] = field(default_factory=list)

    def text(self) -> str:
        timed = f" in {self.seconds:.2f} s" if self.seconds is not None else ""
        work = f"{self.positions:,} positions{timed}, beam width {self.width}"
        if not self.won:
            return f"no win found within the limits ({work})"
        lines = [f"won in {len(self.texts)} moves ({work})"]
        lines.extend(f"  {k:>3}. {t}" for k, t in enumerate(self.texts, start=1))
        return "\n".join(lines)


def _beam_moves(piles: State, endgame: bool) -> Iterator[Move]:
    """Moves worth trying in full-information play (KPatience's pruning, not exhaustive):
    :func:`~spider_cli.analysis.compact.actions` with the first space only and no whole pile into
    it, less a run split onto a card unless that makes a longer run of its own suit, and
    (with the hand empty) less a run split into the space."""
    space = next((i for i, p in enumerate(piles) if not p), -1)
    for action in actions(piles, [space] if space >= 0 else [], whole_into_space=False):
        if type(action) is not Move:
            continue  # removals are made at once (see _settle)
        p = piles[action.src]
        m = action.count
        length = run_length(p)
        q = piles[action.dst]
        split = m < length
        if not q:
            if endgame and m < length:
                continue
        elif split and (q[-1] != p[-m] + 1 or run_length(q) + m <= length):
            continue  # a split goes only onto its own suit, making the run longer
        yield action


def _settle(piles: list[bytes]) -> tuple[list[bytes], list[Remove]]:
    """Remove every complete suit at a pile's bottom (always right in full-information play)."""
    removals: list[Remove] = []
    again = True
    while again:
        again = False
        for i, p in enumerate(piles):
            if len(p) >= 13 and completes_suit(p):  # (the length test first: it is cheap)
                new, _turned, _outcome = apply(tuple(piles), Remove(i))
                piles = new
                removals.append(Remove(i))
                again = True
    return piles, removals


def play(
    game: Game,
    limit: int = PLAY_LIMIT,
    widths: tuple[int, ...] = WIDTHS,
    clock: Clock | None = None,
    seconds: float | None = None,
) -> PlayResult:
    """Find a winning line for a game whose cards are all known (a numbered deal).

    Beam search level by level: every position of the beam is expanded, the children are
    ranked by :func:`rank_key`, and the best ``width`` are kept for each number of deals
    made. Each width in turn until a win or ``limit`` positions; memory is bounded by the
    beam (the seen-set holds only kept positions). ``clock`` (None: none is read) times the
    play and, with ``seconds``, stops it then. A card unknown is the caller's bug.
    """
    start = encode(game)
    if any(c == FACE_DOWN for p in start.piles for c in p) or any(
        UNKNOWN in row for row in start.rows
    ):
        raise ValueError("full-information play needs every card known (a numbered deal)")
    began = clock() if clock is not None else 0.0
    expired = deadline(clock, seconds)
    positions = 0
    width = widths[0]
    found = None
    for width in widths:
        found, count = _beam(start, width, limit - positions, expired)
        positions += count
        if found is not None or positions >= limit or (expired is not None and expired()):
            break
    took = clock() - began if clock is not None else None
    if found is None:
        return PlayResult(False, [], positions, took, width)
    line = detours.clean(start, found)
    return PlayResult(True, line, positions, took, width, _replay_plain(game, line))


def _beam(
    start: Start, width: int, budget: int, expired: Expired | None
) -> tuple[list[Action] | None, int]:
    """One beam search of the given width: the winning actions, or None; positions seen.
    On the compiled core when it is there (the same search, step for step)."""
    core = native.core()
    if core is not None:
        removed = len(start.removed)
        try:
            line, positions = core.beam(
                start.piles, start.rows, removed, width, budget, MAX_LEVELS, expired
            )
        except ValueError:  # beyond the core's bounds (more than 104 cards): Python's turn
            pass
        else:
            return (None if line is None else [native.action(*a) for a in line]), positions
    return _beam_python(start, width, budget, expired)


def _beam_python(
    start: Start, width: int, budget: int, expired: Expired | None
) -> tuple[list[Action] | None, int]:
    """:func:`_beam` on the Python path (the reference)."""
    rows = start.rows
    piles0, removals0 = _settle(list(start.piles))
    removed0 = len(start.removed) + len(removals0)
    root_node: Trail = None
    for r in removals0:
        root_node = (root_node, r)
    beam = [(tuple(piles0), 0, removed0, root_node)]
    seen = {(beam[0][0], 0)}
    positions = 1
    level = 0
    while beam and level < MAX_LEVELS:
        level += 1
        children: list[tuple[int, tuple[int, int], State, int, Trail]] = []
        level_seen: set[tuple[State, int]] = set()
        for piles, dealt, removed, node in beam:
            endgame = dealt >= len(rows)
            options: list[tuple[Action, list[bytes]]] = []
            for move in _beam_moves(piles, endgame):
                new, _turned, _outcome = apply(piles, move)
                options.append((move, new))
            if not endgame and all(piles):
                row = rows[dealt]
                options.append((DEAL, [piles[i] + ONE_BYTE[row[i]] for i in range(PILES)]))
            for action, new in options:
                new, removals = _settle(new)
                child = tuple(new)
                child_dealt = dealt + (action is DEAL)
                key = (child, child_dealt)
                if key in seen or key in level_seen:
                    continue
                level_seen.add(key)
                child_removed = removed + len(removals)
                child_node: Trail = (node, action)
                for r in removals:
                    child_node = (child_node, r)
                if child_removed >= 8:
                    return _unwind(child_node), positions + len(level_seen)
                children.append(
                    (child_dealt, rank_key(child, child_removed), child, child_removed, child_node)
                )
        positions += len(level_seen)
        if positions > budget or (expired is not None and expired()):
            return None, positions
        children.sort(key=lambda c: (c[0], c[1]))
        beam = []
        kept = 0
        current = -1
        for child_dealt, _rank, child, child_removed, child_node in children:
            if child_dealt != current:
                current, kept = child_dealt, 0
            if kept < width:
                kept += 1
                beam.append((child, child_dealt, child_removed, child_node))
                seen.add((child, child_dealt))
    return None, positions


def _unwind(node: Trail) -> list[Action]:
    line: list[Action] = []
    while node is not None:
        node, action = node
        line.append(action)
    line.reverse()
    return line


def _replay_plain(game: Game, line: list[Action]) -> list[str]:
    """Check a line with the engine and write it in notation."""
    work = game.copy()
    texts = []
    for action in line:
        reason = work.why_illegal(action)
        if reason:  # pragma: no cover - the solver's moves are the engine's moves
            raise AssertionError(f"solver produced an illegal move: {action} ({reason})")
        texts.append(move_text(work, action))
        work.push(action)
    if not work.is_won():  # pragma: no cover
        raise AssertionError("solver's winning line does not win")
    return texts
