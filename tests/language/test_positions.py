"""Position files: every layout, the manual's own tables, header inference, each error,
the writers (golden files and round trips), the position code, comparison, atomic writes."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from spider_cli.app.files.atomic import write_atomically
from spider_cli.cli.main import main
from spider_cli.language import grammar
from spider_cli.language.files.positions import (
    differences,
    grid,
    is_position_code,
    lines,
    load_position,
    markdown,
    parse_position_code,
    position_code,
    read_game,
    read_position,
)
from spider_cli.rules.cards import SUITS_IN_VARIANT, UNKNOWN, Card
from spider_cli.rules.deals import DealSource, Source
from spider_cli.rules.engine import Game, Move
from spider_cli.rules.errors import NotationError, PositionError, SpiderError
from spider_cli.rules.shuffle import shuffled_deck

GOLDEN = Path(__file__).parents[1] / "golden"


def C(text: str) -> int:
    return Card.parse(text)


def cards(text: str) -> list[int]:
    return [UNKNOWN if t == "--" else C(t) for t in text.split()]


def error(text: str) -> NotationError:
    """The NotationError that reading ``text`` raises."""
    with pytest.raises(NotationError) as caught:
        read_position(text)
    return caught.value


BOTTOMS = "Kh Ks Kd Kc Qh Qs Qd Qc Jh Js".split()


def tableau(sizes: list[int], bottoms: list[str] = BOTTOMS) -> str:
    """A tableau, one line per pile: ``n - 1`` unknown face-down cards, then the bottom card."""
    return (
        "\n".join(
            f"{i + 1}: " + ("-- " * (n - 1) + bottoms[i] if n else "(sp)")
            for i, n in enumerate(sizes)
        )
        + "\n"
    )


DEAL = [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
"""The pile sizes of a new deal: 54 cards, so 50 in the hand and nothing removed."""


# ---------------------------------------------------------------------------------------------
# The manual's tables, pasted verbatim


CLUBS_AND_HEARTS = """\
| | | | | | | | | | |
|-----|----|----|-----|-----|----|----|-----|------|----|
| -- | -- | 8c | Ks | Kh | 5c | Kc | -- | (sp) | -- |
| -- | -- | | Qh | Qh | | | -- | | -- |
| -- | -- | | Jc | Jh | | | -- | | Kh |
| -- | -- | | 10c | 10c | | | Kc | | Qc |
| Jc | Kd | | 9c | 9h | | | Qc | | Jh |
| 10h | 9d | | 8c | 8d | | | Jd | | Js |
| 9s | 8d | | 7c | 7d | | | 10h | | 3d |
| 8s | 7d | | 6c | 6d | | | 9h | | 2c |
| 7s | 3h | | 5c | 5d | | | 8h | | Ad |
| 6s | 2h | | 4c | 4h | | | 7h | | 8h |
| 5s | Ah | | 3c | 3d | | | 6h | | 7h |
| 4s | 2d | | 2c | 2d | | | 5h | | |
| 3c | Ah | | Ac | | | | 4h | | |
| 2s | | | | | | | 3h | | |
| As | | | | | | | | | |
"""

TWO_DEALS_LEFT = """\
| | | | | | | | | | |
|-----|-----|----|----|-----|-----|-----|----|-----|----|
| Kh | Ks | Kh | Qh | Jc | Qd | Js | 9s | 10s | 6d |
| Qh | 10h | Qs | Ac | 10c | Jh | Kc | 9c | Kd | Qs |
| Jd | 9d | 8s | Ac | 9h | 10h | Qc | Kc | Qd | Js |
| 10s | 8d | 7h | 4s | 8h | 6s | Jc | 9h | Jd | |
| 9s | | 6h | 3h | | 5s | 10c | 8h | 10d | |
| 8s | | 5h | | | 4h | 9c | 7h | 9d | |
| 7s | | 4h | | | 3h | 8c | 6h | 8c | |
| 6c | | 8d | | | 2h | 7c | 5d | 7s | |
| 5c | | 7d | | | As | 6c | 4s | 6s | |
| 4c | | 6d | | | | 5c | | 5s | |
| | | 5d | | | | 4c | | | |
| | | 4d | | | | 3c | | | |
| | | 3d | | | | 2c | | | |
| | | 2d | | | | 3s | | | |
| | | Ad | | | | | | | |
| | | 7d | | | | | | | |
"""

THREE_SPACES = """\
| | | | | | | | | | |
|------|------|----|----|----|-----|----|------|----|-----|
| (sp) | (sp) | 9h | 9c | Kd | 9d | As | (sp) | -- | Qs |
| | | 8h | 8c | Qd | Qh | | | -- | Kc |
| | | 7h | 7c | Js | Jh | | | Jd | Qh |
| | | | 6s | | 10h | | | 7d | Jc |
| | | | 5s | | 9h | | | 6h | 10d |
| | | | 4s | | 8h | | | 5c | 9s |
| | | | 3s | | 7h | | | 4h | |
| | | | 2d | | 6h | | | 3h | |
| | | | Ah | | 5d | | | 2h | |
| | | | | | 4d | | | Ah | |
| | | | | | 3c | | | | |
| | | | | | 2c | | | | |
| | | | | | Ac | | | | |
"""


def test_manual_clubs_and_hearts_table() -> None:
    position = read_position(CLUBS_AND_HEARTS)
    assert position.piles[0] == cards("-- -- -- -- Jc 10h 9s 8s 7s 6s 5s 4s 3c 2s As")
    assert position.down[:3] == [4, 4, 0]
    assert position.piles[2] == cards("8c")
    assert position.piles[8] == []
    assert position.piles[7][:4] == [UNKNOWN] * 3 + [C("Kc")]
    assert position.down[7] == 3 and position.piles[7][-1] == C("3h")
    # 81 cards on the table: 10 in the hand and one removed suit, which can only be spades
    # (both Kh, both Kc, both 8d and both 2c are in play).
    assert (position.stock_count, position.removed_count) == (10, 1)
    assert position.removed is None and position.removed_suits() == [0]
    assert not (position.stock_stated or position.removed_stated or position.suits_stated)
    game = position.to_game()
    assert game.removed == [0] and len(game.hand) == 10


def test_manual_tables_with_deals_and_removed_suits() -> None:
    two_deals = read_position(TWO_DEALS_LEFT)
    assert two_deals.stock_count == 20 and two_deals.removed_suits() == []
    assert two_deals.piles[2][-1] == C("7d") and len(two_deals.piles[2]) == 16
    assert two_deals.down == [0] * 10
    three_spaces = read_position(THREE_SPACES)
    assert [i for i, p in enumerate(three_spaces.piles) if not p] == [0, 1, 7]
    assert three_spaces.stock_count == 20
    assert sorted(three_spaces.removed_suits()) == [0, 2, 3]


def test_example_file_in_the_manuals_grid() -> None:
    path = Path(__file__).parents[2] / "examples" / "problem-3.txt"
    position = load_position(path)
    assert position.to_game().key() == read_position(CLUBS_AND_HEARTS).to_game().key()
    assert position.stock_stated and position.removed == [0]


# ---------------------------------------------------------------------------------------------
# Each layout


GRID = """\
# tabs, a number row, known face-down cards, letters in either case, suit symbols
stock: 50
removed: none
 1      2      3      4      5      6      7      8      9      10
--\t--    [Jh]   --     --     --     --     --     --     --
--     --     --     --     --     --     --     --     --     --
--     --     --     --     --     --     --     --     --     --
--     --     --     --     --     --     --     --     --     --
--      --     --    [5D]     3h     9s    3c     Jh    QH     7c
6d     10d    As     4S
"""


def test_grid_layout() -> None:
    position = read_position(GRID)
    assert position.piles[0] == cards("-- -- -- -- -- 6d")
    assert position.piles[2] == [C("Jh"), UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, C("As")]
    assert position.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert position.piles[3][-2:] == cards("5d 4s") and position.down[3] == 5
    assert position.piles[4][-1] == C("3h") and position.piles[8][-1] == C("Qh")
    assert position.stock_count == 50 and position.stock is None
    assert position.removed == [] and position.removed_stated
    assert read_position("\ufeff" + GRID.replace("\n", "\r\n")) == position


def test_grid_cells_go_to_the_nearest_first_row_column() -> None:
    text = (
        "removed: s d c\n"
        "Kh  Ks  Kd  Kc  Qh  Qs  Qd  Qc  Jh  Js\n"
        "     Qh          Jc              10s\n"
        "    Jd          10h\n"
    )
    position = read_position(text)
    assert position.piles[1] == cards("Ks Qh Jd") and position.piles[4] == cards("Qh Jc 10h")
    assert position.piles[8] == cards("Jh 10s") and position.stock_count == 50


def test_markdown_layout_with_numbers_and_no_trailing_pipes() -> None:
    text = (
        "stock: 50\n\n"
        "| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |\n"
        "|:--|---|---|---|---|---|---|---|---|--:|\n"
        + "| -- " * 10
        + "|\n"
        + "| -- " * 10
        + "|\n"
        + "| -- " * 10
        + "|\n"
        + "| -- " * 10
        + "\n"
        "| -- | [10h] | -- | -- | 3h | 9s | 3c | Jh | Qh | 7c\n"
        "| 6d | 10d | As | 4s |" + "  |" * 6 + "\n"
    )
    position = read_position(text)
    assert position.piles[1] == [UNKNOWN] * 4 + [C("10h"), C("10d")]
    assert position.down[:5] == [5, 5, 5, 5, 4] and position.piles[0][-1] == C("6d")
    assert position.stock_count == 50 and position.removed_suits() == []


def test_markdown_without_header_or_separator() -> None:
    rows = ["| " + " | ".join(["--"] * 10) + " |"] * 4
    rows.append("| " + " | ".join(BOTTOMS))
    rows.append("| " + " | ".join(["Qh", "Qs", "Qd", "Qc"] + [" "] * 6) + " |")
    position = read_position("\n".join(rows))
    assert position.down == [4] * 10 and position.stock_count == 50
    assert position.piles[0] == cards("-- -- -- -- Kh Qh")


LINES = f"""\
suits: 2
stock: Jh 10s -- -- -- -- -- -- -- --
removed: h, s
 1: -- -- -- -- Jh 10h 9s
 2: --  [Qs] --  Kh
 3: (sp)
 4:
 5: Ks Qh
 6: {"-- " * 50}As
 7: 2h
 8: 3s
 9: 4h
10: 5s  # comment
"""


def test_lines_layout() -> None:
    position = read_position(LINES)
    assert position.suits == 2 and position.suits_stated
    assert position.stock == [C("Jh"), C("10s")] + [UNKNOWN] * 8
    assert position.removed == [1, 0]
    assert position.piles[1] == [UNKNOWN, C("Qs"), UNKNOWN, C("Kh")] and position.down[1] == 3
    assert position.piles[2] == position.piles[3] == []
    assert position.piles[9] == cards("5s")
    game = position.to_game()
    assert game.hand[:2] == [C("Jh"), C("10s")]


def test_pile_lines_in_any_order() -> None:
    text = "\n".join(reversed(tableau(DEAL).splitlines()))
    assert read_position(text) == read_position(tableau(DEAL))


def test_code_layout() -> None:
    code = "spider:4/50/-/5:6d/5:Td/5:As/5:4s/4:3h/4:9s/4:3c/4:Jh/4:Qh/4:7c"
    position = read_position(code)
    assert position.down == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert position.piles[1][-1] == C("10d")
    assert position.stock_count == 50 and position.removed == []
    assert position.stock_stated and position.removed_stated and position.suits_stated
    assert parse_position_code(f"  {code}\n# pasted from a chat\n") == position
    assert is_position_code(" Spider : 4/50") and not is_position_code("spider.txt")


def test_code_with_known_cards_and_empty_piles() -> None:
    code = "spider:1/[AsKs]8/ss/60[QsJs]1:9s8s/-/KsQs/-/-/-/-/-/-/As"
    position = parse_position_code(code)
    assert position.suits == 1 and position.removed == [0, 0]
    assert position.stock == [C("As"), C("Ks")] + [UNKNOWN] * 8
    assert position.piles[0] == [UNKNOWN] * 60 + cards("Qs Js") + [UNKNOWN] + cards("9s 8s")
    assert position.down[0] == 63
    assert position.piles[1] == [] and position.piles[2] == cards("Ks Qs")


# ---------------------------------------------------------------------------------------------
# What the header leaves out


def test_counts_worked_out_from_the_tableau() -> None:
    position = read_position(tableau(DEAL))
    assert (position.stock_count, position.removed_count) == (50, 0)
    assert position.removed_suits() == [] and not position.stock_stated
    # 71 cards: 20 in the hand and one removed suit.
    position = read_position(tableau([7] * 9 + [8]))
    assert (position.stock_count, position.removed_count) == (20, 1)
    position = read_position("stock: 0\n" + tableau([8] * 9 + [6]))
    assert position.removed_count == 2 and position.stock_stated
    position = read_position("removed: 2\n" + tableau([8] * 9 + [6]))
    assert position.stock_count == 0 and position.removed_stated


def test_several_possible_removed_suits_must_be_named() -> None:
    position = read_position(tableau([7] * 9 + [8]))
    assert position.removed is None and position.removed_count == 1
    with pytest.raises(
        NotationError,
        match=r"name the removed suits, e\.g\. 'removed: s': the "
        "cards in play leave more than one choice",
    ):
        position.to_game()
    position = read_position("removed: 2\nstock: 10\n" + tableau([7] * 9 + [5]))
    with pytest.raises(NotationError, match=r"e\.g\. 'removed: s h'"):
        position.removed_suits()
    named = read_position("removed: d s\nstock: 10\n" + tableau([7] * 9 + [5]))
    assert named.to_game().removed == [2, 0]


def test_removed_suits_to_be_named_are_asked_for_at_the_removed_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file to play must name its removed suits when several fit: loading it says so at
    its 'removed:' line (after blanks, in either case); without one, nowhere."""
    text = "# two suits gone\nstock: 10\n\tRemoved :  2\n" + tableau([7] * 9 + [5])
    caught = error_of_game(text)
    assert caught.message.startswith("name the removed suits, e.g. 'removed: s h'")
    assert (caught.line, caught.column) == (3, 13)  # the 2 (a tab is one character)
    assert caught.context == "        Removed :  2\n" + " " * 19 + "^"
    (tmp_path / "two-gone.txt").write_text(text)
    assert main(["show", str(tmp_path / "two-gone.txt")]) == 1
    assert capsys.readouterr().err.startswith(
        f"{tmp_path / 'two-gone.txt'}:3: error: character 13: name the removed suits"
    )
    assert error_of_game(tableau([7] * 9 + [8])).line == 0


def error_of_game(text: str) -> NotationError:
    """The NotationError of making a game of the position ``text``."""
    with pytest.raises(NotationError) as caught:
        read_game(text)
    return caught.value


def test_removed_count_with_one_possible_choice() -> None:
    # Both Kh, both Ks and both Kd are in play: only clubs can be the removed suit.
    bottoms = ["Kh", "Kh", "Ks", "Ks", "Kd", "Kd", "Qh", "Qs", "Qd", "Qc"]
    position = read_position("removed: 1\n" + tableau([7] * 9 + [8], bottoms))
    assert position.removed is None and position.removed_suits() == [3]
    assert position.to_game().removed == [3]


def test_no_removed_suit_fits() -> None:
    text = CLUBS_AND_HEARTS.replace("| As |", "| Ks |")  # now both Ks are in play too
    with pytest.raises(
        PositionError,
        match="leaves 10 for the hand and 1 removed suit, but the cards in play leave room for 0",
    ):
        read_position(text)
    with pytest.raises(PositionError) as caught:
        read_position("removed: 1\n" + text)
    assert str(caught.value.args[0]).startswith("1 removed suit, but the cards in play leave")
    with pytest.raises(PositionError) as caught:
        read_position("stock: 10\n" + text)
    assert str(caught.value.args[0]).startswith(
        "the tableau (81 cards) and the hand (10) leave 1 removed suit, but"
    )


def test_counts_that_cannot_add_up() -> None:
    message = str(error(tableau([6] * 10)))
    assert "the tableau has 60 cards, which no whole number of deals" in message
    assert "add 'stock:' and 'removed:' lines" in message
    assert "not a number of whole suits" in str(error("stock: 40\n" + tableau([6] * 10)))
    assert "not a number of whole deals" in str(error("removed: 1\n" + tableau([6] * 10)))


def test_suits_worked_out_when_only_a_smaller_deck_fits() -> None:
    assert read_position(tableau(DEAL, ["Ks"] * 5 + ["Qs"] * 5)).suits == 1
    assert read_position(tableau(DEAL, ["Ks"] * 3 + ["Qh"] * 3 + ["Qs"] * 4)).suits == 2
    assert read_position(tableau(DEAL, ["Ks"] * 2 + ["Qs"] * 8)).suits == 1
    assert "add 'suits: 2' or 'suits: 1'" in str(
        error(tableau(DEAL, ["Ks"] * 3 + ["Qs"] * 3 + ["Js"] * 4))
    )
    assert read_position("suits: 2\n" + tableau(DEAL, ["Ks"] * 3 + ["Qs"] * 3 + ["Js"] * 4))


def test_errors_about_the_whole_tableau_point_at_a_card() -> None:
    # Three Ks: too many for 4 suits. The third, in pile 3's line, is where it shows.
    caught = error("# spades\n" + tableau(DEAL, ["Ks"] * 3 + ["Qs"] * 3 + ["Js"] * 4))
    assert (caught.line, caught.column) == (4, 19)  # "3: " and five "-- "
    assert caught.context.splitlines()[-1] == " " * 18 + "^"
    # 60 cards and no header: said at the tableau's first card, where the header would go.
    caught = error("\n" + tableau([6] * 10))
    assert "which no whole number of deals" in caught.message
    assert (caught.line, caught.column) == (2, 4)
    # No removed suit fits the cards in play (both Ks in view): also at the first card.
    text = CLUBS_AND_HEARTS.replace("| As |", "| Ks |")
    with pytest.raises(PositionError) as impossible:
        read_position(text)
    assert isinstance(impossible.value, NotationError) and impossible.value.line >= 1


# ---------------------------------------------------------------------------------------------
# Errors, each with its place


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("stock: 50\n--  11h", 2, 5, "'11h' is not a card"),
        ("Problem 3\n", 1, 1, "cannot read 'Problem'"),
        ("-- -- --\n", 1, 1, "the first row of the tableau has 3 cells"),
        (" -- " * 11, 1, 42, "the first row of the tableau has 11 cells"),
        ("--  " * 9 + "Kh\n  Qh\n", 2, 3, "as near to pile 1 as to pile 2"),
        ("--     " * 9 + "Kh\n-- --\n", 2, 4, "two cards on this line are under pile 1"),
        ("-- " * 9 + "Kh\n--\n   Qh\n   Jh\n", 3, 4, "pile 2 has a gap above this card"),
        ("Kh " * 9 + "Kh\nQh --\n", 2, 4, "pile 2: this face-down card lies below a face-up"),
        ("(sp) " + "Kh " * 9 + "\nQh\n", 2, 1, "pile 1 is marked empty with (sp) but has cards"),
        (
            tableau([0, *DEAL[1:]]).replace("(sp)", "(sp) (sp)"),
            1,
            9,
            "pile 1 is marked empty with (sp) twice",
        ),
        ("(sp) " + "Kh " * 9 + "\n(sp)\n", 2, 1, "pile 1 is marked empty with (sp) twice"),
        ("-- " * 10, 1, 1, "pile 1 ends with a face-down card"),
        ("---- " * 10, 1, 1, "'----' is not a card"),
        ("[JhQs] " + "-- " * 9, 1, 1, "write one card in each cell"),
        ("stock:\n", 1, 7, "the line ends too soon: expected"),
        ("stock: 10 20\n", 1, 11, "cannot read '20' here: expected the end of the line"),
        ("suits: 3\n", 1, 8, "a game has 1, 2 or 4 suits, not 3"),
        ("removed: 9\n", 1, 10, "at most eight suits can be removed"),
        ("stock: 105\n", 1, 8, "the hand cannot hold 105 cards"),
        ("stock: 10\nstock: 20\n", 2, 1, "a second 'stock:' line"),
        ("Kh " * 10 + "\nstock: 10\n", 2, 1, "put the 'stock:' line before the tableau"),
        ("stock: (sp)\n", 1, 8, "(sp) marks an empty pile; it cannot be in the hand"),
        (
            "Kh " * 10 + "\n| Qh |\n",
            2,
            1,
            "this line is written as a Markdown table, but the "
            "tableau above is written as a grid of columns",
        ),
        ("1 2 3 4 5 6 7 8 9 11\n", 1, 19, "the row of pile numbers should read 1 2 3 ... 10"),
        ("1 2 3 4 5 6 7 8 9 10\n1: Kh\n", 1, 1, "belongs above a grid"),
        ("| | |\n| Kh | Qh |\n", 2, 1, "header row is followed by a separator row"),
        ("| | |\n|---|---|\n", 2, 1, "the table has no rows of cards"),
        ("| Kh | Kh |\n", 1, 1, "this row of the table has 2 columns; a tableau has ten"),
        ("|" + " Kh Qh |" * 10, 1, 6, "write one card in each cell of the table"),
        (
            "| Kh " * 10 + "|\n| | Qh" + " |" * 9 + "\n| Qh" + " |" * 10,
            3,
            3,
            "pile 1 has an empty cell above this card",
        ),
        ("1: Kh\n1: Qh\n", 2, 1, "pile 1 is given twice"),
        ("11: Kh\n", 1, 1, "there is no pile 11: piles are numbered 1 to 10"),
        ("stock: 10\nspider:4/0/-/" + "Kh/" * 9 + "Kh", 2, 1, "leave out the header lines"),
        ("spider:3/0/-/" + "Kh/" * 9 + "Kh", 1, 8, "a game has 1, 2 or 4 suits, not 3"),
        ("spider:4/0/-/" + "Kh/" * 10 + "Kh", 1, 44, "ten piles, this one 11"),
        ("spider:4/0/-/Kh/Kh", 1, 19, "ten piles, this one 2"),
        ("spider:4/0/--/" + "Kh/" * 9 + "Kh", 1, 12, "write - for no removed suits"),
        ("spider:4/500/-/" + "Kh/" * 9 + "Kh", 1, 10, "500 cards: a game has only 104"),
        ("spider:4/0/-/5:6x/", 1, 16, "'6x' is not a card"),
        ("spider:4/0/-/Kh\nKh", 2, 1, "this line is written as a grid of columns"),
        ("\x00\x1b[2J", 1, 1, "cannot read '\\x00\\x1b"),
    ],
)
def test_errors_say_what_and_where(text: str, line: int, column: int, words: str) -> None:
    caught = error(text)
    assert words in caught.message
    assert (caught.line, caught.column) == (line, column), caught
    shown, caret = caught.context.split("\n")
    assert caret == " " * (column - 1) + "^"
    assert "\x1b" not in shown


def test_errors_without_a_place() -> None:
    assert "no tableau found" in str(error("# nothing but a comment\n\n"))
    assert "no tableau found" in str(error(""))
    missing = error("\n".join(f"{i}: Kh" for i in range(1, 10)))
    assert "pile 10 is missing: write '10: (sp)'" in missing.message and missing.line == 0
    assert "too long" in str(error("-- " * 400_000))


def test_impossible_positions() -> None:
    with pytest.raises(PositionError, match="Kh is one copy too many: the deck has 2"):
        read_position(tableau(DEAL, ["Kh"] * 10))
    with pytest.raises(PositionError, match="2d is in play, but a 2-suit game has no diamonds"):
        read_position("suits: 2\n" + tableau(DEAL, "Ks 2d Qs Qs Js Js 10s 10s 9s 9s".split()))
    with pytest.raises(PositionError, match="the tableau has 110 cards; a game has 104"):
        read_position(tableau([11] * 10))
    with pytest.raises(PositionError, match="make 105 cards"):
        read_position("stock: 51\nremoved: none\n" + tableau(DEAL))
    with pytest.raises(PositionError, match="a 1-suit game has no diamonds to remove"):
        read_position(
            "suits: 1\nremoved: d\nstock: 37\n"
            + tableau(DEAL, "Ks Ks Qs Qs Js Js 10s 10s 9s 9s".split())
        )


def test_load_position_errors(tmp_path: Path) -> None:
    with pytest.raises(SpiderError, match=r"cannot read .*nowhere\.txt: no such file"):
        load_position(tmp_path / "nowhere.txt")
    with pytest.raises(SpiderError, match=r"cannot read .*: it is not a regular file"):
        load_position(tmp_path)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(SpiderError, match="not UTF-8 text"):
        load_position(junk)


def test_parse_position_code_wants_the_prefix() -> None:
    with pytest.raises(NotationError, match="a position code starts with 'spider:'") as caught:
        parse_position_code("Kh " * 10)
    assert (caught.value.line, caught.value.column) == (1, 1)


# ---------------------------------------------------------------------------------------------
# Writing: golden files and round trips


def golden_game() -> Game:
    """Deal 7 after four moves, as a player sees it: face-down cards and the hand unknown,
    except the top card of pile 1 and the fifth card of pile 4, which the player knows."""
    game = Game.new(7)
    for move in (Move(9, 7, 1), Move(0, 7, 1), Move(4, 2, 1), Move(0, 8, 1)):
        assert game.is_legal(move)
        game.push(move)
    piles = [
        [c if j >= game.down[i] or (i, j) in ((0, 0), (3, 4)) else UNKNOWN for j, c in enumerate(p)]
        for i, p in enumerate(game.piles)
    ]
    return Game(piles, game.down, [UNKNOWN] * len(game.hand))


@pytest.mark.parametrize(
    ("name", "write"),
    [
        ("grid.txt", grid),
        ("markdown.md", markdown),
        ("lines.txt", lines),
        ("code.txt", lambda g: position_code(g) + "\n"),
    ],
)
def test_golden(name: str, write: Callable[[Game], str]) -> None:
    """Each layout of one position, byte for byte (SPIDER_UPDATE_GOLDEN=1 rewrites the files
    after a deliberate change of format)."""
    game = golden_game()
    text = write(game)
    path = GOLDEN / name
    if os.environ.get("SPIDER_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    assert read_position(text).to_game().key() == game.key()


def test_writers_keep_the_manual_style_options() -> None:
    game = golden_game()
    assert grid(game, numbers=False) == "".join(
        line for line in grid(game).splitlines(keepends=True) if not line.startswith("1 ")
    )
    header = markdown(game, numbers=False).split("\n\n")[1].split("\n")[0]
    assert set(header) == {"|", " "} and header.count("|") == 11
    assert read_position(markdown(game, numbers=False)).to_game().key() == game.key()


def test_writers_can_hide_what_a_player_cannot_see() -> None:
    game = Game.new(7)
    assert "[" not in grid(game, hide=True) and "[" in grid(game)
    for write in (grid, markdown, lines, position_code):
        position = read_position(write(game, hide=True))
        assert position.stock is None and position.stock_count == 50
        assert [p[d:] for p, d in zip(position.piles, position.down, strict=True)] == [
            game.face_up(i) for i in range(10)
        ]
        assert all(
            c == UNKNOWN for p, d in zip(position.piles, position.down, strict=True) for c in p[:d]
        )
    assert position_code(game, hide=True) == (
        "spider:4/50/-/5:Ac/5:9s/5:2s/5:5d/4:Ad/4:5s/4:9d/4:3s/4:Qc/4:2h"
    )


def test_writers_accept_a_position_file() -> None:
    position = read_position(CLUBS_AND_HEARTS)
    assert "removed: s\n" in grid(position)
    ambiguous = read_position(tableau([7] * 9 + [8]))
    assert "removed: 1\n" in lines(ambiguous)
    assert position_code(ambiguous).startswith("spider:4/20/1/")
    assert read_position(lines(ambiguous)) == read_position(
        "stock: 20\nremoved: 1\n" + tableau([7] * 9 + [8])
    )


@st.composite
def played_games(draw: st.DrawFn) -> Game:
    """Deal ``seed`` after random legal play, with some cards then hidden as unknown."""
    suits = draw(st.sampled_from([1, 2, 4]))
    game = Game.new(draw(st.integers(0, 2**32)), suits)
    game.autoremove = draw(st.booleans())
    for _ in range(draw(st.integers(0, 40))):
        actions = game.legal_moves()
        if not actions:
            break
        game.push(draw(st.sampled_from(actions)))
    return hide_some(game, draw(st.randoms(use_true_random=False)))


@st.composite
def made_up_positions(draw: st.DrawFn) -> Game:
    """Any possible position: removed suits, empty piles, odd face-down counts."""
    suits = draw(st.sampled_from([1, 2, 4]))
    rng = draw(st.randoms(use_true_random=False))
    deck = shuffled_deck(draw(st.integers(0, 2**32)), suits)
    used = SUITS_IN_VARIANT[suits]
    removed = [rng.choice(used) for _ in range(draw(st.integers(0, 8)))]
    removed = [s for s in set(removed) for _ in range(min(removed.count(s), 8 // len(used)))]
    for suit in removed:
        for rank in range(1, 14):
            deck.remove(Card.of(rank, suit))
    hand_size = draw(st.sampled_from([n for n in range(0, 51, 10) if n <= len(deck)]))
    hand, rest = deck[:hand_size], deck[hand_size:]
    cuts = sorted(rng.randint(0, len(rest)) for _ in range(9))
    piles = [rest[a:b] for a, b in zip([0, *cuts], [*cuts, len(rest)], strict=True)]
    down = [rng.randint(0, len(p) - 1) if p else 0 for p in piles]
    return hide_some(Game(piles, down, hand[::-1], removed, suits), rng)


def hide_some(game: Game, rng: random.Random) -> Game:
    """The same position with some face-down and hand cards turned into unknown ones."""
    p = rng.choice([0.0, 0.5, 1.0])
    piles = [
        [UNKNOWN if j < game.down[i] and rng.random() < p else c for j, c in enumerate(pile)]
        for i, pile in enumerate(game.piles)
    ]
    hand = [UNKNOWN if rng.random() < p else c for c in game.hand]
    return Game(piles, game.down, hand[::-1], game.removed, game.suits)


@settings(max_examples=100, deadline=None)
@given(st.one_of(played_games(), made_up_positions()))
def test_every_writer_reads_back(game: Game) -> None:
    for write in (grid, markdown, lines, position_code):
        text = write(game)
        assert read_position(text).to_game().key() == game.key(), text
    code = position_code(game)
    assert " " not in code and "\n" not in code
    assert parse_position_code(code).to_game().key() == game.key()
    assert differences(game, read_position(grid(game))) == []


@st.composite
def other_programs_deals(draw: st.DrawFn) -> Game:
    """A PySolFC or KPatience deal (every card known) after some random legal play."""
    source = draw(st.sampled_from([Source.PYSOL, Source.KPAT]))
    suits = draw(st.sampled_from([1, 2, 4]))
    game = DealSource(source, draw(st.integers(1, 2**31 - 1)), suits).game()
    game.autoremove = draw(st.booleans())
    for _ in range(draw(st.integers(0, 60))):
        actions = game.legal_moves()
        if not actions:
            break
        game.push(draw(st.sampled_from(actions)))
    return game


@settings(max_examples=60, deadline=None)
@given(other_programs_deals())
def test_full_information_round_trip(game: Game) -> None:
    """Every card known: brackets for the face-down cards, the hand on its own line."""
    for write in (grid, markdown, lines, position_code):
        text = write(game)
        position = read_position(text)
        assert UNKNOWN not in [c for pile in position.piles for c in pile] + position.hand
        assert position.to_game().key() == game.key(), text
    if game.hand:
        hand_line = "hand: " + " ".join(Card(c).text() for c in game.hand)
        assert hand_line in lines(game).splitlines()


def test_show_a_deal_with_every_card() -> None:
    game = DealSource.parse("pysol:14934").game()
    text = lines(game)
    assert text.splitlines()[0].startswith("hand: 6d Ah 10h 9s 9c")
    assert " 1: [10s] [3c] [Ks] [4c] [Jh] 5s" in text.splitlines()
    assert read_position(text).to_game().key() == game.key()


def test_spider_show_prints_a_deal_with_every_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", "pysol:14934", "--lines"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("hand: 6d Ah 10h") and "\n 9: [Js] [8h] [6c] [Qc] Kd\n" in text
    assert read_position(text).to_game().key() == DealSource.parse("pysol:14934").game().key()
    assert main(["show", "kpat:12", "--suits", "2"]) == 0
    grid_text = capsys.readouterr().out
    assert read_position(grid_text).to_game().key() == DealSource.parse("kpat:12", 2).game().key()
    (tmp_path / "full.txt").write_text(grid_text)
    assert main(["show", str(tmp_path / "full.txt"), "--markdown"]) == 0
    assert "[" not in capsys.readouterr().out
    assert main(["show", str(tmp_path / "full.txt"), "--markdown", "--full"]) == 0
    assert read_position(capsys.readouterr().out) == read_position(grid_text)
    assert main(["show", "kpat:0"]) == 1
    assert "KPatience deal numbers run from 1" in capsys.readouterr().err


def test_spider_show_names_the_line_of_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "twice.txt"
    path.write_text("stock: 50\n" + tableau([0, *DEAL[1:]]).replace("(sp)", "(sp) (sp)"))
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:2: error: character 9: ")
    assert "pile 1 is marked empty with (sp) twice" in err and "\n1: (sp) (sp)\n" in err
    assert err.count("twice.txt") == 1  # named once, before its line


def test_an_error_after_tabs_gives_the_character_as_written_and_the_caret_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tab is one character, as the message counts them (an editor's column of
    characters); the line shows as a terminal shows it, its tabs to every eighth column,
    with the caret under the cell."""
    text = GRID.replace("[Jh]", "[Jx]")  # line 5 is "--\t--    [Jx]   --  ..."
    caught = error(text)
    assert (caught.line, caught.column) == (5, 10)
    assert text.splitlines()[4][caught.column - 1 :].startswith("[Jx]")
    shown, caret = caught.context.split("\n")
    assert shown.startswith("--      --    [Jx]") and caret.index("^") == shown.index("[Jx]")
    (tmp_path / "tabs.txt").write_text(text)
    assert main(["show", str(tmp_path / "tabs.txt")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'tabs.txt'}:5: error: character 10: ")
    assert "\n--      --    [Jx]   --" in err and "\n              ^\n" in err
    # the same in a line of the layout of one line per pile, a tab before the pile's cards
    caught = error("stock:\t50\n" + tableau(DEAL).replace("3: ", "3:\t-- Qx "))
    assert (caught.line, caught.column) == (4, 7)  # '3:', a tab, '--', a space, 'Qx'


FULL = lines(DealSource.parse("kpat:3").game())
HEARTS_AND_SPADES = "Kh Ks Qh Qs Jh Js 10h 10s 9h 9s".split()
FULL_HAND = FULL.splitlines()[0]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (
            FULL_HAND + " Ks\n" + FULL.split("\n", 1)[1],
            1,
            len(FULL_HAND) + 2,
            "the hand holds at most 50 cards (five deals of ten); this one lists 51",
        ),
        (
            "suits: 2\nhand: 5d\n" + tableau([5] * 4 + [4] * 6, HEARTS_AND_SPADES),
            2,
            7,
            "5d is in the hand, but a 2-suit game has no diamonds",
        ),
        (
            "removed: h\nhand: Ah Ah\n" + tableau([5] * 4 + [4] * 6),
            2,
            10,
            "Ah is one copy too many: the tableau and the hand hold it 2 times, and 1 more in "
            "the removed suits; the deck has 2",
        ),
        (
            "hand: Ks -- --\n" + tableau([5] * 4 + [4] * 6),
            1,
            1,
            "the tableau (44 cards) and the hand (3) leave 57 cards",
        ),
        ("hand: 10\nhand: 20\n", 2, 1, "a second 'hand:' line: give it once"),
        (
            "spider:4/[KhKhKh]47/-/5:As/5:2s/5:3s/5:4s/4:5s/4:6s/4:7s/4:8s/4:9s/4:Ts",
            1,
            15,  # the third Kh of the brackets
            "Kh is one copy too many",
        ),
    ],
)
def test_hand_errors(text: str, line: int, column: int, message: str) -> None:
    found = error(text)
    assert (found.line, found.column) == (line, column), str(found)
    assert message in found.message
    assert found.context.endswith("^")


def test_a_third_copy_in_a_full_hand() -> None:
    """Every card of a full deal is there twice: a third in the hand is pointed at."""
    game = DealSource.parse("kpat:3").game()
    tableau_cards = [c for pile in game.piles for c in pile]
    twice = next(c for c in tableau_cards if tableau_cards.count(c) == 2)
    hand = [Card(twice).text()] + [Card(c).text() for c in game.hand[1:]]
    text = "hand: " + " ".join(hand) + "\n" + FULL.split("\n", 1)[1]
    found = error(text)
    assert (found.line, found.column) == (1, 7)
    assert found.message.startswith(f"{Card(twice)} is one copy too many")


# ---------------------------------------------------------------------------------------------
# Errors about the whole position, each at the line (and the card) that makes it impossible

THREE_6D = "5:6d/5:6d/5:6d/5:Kh/4:As/4:2s/4:3s/4:4s/4:5s/4:7s"
"""A code's ten piles of a new deal's sizes (54 cards), with a third 6d on pile 3."""


def nth(text: str, word: str, n: int) -> tuple[int, int]:
    """The line and column (1-based) of the ``n``th ``word`` in ``text``."""
    at = -1
    for _ in range(n):
        at = text.index(word, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


@pytest.mark.parametrize(
    ("text", "word", "n", "words"),
    [
        # a card one copy too many: the first copy past the deck's count
        (
            tableau(DEAL, ["8c"] * 3 + BOTTOMS[3:]),
            "8c",
            3,
            "8c is one copy too many: the deck has 2 and 8c is already in piles 1 and 2: correct "
            "one of them",
        ),
        (
            tableau(DEAL, ["Kh"] * 10),
            "Kh",
            3,
            "Kh is one copy too many: the deck has 2 and Kh is already in piles 1 and 2 (10 in "
            "the tableau)",
        ),
        (
            "suits: 2\n" + tableau(DEAL, "Ks 2d Qs Qs Js Js 10s 10s 9s 9s".split()),
            "2d",
            1,
            "2d is in play, but a 2-suit game has no diamonds: correct the card, or the "
            "'suits:' line",
        ),
        (
            "removed: h\n" + tableau([5] * 4 + [4] * 6, ["Ah", "Ah", *BOTTOMS[2:]]),
            "Ah",
            2,
            "Ah is one copy too many: the deck has 2, the removed hearts hold 1 and Ah is "
            "already in pile 1: correct one of these cards, or the 'removed:' line",
        ),
        (
            f"spider:4/50/-/{THREE_6D}",
            "6d",
            3,
            "6d is one copy too many: the deck has 2 and 6d is already in piles 1 and 2",
        ),
        # the removed suits: the suit past what the game has
        (
            "stock: 30\nremoved: s s s s s s s s s\n" + tableau(DEAL),
            "s\n",
            1,
            "at most eight suits can be removed; this line names 9",
        ),
        (
            "removed: s s s s s s s s s\n" + tableau(DEAL),
            "s\n",
            1,
            "at most eight suits can be removed; this line names 9",
        ),
        (f"spider:4/0/sssssssss/{THREE_6D}", "s/", 1, "at most eight suits can be removed"),
        (
            "suits: 1\nremoved: d\nstock: 37\n"
            + tableau(DEAL, "Ks Ks Qs Qs Js Js 10s 10s 9s 9s".split()),
            "d\n",
            1,
            "a 1-suit game has no diamonds to remove: correct the 'removed:' line",
        ),
        (
            "removed: h h h\n" + tableau(DEAL),
            "h\n",
            1,
            "the hearts are removed 3 times, but a 4-suit game has only 2 suits of hearts",
        ),
        # the number of removed suits the cards in play leave no room for
        (
            "removed: 1\n" + CLUBS_AND_HEARTS.replace("| As |", "| Ks |"),
            "1",
            1,
            "1 removed suit, but the cards in play leave room for 0",
        ),
        (
            "removed: 1\n" + tableau([6] * 10),
            "1",
            1,
            "the tableau (60 cards) and 1 removed suit leave 31 cards for the hand",
        ),
        # the count: the hand's line, or the card past 104
        (
            "stock: 51\nremoved: none\n" + tableau(DEAL),
            "stock",
            1,
            "the tableau (54 cards), the hand (51) and 0 removed suits make 105 cards; a game "
            "has 104",
        ),
        (
            "stock: 10\n" + CLUBS_AND_HEARTS.replace("| As |", "| Ks |"),
            "stock",
            1,
            "the tableau (81 cards) and the hand (10) leave 1 removed suit, but",
        ),
        (f"spider:4/40/-/{THREE_6D.replace('5:6d/5:Kh', '5:Qd/5:Kh')}", "40", 1, "make 94 cards"),
        (
            tableau([11] * 10),
            "10: " + "-- " * 5,  # nine lines of eleven cards: the 105th is pile 10's sixth
            1,
            "the tableau has 110 cards; a game has 104: this card is the 105th",
        ),
    ],
)
def test_an_impossible_position_is_said_at_its_line(
    text: str, word: str, n: int, words: str
) -> None:
    caught = error(text)
    assert words in caught.message, caught.message
    line, column = nth(text, word, n)
    if word.endswith(" "):  # the card after ``word``
        column += len(word)
    assert (caught.line, caught.column) == (line, column), caught
    assert caught.context.split("\n")[1] == " " * (column - 1) + "^"


def test_an_impossible_position_is_still_a_position_error() -> None:
    """The place comes with the error; it is still the PositionError the API says."""
    with pytest.raises(PositionError, match="Kh is one copy too many"):
        read_position(tableau(DEAL, ["Kh"] * 10))
    with pytest.raises(PositionError, match="make 105 cards"):
        read_position("stock: 51\nremoved: none\n" + tableau(DEAL))


def test_spider_show_points_at_the_copy_one_too_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GRID.replace("3h", "As").replace("9s", "As")  # the third As: the last line's
    assert text.count("As") == 3
    path = tmp_path / "three-aces.txt"
    path.write_text(text)
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    line, column = nth(text, "As", 3)
    assert err.startswith(f"{path}:{line}: error: character {column}: As is one copy too many")
    assert err.splitlines()[-2:] == [text.splitlines()[line - 1], " " * (column - 1) + "^"]


# ---------------------------------------------------------------------------------------------
# Hostile text


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet="-|[]()sphdcSAKQJT10123456789:#\n\t "),
        st.binary().map(lambda b: b.decode("utf-8", "replace")),
        st.binary().map(lambda b: b.decode("latin-1")),
    )
)
def test_any_text_gives_a_position_or_a_players_error(text: str) -> None:
    try:
        read_position(text)
    except (NotationError, PositionError) as exc:
        assert str(exc)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(from_lark(grammar.build("position.lark")))
def test_any_sentence_of_the_grammar_gives_a_position_or_a_players_error(text: str) -> None:
    try:
        read_position(text)
    except (NotationError, PositionError) as exc:
        assert str(exc)


# ---------------------------------------------------------------------------------------------
# Comparing


def test_differences_after_a_move_from_the_manual() -> None:
    expected = read_position(CLUBS_AND_HEARTS)
    game = expected.to_game()
    assert differences(game, expected) == []
    game.push(Move(4, 8, 2))  # 3-2d from 5 to 9
    assert differences(game, expected) == [
        "pile 5: expected K-Jh 10c 9h 8-5d 4h 3-2d, found K-Jh 10c 9h 8-5d 4h",
        "pile 9: expected a space, found 3-2d",
    ]


def test_differences_describe_each_pile() -> None:
    expected = read_position(
        "stock: 50\nremoved: none\n"
        + tableau([5] * 9, BOTTOMS)
        + "10: -- -- [Qs] -- -- 9s 8s 7s 6s\n"
    )
    piles = [cards("-- -- -- -- " + bottom) for bottom in BOTTOMS[:9]]
    found = [*piles, [UNKNOWN, UNKNOWN, C("Qs"), UNKNOWN, *cards("9s 8s 7s 6s 5h")]]
    game = Game(found, [4] * 10, [UNKNOWN] * 50)
    assert differences(game, expected) == [
        "pile 10: expected 5 face-down (-- -- [Qs] -- --) then 9-6s, found 4 face-down "
        "(-- -- [Qs] --) then 9-6s 5h",
    ]
    found[9] = cards("-- -- -- -- -- 9s 8s 7s 6s")
    game = Game(found, [4] * 9 + [5], [UNKNOWN] * 50)
    assert differences(game, expected) == [
        "pile 10: expected 5 face-down (-- -- [Qs] -- --) then 9-6s, found 5 face-down "
        "(-- -- -- -- --) then 9-6s",
    ]
    found[9] = cards("-- -- Qs -- -- 9s 8s 7s 6s")
    assert differences(Game(found, [4] * 9 + [5], [UNKNOWN] * 50), expected) == []


def test_differences_look_at_the_header_only_where_stated() -> None:
    text = tableau([5] * 10)
    game = Game([cards("-- -- -- -- " + b) for b in BOTTOMS], [4] * 10, [UNKNOWN] * 28, [1, 2])
    assert differences(game, read_position("stock: 28\nremoved: d h\n" + text)) == []
    assert differences(game, read_position("stock: 15\nremoved: s h d\n" + text)) == [
        "hand: expected 15 cards, found 28",
        "removed suits: expected s h d, found h d",
    ]
    assert differences(game, read_position("stock: 41\nremoved: 1\n" + text)) == [
        "hand: expected 41 cards, found 28",
        "removed suits: expected 1, found 2",
    ]
    hand = "stock: Ks" + " --" * 27 + "\nremoved: 2\n"
    assert differences(game, read_position(hand + text)) == [
        "hand: expected Ks as card 1 to be dealt, found an unknown card"
    ]
    two_suits = "suits: 2\nstock: 28\nremoved: 2\n"
    two_suits += tableau([5] * 10, "Kh Ks Qh Qs Jh Js 10h 10s 9h 9s".split())
    assert differences(game, read_position(two_suits))[0] == (
        "suits: expected a 2-suit game, found 4 suits"
    )


# ---------------------------------------------------------------------------------------------
# Atomic writes


def test_write_atomically_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    write_atomically(path, "first\n")
    path.chmod(0o640)
    write_atomically(path, "second ♠\n")
    assert path.read_text(encoding="utf-8") == "second ♠\n"
    assert path.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["game.txt"]


def test_write_atomically_keeps_the_old_file_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.txt"
    path.write_text("old\n", encoding="utf-8")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert os.listdir(tmp_path) == ["game.txt"]
    with pytest.raises(OSError):
        write_atomically(tmp_path / "missing-dir" / "x.txt", "new\n")
