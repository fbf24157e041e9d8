"""The analysis view's cursor (spider_cli.app.views.stepping): stepping a game's positions,
jumping between marks, stepping the winning line where the deal was lost, a line found, and
playing on from a position; the game stepped is never changed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.analysis import Lost, Mark, Outlook, Review
from spider_cli.analysis.review import Gap, Severity, chance
from spider_cli.app.views.stepping import Cursor, Study, lost_line, play_on
from spider_cli.app.words.stepping import curve_rows, moment_lines
from spider_cli.rules.engine import Game, Move
from tests.helpers import play_randomly


def _game(moves: int = 12, seed: int = 3) -> Game:
    return play_randomly(Game.new(5, 4), moves, seed)


def _replayed(game: Game, k: int) -> Game:
    """The game's position after move ``k``, by taking moves back on a copy."""
    work = game.copy()
    while work.moves_made > k:
        work.pop()
    return work


def _facts(game: Game) -> tuple[object, ...]:
    return (game.key(), tuple(game.move_stack), game.moves_made, len(game._redo))


def _review(game: Game, marked: dict[int, Severity], lost: int | None) -> Review:
    """A review of ``game`` with marks on the moves ``marked`` names (the blind player's
    move beside each: the move played two moves later, where it is legal then), and the
    deal lost at move ``lost``, the line from before it the game's own moves from there."""
    actions = list(game.move_stack)
    curve = tuple(chance(_replayed(game, k)) for k in range(game.moves_made + 1))
    marks = []
    for move, severity in sorted(marked.items()):
        before = _replayed(game, move - 1)
        better = next(
            (a for a in before.legal_moves() if a != actions[move - 1]), actions[move - 1]
        )
        marks.append(
            Mark(
                move,
                actions[move - 1],
                severity,
                curve[move - 1],
                curve[move],
                better,
                Gap(0.2, 0.1, 0.3, 16),
            )
        )
    verdict = Lost(Outlook.THROUGHOUT)
    if lost is not None:
        before = _replayed(game, lost - 1)
        line = tuple(actions[lost - 1 :])
        verdict = Lost(Outlook.LOST_AT, lost, actions[lost - 1], line)
    deals = tuple(k for k, a in enumerate(actions, 1) if not isinstance(a, Move))
    return Review(game.suits, game.moves_made, verdict, curve, deals, tuple(marks))


def test_the_cursor_steps_the_games_positions_and_leaves_the_game_as_it_was() -> None:
    game = _game()
    facts = _facts(game)
    cursor = Cursor(game)
    assert (cursor.first, cursor.at, cursor.last) == (0, 0, game.moves_made)
    assert not cursor.step(-1) and cursor.at == 0  # kept within the positions
    for k in range(game.moves_made + 1):
        cursor.go(k)
        assert cursor.position().key() == _replayed(game, k).key()
        assert cursor.move() == (game.move_stack[k] if k < game.moves_made else None)
    assert not cursor.step(1) and cursor.at == game.moves_made
    assert cursor.go(3) and cursor.at == 3
    assert _facts(game) == facts  # stepped on a game of its own


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from("lrhen"), max_size=30))
def test_any_keys_keep_the_cursor_within_the_game_and_the_position_its_own(
    seed: int, keys: list[str]
) -> None:
    game = _game(10, seed)
    facts = _facts(game)
    rng = random.Random(seed)
    marked = {k: Severity.MISTAKE for k in rng.sample(range(1, 11), 3) if k <= game.moves_made}
    study = Study.of_review(game, _review(game, marked, None))
    act = {"l": lambda: study.step(-1), "r": lambda: study.step(1), "h": study.home}
    act |= {"e": study.end, "n": study.next_mark}
    for key in keys:
        act[key]()
        moment = study.moment()
        assert 0 <= moment.at <= game.moves_made
        assert moment.position.key() == _replayed(game, moment.at).key()
        assert (moment.mark is not None) == (moment.at + 1 in marked)
    assert _facts(game) == facts


def test_n_and_p_jump_to_the_positions_the_marked_moves_are_played_from() -> None:
    game = _game()
    study = Study.of_review(game, _review(game, {4: Severity.MISTAKE, 9: Severity.BLUNDER}, None))
    assert study.marks() == [3, 8]
    assert study.next_mark() and study.game.at == 3
    moment = study.moment()
    assert moment.mark is not None and moment.mark.move == 4
    before = _replayed(game, 3)
    assert moment.better is not None and moment.better != game.move_stack[3]
    assert before.why_illegal(moment.better) is None  # the blind player's move, read back
    assert "mistake, gave up 20.0 points" in "\n".join(moment_lines(moment))
    assert study.next_mark() and study.game.at == 8
    assert not study.next_mark() and study.game.at == 8  # no mark after the last
    assert study.next_mark(forward=False) and study.game.at == 3
    assert not study.next_mark(forward=False)
    study.end()
    assert study.moment().move is None and study.moment().mark is None


def test_the_winning_line_is_stepped_from_the_position_before_the_lost_move() -> None:
    game = _game(14, 7)
    lost = 6
    study = Study.of_review(game, _review(game, {}, lost))
    assert not study.moment().lost
    study.game.go(lost - 1)
    assert study.lost_here() and study.moment().lost
    assert "the deal was lost" in "\n".join(moment_lines(study.moment()))
    study.home()
    assert study.toggle_line()  # from anywhere: the cursor goes to the lost move first
    line = study.line
    assert line is not None and study.game.at == lost - 1
    assert (line.first, line.at, line.last) == (lost - 1, lost - 1, game.moves_made)
    study.end()
    moment = study.moment()
    assert moment.in_line and moment.position.key() == game.key()
    assert moment.mark is None and moment.chance is None
    study.home()
    assert study.moment().position.key() == _replayed(game, lost - 1).key()
    assert study.toggle_line() and study.line is None and study.game.at == lost - 1
    study.enter_line()
    assert not study.next_mark()  # no marks: the line is still stepped
    assert study.line is not None


def test_the_winning_line_is_the_reviews_own_from_the_position_before_the_lost_move() -> None:
    game = _game(14, 7)
    review = _review(game, {5: Severity.INACCURACY}, 6)
    assert lost_line(review, _replayed(game, 5)) == game.move_stack[5:]
    # from elsewhere, it stops where its next move is not legal
    assert len(lost_line(review, _replayed(game, 0))) < len(game.move_stack[5:])


def test_a_line_found_is_stepped_from_the_position_in_play_and_stops_at_an_illegal_move() -> None:
    game = _game(8, 2)
    facts = _facts(game)
    work = game.copy()
    line = []
    for action in play_randomly(work.copy(), 5, 11).move_stack[game.moves_made :]:
        line.append(action)
    study = Study.of_line(game, [*line, Move(0, 0, 99)])
    assert study.found and study.review is None
    assert (study.cursor.first, study.cursor.last) == (8, 8 + len(line))
    study.end()
    assert study.moment().move is None
    assert not study.toggle_line() and not study.next_mark()
    assert _facts(game) == facts


def test_playing_on_begins_a_game_at_the_position_with_no_moves_behind_it() -> None:
    game = _game()
    facts = _facts(game)
    study = Study.of_review(game, _review(game, {}, None))
    study.game.go(5)
    new, origin = play_on(study.moment().position)
    assert new.key() == _replayed(game, 5).key() and new.moves_made == 0
    assert origin.code.startswith("spider:")
    assert _facts(game) == facts


def test_the_curve_rows_keep_within_the_width_and_sign_the_moves() -> None:
    game = _game(60, 1)
    review = _review(game, {4: Severity.BLUNDER}, 10)
    for width in (30, 40, 80):
        rows = curve_rows(review, width)
        assert all(len(row.text) <= width for row in rows)
        cells = "".join(row.text[5:] for row in rows if row.first is not None)
        assert len(cells) == len(review.curve)
        signs = [row.text for row in rows if row.first is None]
        assert "b" in signs[0] and "x" in "".join(signs)


def test_playing_on_says_where_the_position_was() -> None:
    from spider_cli.app.words.stepping import played_on_text

    game = _game(14, 7)
    study = Study.of_review(game, _review(game, {}, 6))
    study.game.go(2)
    assert played_on_text(study.moment(), 4) == (
        "A new game from the position after move 2 of game 4; 'open 4' brings game 4 back "
        "as it was."
    )
    study.enter_line()
    study.step(3)
    assert played_on_text(study.moment(), None) == (
        "A new game from position 3 of the winning line in the game."
    )
