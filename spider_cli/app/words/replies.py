"""The typed results as the text a player reads (what ``spider run`` prints, and the line
mode and the board show for most commands).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from spider_cli.app.results import (
    Assumed,
    Auto,
    Choice,
    Loaded,
    LoadKind,
    Matched,
    Opened,
    Played,
    Ran,
    Recorded,
    Replayed,
    Resigned,
    Reviewed,
    Rewound,
    Saved,
    SettingChanged,
    Started,
    Status,
)
from spider_cli.language.files import positions
from spider_cli.language.files import textfiles as files
from spider_cli.language.settings import SETTING_VALUES, Settings
from spider_cli.rules.cards import RANK_WORDS, SUIT_NAMES, SUITS_IN_VARIANT, Card, card_text
from spider_cli.rules.engine import Action, Deal, Game
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.placing import complete_suits, locate
from spider_cli.rules.text import clock_text, move_text, moved_text

if TYPE_CHECKING:
    from spider_cli.analysis import Chance, Lost, Report, Review
    from spider_cli.analysis.review import Gap, Mark, Step
    from spider_cli.app.files.gamelog import Entry, Stored
    from spider_cli.app.files.stats import Figures


def text_of(result: object) -> str:
    """The reply text for a method's typed result."""
    match result:
        case Played():
            return played_text(result)
        case Rewound():
            return rewound_text(result)
        case Replayed():
            return line_text(listed_lines(result)[0])
        case Started():
            return started_text(result)
        case Loaded():
            return loaded_text(result)
        case Saved():
            return f"saved to {files.shown(result.name)}"
        case Ran():
            return ran_text(result)
        case Opened():
            return opened_text(result)
        case Resigned(moves=moves):
            return (
                f"resigned after {moves} move{'s' if moves != 1 else ''}: the game is lost "
                "('new' deals another; 'undo' and moves still work, unrecorded)"
            )
        case Matched():
            return f"position matches {files.shown(result.name)}"
        case Auto():
            return auto_text(result)
        case Assumed():
            return f"the next unknown card in pile {result.pile + 1} will be {result.card}"
        case SettingChanged(name=name, value=value):
            return f"{name} is {_setting_word(value)}"
    raise AssertionError(f"no text for {result!r}")  # pragma: no cover


Piece = str | tuple[Card, ...]
"""A piece of a reply's line: words, or cards written together (a card, or a run moved:
``Kd``, ``9-8d``), which a front end may show in their suit's colour."""


def move_pieces(text: str, moved: tuple[Card, ...]) -> list[Piece]:
    """An action in notation as pieces: the cards it moved first (when it moved some),
    then the rest of its words."""
    run = moved_text(moved) if moved else ""
    assert text.startswith(run)
    return [moved, text[len(run) :]] if run else [text]


def played_lines(played: Played) -> list[list[Piece]]:
    """What an action changed, line by line, from the typed result: the move in notation
    (its cards first, when it moved some), then one note a line (a card turned up, a suit
    removed, the deals left, the game won or lost, a suit ready)."""
    notes = _played_notes(played)
    return [move_pieces(played.text, played.moved), *(["  ", *note] for note in notes)]


def _played_notes(played: Played) -> list[list[Piece]]:
    notes: list[list[Piece]] = [
        [f"pile {pile + 1} turns up ", (card,)] for pile, card in played.turned_up
    ]
    notes += [[f"{SUIT_NAMES[suit]} removed"] for suit in played.removed]
    if isinstance(played.action, Deal):
        left = played.deals_left
        notes.append([f"{left} deal{'s' if left != 1 else ''} left"])
    if played.won and not played.wins:  # said once, when the game was won
        notes.append([f"score {played.score}"])
    else:
        notes += [[note] for note in _notes(played.won, played.lost, played.score, played.ready)]
    return notes


def line_text(pieces: list[Piece]) -> str:
    """A line of pieces as plain text."""
    return "".join(piece if isinstance(piece, str) else moved_text(piece) for piece in pieces)


def played_text(played: Played) -> str:
    """The move in notation, then what it changed, one note a line."""
    notes = _played_notes(played)
    return "\n".join([played.text, *(f"  {line_text(note)}" for note in notes)])


def auto_text(auto: Auto) -> str:
    """Each move ``auto`` played, then why it stopped (unless the last move said so)."""
    return "\n".join([*(played_text(p) for p in auto.moves), *auto_stop(auto)])


def auto_stop(auto: Auto) -> list[str]:
    """Why ``auto`` stopped, unless its last move said so (a win or a loss)."""
    last = auto.moves[-1] if auto.moves else None
    return [] if last is not None and (last.won or last.lost) else [f"auto stops: {auto.stopped}"]


def _notes(won: bool, lost: bool, score: int | None, ready: tuple[int, ...]) -> list[str]:
    """Notes about the game as a whole: a win, a loss, or a suit ready to remove."""
    if won:
        return [f"you have won! score {score}"]
    if lost:
        return [f"no moves left and the hand is empty: the game is lost (score {score})"]
    return [f"a complete suit can be removed from pile {pile + 1}" for pile in ready]


def win_text(status: Status, start: str, figures: Figures | None) -> str:
    """The moment of a win: the game's score, moves and time, the streak it makes (when the
    history counts the game: ``figures`` of its variant), and what to do next."""
    played = f", {clock_text(status.played)} played" if status.played is not None else ""
    lines = [
        f"You have won ({start})! Score {status.score}, "
        f"{status.moves} move{'s' if status.moves != 1 else ''}{played}."
    ]
    if figures is not None and figures.won:
        row = "your first win in a row" if figures.streak == 1 else f"{figures.streak} won in a row"
        best = f" (best {figures.best_streak})" if figures.best_streak > figures.streak else ""
        lines.append(
            f"That makes {row}{best}; {figures.won} of {figures.played} games won "
            f"({figures.won / figures.played:.0%}). 'stats' shows them all."
        )
    lines.append(
        "Next: 'new' deals another, 'review' shows where the game turned, 'save FILE' keeps it."
    )
    return "\n".join(lines)


def settings_text(settings: Settings) -> str:
    """Each setting with its value, and the values it can take (what ``set`` alone says)."""
    lines = []
    for name, values in SETTING_VALUES.items():
        value = getattr(settings, name)
        words = dict.fromkeys(_setting_word(v) for v in values.values())
        lines.append(f"{name} {_setting_word(value)}  (set {name} {'|'.join(words)})")
    return "\n".join(lines)


def _setting_word(value: bool | str) -> str:
    return "on" if value is True else "off" if value is False else value


def status_text(status: Status) -> str:
    return (
        f"deals left {status.deals_left} | removed {status.removed} | "
        f"moves {status.moves} | score {status.score}"
    )


def rewound_text(rewound: Rewound) -> str:
    if rewound.restart:
        return "back to the start of this hand ('redo' replays the moves)"
    return line_text(listed_lines(rewound)[0])


def result_lines(result: object) -> list[list[Piece]] | None:
    """The reply to a result that names moves, as pieces: a move played (its notes too),
    moves taken back or replayed; None for other results (their text is all they say)."""
    match result:
        case Played():
            return played_lines(result)
        case Rewound(restart=False) | Replayed():
            return listed_lines(result)
    return None


def listed_lines(result: Rewound | Replayed) -> list[list[Piece]]:
    """What ``undo`` or ``redo`` says, in one line: the moves taken back or replayed."""
    said = "took back " if isinstance(result, Rewound) else "replayed "
    return [[said, *_listed([move_pieces(m.text, m.moved) for m in result.moves])]]


LISTED = 10
"""The most moves an ``undo N`` or ``redo N`` names; the rest are counted."""


def _listed(moves: list[list[Piece]]) -> list[Piece]:
    """Moves in a line: each of them, or the first :data:`LISTED` and how many more."""
    out: list[Piece] = []
    for k, move in enumerate(moves[:LISTED]):
        out += [", ", *move] if k else move
    if len(moves) > LISTED:
        out.append(f" and {len(moves) - LISTED:,} more")
    return out


def started_text(started: Started) -> str:
    origin = started.origin
    text = f"deal {origin.name}, {origin.suits} suit{'s' if origin.suits != 1 else ''}"
    chosen = started.chosen
    if chosen is None:
        return text
    text += (
        f": winnable with every card known, {chosen.rank}: a search that sees the face-down "
        f"cards and the hand wins it in {chosen.positions:,} positions"
    )
    if started.skipped == 1:
        text += f"\n(the deal before it was not {started.wanted})"
    elif started.skipped:
        text += f"\n(the {started.skipped} deals before it were not {started.wanted})"
    return text


def loaded_text(loaded: Loaded) -> str:
    if loaded.kind is LoadKind.POSITION_CODE:
        return "position loaded from its code"
    if loaded.game_file:
        moves = f"{loaded.moves} move{'s' if loaded.moves != 1 else ''}"
        return f"resumed {files.shown(loaded.name)}: {moves} replayed"
    return f"loaded {files.shown(loaded.name)}"


def ran_text(ran: Ran) -> str:
    """The replies of a script's lines, then how it ended."""
    said = [reply for reply in ran.replies if reply]
    end = ran.stopped or f"ran {files.shown(ran.name)}: {len(ran.replies)} lines"
    return "\n".join([*said, end])


def opened_text(opened: Opened) -> str:
    moves = f"{opened.moves} move{'s' if opened.moves != 1 else ''}"
    deal = files.shown(opened.deal)
    said = f"game {opened.number} ({deal}, {opened.result.value}): {moves} replayed"
    if opened.finished:
        return said + "; 'replay' steps through it (playing on is not recorded again)"
    return said + "; play on, or 'replay' to step through it"


GAMES_HEADER = "game  began             deal          suits  moves  score     time  result"


def games_text(entries: list[Entry], reviews: dict[int, Stored] | None = None) -> str:
    """The games of the history, one a line: number, date, deal, suits, moves, score, time
    played, result (``open N`` brings game N back); under a game reviewed, the review's
    summary."""
    reviews = reviews or {}
    if not entries:
        return "no games in the history yet: a game is recorded once it has a move"
    lines = [GAMES_HEADER]
    for e in entries:
        began = time.strftime("%Y-%m-%d %H:%M", time.localtime(e.started))
        deal = files.shown(e.deal)
        deal = deal if len(deal) <= 13 else deal[:10] + "..."
        lines.append(
            f"{e.number:>4}  {began}  {deal:<13} {e.suits:>5}  {e.moves:>5}  {e.score:>5}"
            f"  {clock_text(e.seconds):>7}  {e.result.value}"
        )
        kept = reviews.get(e.number)
        if kept is not None:
            when = "" if kept.moves == e.moves else f" (at move {kept.moves})"
            lines.append(f"      reviewed{when}: {files.shown(kept.summary)}")  # (from outside)
    return "\n".join([*lines, "('open N' brings game N back)"])


def solve_text(report: Report) -> str:
    from spider_cli.app.words.findings import report_text

    text = report_text(report)
    if report.actions:
        return text + "\n('apply' plays the line, 'apply 1' its next move)"
    return text


def chance_text(chance: Chance) -> str:
    """What ``odds`` says: the share won with its interval, and what it is the chance of."""
    if not chance.unseen:
        verdict = "wins" if chance.won else "does not win"
        return (
            f"every card is in sight: full-information play {verdict} from here "
            "(within its limit of positions)"
        )
    low, high = chance.interval
    known = (
        f"the chance of a win with every card known: {100 * chance.won / chance.samples:.0f}% "
        f"(95% interval {100 * low:.0f}-{100 * high:.0f}%), from {chance.samples} samples: "
        f"the {chance.unseen} cards out of sight dealt at random, each deal played "
        "by a search that sees them all (a player who cannot see them wins less often)"
    )
    player = chance.player
    if player is None:
        return known
    low, high = player.interval
    return (  # two paragraphs, each broken at the screen's width by the front end
        f"the chance that this program's blind player wins from here: "
        f"{100 * player.won / player.games:.0f}% (95% interval {100 * low:.0f}-{100 * high:.0f}%)"
        f", from {player.games} deals dealt at random from the cards out of sight, each played "
        "to the end by its quick policy, which sees only what you see (with its look-ahead, "
        f"as 'hint' plays, it wins more often)\n{known}"
    )


def history_text(history: list[Recorded]) -> str:
    """The game's moves from the start, numbered (the REPL steps through them instead)."""
    if not history:
        return "no moves yet: this is the start of the game"
    return "\n".join(f"{n}. {entry.text}" for n, entry in enumerate(history, 1))


def choices_text(choices: list[Choice]) -> str:
    if not choices:
        return "no legal moves"
    lines = [("* " if c.natural else "  ") + c.text for c in choices]
    return "\n".join(lines) + "\n(* a natural move: onto the same suit)"


def complete_text(game: Game) -> str:
    sets = complete_suits(game)
    if not sets:
        return "no suit has all thirteen cards face up"
    parts = [
        f"{SUIT_NAMES[suit]}{f' (x{count})' if count > 1 else ''}" for suit, count in sets.items()
    ]
    return "face up in full: " + ", ".join(parts)


def locate_text(game: Game, rank: int, suit: int | None) -> str:
    """Where the copies of a card are, as far as a player can see: face-down cards and
    the hand are not given away, even when the deal knows them."""
    suits = [suit] if suit is not None else SUITS_IN_VARIANT[game.suits]
    lines = []
    for each in suits:
        card = Card.of(rank, each)
        places = []
        hidden = 0
        for where in locate(game, card):
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
        return f"no {RANK_WORDS[rank]} in a {game.suits}-suit game"
    return "\n".join(lines)


def show_text(game: Game, status: Status, pile: int | None) -> str:
    """The tableau and the status line, or one pile (numbered 1..10) in full."""
    if pile is None:
        return positions.grid(game, hide=True) + "\n" + status_text(status)
    if not 1 <= pile <= 10:
        raise SpiderError(f"there is no pile {pile}")
    cards = game.piles[pile - 1]
    if not cards:
        return f"pile {pile} is a space"
    up = game.face_up(pile - 1)
    return f"pile {pile}: {game.down[pile - 1]} face down, then " + " ".join(map(card_text, up))


# ---------------------------------------------------------------------------------------------
# review

BLOCKS = " ▁▂▃▄▅▆▇█"
ASCII_BLOCKS = " .:-=+*#@"
CURVE_WIDTH = 50
"""Moves a row of the chance curve shows."""
LINE_SHOWN = 12
"""Moves of the winning line a review's text shows (the JSON has them all)."""


def review_step(step: Step) -> str:
    """How far a review is, as its progress line says it."""
    from spider_cli.analysis.review import Stage  # (the review is running: no cost at start)

    if step.move is not None:
        return f"with every card known: search {step.count} (after move {step.move})"
    if step.stage is Stage.CHOICES:
        return f"the blind player's own move at each: move {step.count} of {step.of}"
    return (
        "weighing the moves that differ from the blind player's on sampled deals: "
        f"{step.count} of {step.of}"
    )


def review_text(review: Review, game: Game, ascii: bool = False, width: int = 80) -> str:
    """What ``review`` says of ``game`` (the game reviewed, whose positions its moves are
    written from): where the deal was lost, the chance curve (its rows within ``width``
    columns), the marked moves."""
    parts = [_lost_text(review.lost, game)]
    parts.append(curve_text(review.curve, review.deals, ascii, width))
    parts.append(_marks_text(review, game))
    if review.stopped:
        parts.append("(stopped by Ctrl-C: the review holds what it had found by then)")
    return "\n".join(p for p in parts if p)


def _before(game: Game, moves: list[int]) -> dict[int, Game]:
    """The position before each of ``moves`` (1 is the first) of ``game``, each a copy of its
    own (one copy walked back: a long game is not copied for every move)."""
    work = game.copy()
    found: dict[int, Game] = {}
    for move in sorted(set(moves), reverse=True):
        while work.moves_made >= move:
            work.pop()
        found[move] = work.copy()
    return found


def _written(position: Game, action: Action | None) -> str:
    """``action`` in the manual's notation from ``position`` (where the review wrote it)."""
    if action is None:
        return ""
    try:
        return move_text(position, action)
    except SpiderError:  # (not a move of this position: the review is of another game)
        return "a move of another game"


def _line_written(position: Game, line: tuple[Action, ...]) -> list[str]:
    """A line of actions from ``position`` in the manual's notation, each written from the
    position it is played in."""
    work = position.copy()
    texts = []
    for action in line:
        texts.append(_written(work, action))
        if work.why_illegal(action) is not None:
            break
        work.push(action)
    return texts


def _lost_text(lost: Lost, game: Game) -> str:
    from spider_cli.analysis.review import Outlook  # (the review has run: no cost at start)

    verdict = lost.verdict
    if verdict is Outlook.WON:
        return "The game was won."
    if verdict is Outlook.UNKNOWN:
        return (
            "With every card known: cannot be said, since some cards out of sight are not "
            "known\n(a position of the manual's, or a position file); the curve below still "
            "holds."
        )
    if verdict is Outlook.STOPPED:
        return "With every card known: stopped by Ctrl-C before the search ended."
    limit = f"{lost.limit:,} positions"
    if verdict is Outlook.NEVER:
        if lost.proved:
            return "With every card known this deal was proved lost from the start."
        return (
            f"With every card known no search found a win from the start (within {limit}; "
            "this is not a proof)."
        )
    if verdict is Outlook.THROUGHOUT:
        return (
            "With every card known this deal was won from the start, and is still won: a win "
            f"is found from here ({lost.searches} searches)."
        )
    after = (
        "it was proved lost" if lost.proved else f"no win was found within {limit} (not a proof)"
    )
    before = _before(game, [lost.move])[lost.move]
    shown = ", ".join(_line_written(before, lost.line[:LINE_SHOWN]))
    more = f", ... ({len(lost.line)} moves)" if len(lost.line) > LINE_SHOWN else ""
    return (
        "With every card known this deal was won from the start. It stayed won until move "
        f"{lost.move} ({_written(before, lost.move_text)}).\nAfter it, {after}. A win from the "
        f"position before it: {shown}{more}"
    )


def curve_per_row(width: int) -> int:
    """Moves a row of the curve shows within ``width`` columns: a multiple of ten after the
    row's number, at most :data:`CURVE_WIDTH`, at least ten (a row is never cut)."""
    return max(10, min(CURVE_WIDTH, (width - 5) // 10 * 10))


def curve_cells(curve: tuple[float, ...], ascii: bool = False) -> str:
    """The chance after every move as one block a move, scaled to the curve's highest
    point (what a row of :func:`curve_text` shows, and the board's analysis view)."""
    blocks = ASCII_BLOCKS if ascii else BLOCKS
    top = max(max(curve, default=0.0), 0.01)
    steps = len(blocks) - 1
    return "".join(blocks[max(1, round(c / top * steps)) if c > 0 else 0] for c in curve)


def curve_text(
    curve: tuple[float, ...], deals: tuple[int, ...], ascii: bool = False, width: int = 80
) -> str:
    """The chance after every move as rows of blocks, scaled to the curve's highest point,
    with '|' under each deal; each row within ``width`` columns (from 15 on)."""
    per_row = curve_per_row(width)
    top = max(max(curve, default=0.0), 0.01)
    cells = curve_cells(curve, ascii)
    dealt = set(deals)
    rows = [
        f"The blind player's chance of a win from what you saw, after each move "
        f"(full height {100 * top:.0f}%; from {100 * curve[0]:.0f}% to {100 * curve[-1]:.0f}%):"
    ]
    for first in range(0, len(curve), per_row):
        chunk = curve[first : first + per_row]
        line = cells[first : first + per_row]
        rows.append(f"{first:>4} {line}")
        marks = "".join("|" if first + k in dealt else " " for k in range(len(chunk)))
        if marks.strip():
            rows.append(f"{'deal':>4} {marks.rstrip()}")
    return "\n".join(rows)


def _marks_text(review: Review, game: Game) -> str:
    weighed = len(review.marks) + review.unconfirmed
    reached = (
        f" ({review.unweighed} more were not weighed within the review's budget)"
        if review.unweighed
        else ""
    )
    if not review.marks:
        if not weighed and not review.unweighed:
            return "No move marked: the blind player would have played every move as you did."
        return (
            f"No move marked: of your moves that differ from the blind player's, {weighed} "
            "were played on from both on the same sampled deals, and none gave up enough of "
            f"the chance of a win, surely{reached}."
        )
    lines = [
        "Marked moves, by what each gave up against the blind player's move on the same "
        "sampled deals ('review N' shows the position before move N):"
    ]
    before = _before(game, [m.move for m in review.marks])
    for m in review.marks:
        position = before[m.move]
        lines.append(f"  {m.move}. {_written(position, m.played)}: {mark_text(m, position)}")
    if review.unconfirmed or review.unweighed:
        lines.append(
            f"  ({review.unconfirmed} other moves that differ gave up too little, or not "
            f"surely: unmarked{';' if reached else ''}{reached})"
        )
    return "\n".join(lines)


def mark_text(mark: Mark, position: Game) -> str:
    """A marked move's mark, what it gave up, and the chance the blind player's move kept
    against this move's (``position``: the one before the move)."""
    return (
        f"{mark.severity.value}, {_gap_text(mark.gap)}; {_written(position, mark.better)} kept "
        f"{_percent(mark.before)}, this move {_percent(mark.after)}"
    )


def _gap_text(gap: Gap) -> str:
    """What a move gave up: its points of the chance, and their 95% interval."""
    return (
        f"gave up {100 * gap.mean:.1f} points ({100 * gap.low:.1f} to {100 * gap.high:.1f}, "
        f"{gap.pairs} deals)"
    )


def reviewed_text(reviewed: Reviewed, game: Game, position: bool = True) -> str:
    """What ``review N`` says of move N of ``game``: the position before the move (one line
    a pile; not with ``position``: the board draws it), the move played and the blind
    player's own, the chance after each, the mark, and whether the deal was lost there. It
    agrees with the review: the same curve, the same marks, the same move where the deal
    was lost."""
    head = f"Before move {reviewed.move} (chance {_percent(reviewed.chance)}):"
    lines = [head]
    if position:
        lines.append(positions.lines(reviewed.before, hide=True).rstrip("\n"))
    lines.append(f"played: {reviewed.played}, the chance after it {_percent(reviewed.after)}")
    if reviewed.better and reviewed.better_chance is not None:
        lines.append(
            f"the blind player's move: {reviewed.better}, the chance after it "
            f"{_percent(reviewed.better_chance)}"
        )
    else:
        lines.append("the blind player's move: the same")
    mark = reviewed.mark
    if mark is None:
        lines.append("the review did not mark this move")
    else:
        lines.append(
            f"marked: {mark.severity.value}, {_gap_text(mark.gap)}: on the same sampled deals "
            f"the blind player's move kept {_percent(mark.before)}, this move "
            f"{_percent(mark.after)}"
        )
    lost = reviewed.lost
    if lost is not None:
        after = "it was proved lost" if lost.proved else "no win was found (not a proof)"
        before = _before(game, [reviewed.move])[reviewed.move]
        shown = ", ".join(_line_written(before, lost.line[:LINE_SHOWN]))
        more = f", ... ({len(lost.line)} moves)" if len(lost.line) > LINE_SHOWN else ""
        lines.append(
            "Here the deal was lost with every card known: a win was found before this move; "
            f"after it, {after}.\nA win from here: {shown}{more}"
        )
    return "\n".join(lines)


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def review_summary(review: Review) -> str:
    """The review in a few words, as ``games`` lists it beside the game."""
    from spider_cli.analysis.review import Outlook  # (the review has run: no cost at start)

    lost = review.lost
    return {
        Outlook.WON: "won",
        Outlook.THROUGHOUT: "won with every card known throughout",
        Outlook.LOST_AT: f"won with every card known until move {lost.move}",
        Outlook.NEVER: "lost with every card known from the start"
        if lost.proved
        else "no win found with every card known",
        Outlook.UNKNOWN: "some cards out of sight not known",
        Outlook.STOPPED: "stopped",
    }[lost.verdict] + (f"; {len(review.marks)} marked" if review.marks else "")
