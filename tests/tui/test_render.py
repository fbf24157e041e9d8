"""The pictures of the game: tableau, pile detail, changes and status line."""

from __future__ import annotations

import io
import random

import pytest
from prompt_toolkit import print_formatted_text
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from spider_cli.app.session import Session
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import DEAL, Game, Move
from spider_cli.tui import render, wrapping
from spider_cli.tui.render import ASCII, STYLE, SUIT_CLASSES, UNICODE, Snapshot


def long_game(seed: int = 3) -> Game:
    """A game after every deal and a few hundred moves: long piles, runs, maybe spaces."""
    game = Game.new(seed)
    rng = random.Random(seed)
    for _ in range(300):
        moves = [m for m in game.legal_moves() if isinstance(m, Move)]
        natural = [m for m in moves if game.is_natural(m)]
        if game.stock and (not moves or rng.random() < 0.08) and not game.spaces():
            game.push(DEAL)
        elif natural or moves:
            game.push(rng.choice(natural or moves))
    return game


def lines_of(text: object) -> list[str]:
    return wrapping.plain(text).splitlines()  # type: ignore[arg-type]


def test_the_tableau_is_the_manuals_layout() -> None:
    game = Game.new(17)
    lines = lines_of(render.tableau(game))
    assert lines[0].startswith("hand ▒▒ ▒▒ ▒▒ ▒▒ ▒▒ (5 deals)")
    assert lines[1].split() == [str(n) for n in range(1, 11)]
    assert lines[2].split() == ["▒▒"] * 10  # pile tops at the top, face down as backs
    assert lines[6].split()[4:] == ["A♥", "6♠", "J♣", "A♣", "3♣", "5♦"]
    assert lines[7].split() == ["7♦", "J♦", "9♦", "4♦"]
    assert lines[1].index("2") == 8 and lines[6].index("6♠") == 40  # columns 8 wide


def test_a_space_is_marked() -> None:
    piles = [[Card.of(r, s) for r in range(13, 0, -1)] for s in (0, 1, 2, 3, 0, 1, 2, 3)]
    game = Game([*piles, [], []], [0] * 10, [], suits=4)
    assert lines_of(render.tableau(game))[2].split()[-2:] == ["(sp)", "(sp)"]


def _height(game: Game) -> int:
    """Rows of cards in the full layout (the longest pile): the tableau drawn with no
    limit, under its two lines of heading."""
    return len(lines_of(render.tableau(game))[2:])


@pytest.mark.parametrize("width", [80, 72, 60])
def test_a_long_game_fits_the_width(width: int) -> None:
    game = long_game()
    assert _height(game) > 15
    for glyphs in (UNICODE, ASCII):
        for line in lines_of(render.tableau(game, glyphs, width=width)):
            assert len(line) <= width


def test_a_tall_tableau_shrinks_backs_then_runs_to_fit() -> None:
    game = long_game()
    full = _height(game)
    rows = lines_of(render.tableau(game, max_rows=full - 1))[2:]
    assert len(rows) < full and any("▒▒×" in row for row in rows)
    tight = lines_of(render.tableau(game, max_rows=6))[2:]
    assert any("-" in cell for row in tight for cell in row.split())  # a run as "Q-9♥"
    assert len(tight) <= len(rows)
    assert _height(game) == full  # the game itself is untouched


def test_the_four_suits_have_four_colours_and_backs_a_fifth() -> None:
    attrs = [STYLE.get_attrs_for_style_str(c) for c in (*SUIT_CLASSES, "class:back")]
    assert len({(a.color, a.bold) for a in attrs}) == 5
    assert {a.color for a in attrs[1:4]} == {"ansired", "ansiyellow", "ansigreen"}


def test_ascii_glyphs_are_the_manuals_own() -> None:
    game = long_game()
    text = wrapping.plain(render.tableau(game, ASCII)) + wrapping.plain(
        render.pile_detail(game, 0, ASCII)
    )
    assert text.isascii() and "--" in text
    assert render.choose_glyphs(False, "ascii") is ASCII
    assert render.choose_glyphs(False, "latin-1") is ASCII
    assert render.choose_glyphs(True, "utf-8") is ASCII
    assert render.choose_glyphs(False, "utf-8") is UNICODE


def test_no_color_prints_no_colour_but_keeps_the_symbols(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    depth = ColorDepth.from_env()
    assert depth is ColorDepth.DEPTH_1_BIT
    out = io.StringIO()
    output = Vt100_Output(out, lambda: (24, 80), term="xterm")  # type: ignore[arg-type]
    print_formatted_text(
        render.tableau(Game.new(17)), style=STYLE, output=output, color_depth=depth
    )
    printed = out.getvalue()
    assert "♠" in printed and "▒▒" in printed
    assert "[31" not in printed and "38;5" not in printed and "[33" not in printed


def test_changes_underline_the_cards_that_arrived_and_say_what_turned_up() -> None:
    session = Session.new_game(seed=5)
    before = Snapshot.of(session.game)
    session.execute("4h from 1 to 8")
    fresh = render.fresh_cards(before, session.game)
    assert fresh == {(0, 4), (7, 5)}  # the Kd turned up, the 4h arrived
    assert render.describe_changes(before, session.game) == ["pile 1 turns up Kd"]
    picture = render.tableau(session.game, fresh=fresh)
    underlined = [text for style, text in picture if "class:fresh" in style]
    assert underlined == ["K♦", "4♥"]
    before = Snapshot.of(session.game)
    session.execute("deal")
    assert render.describe_changes(before, session.game) == ["4 deals left"]


def test_pile_detail_expands_a_pile_into_its_runs_and_moves() -> None:
    session = Session.new_game(seed=5)
    for line in ("4h from 1 to 8", "7 3"):
        session.execute(line)
    lines = lines_of(render.pile_detail(session.game, 2))
    assert lines == [
        "pile 3: 5 face down, 2 face up",
        "  ▒▒ ▒▒ ▒▒ ▒▒ ▒▒ | 9♦ 8♦",
        "  can move: 9-8d",
        "  moves from here: 9-8d from 3 to 4",
    ]
    piles = [[Card.of(r, s) for r in range(13, 0, -1)] for s in (0, 1, 2, 3, 0, 1, 2, 3)]
    spaced = Game([*piles, [], []], [0] * 10, [], suits=4)
    assert lines_of(render.pile_detail(spaced, 9)) == ["pile 10: a space"]


def test_messages_colour_cards_by_suit() -> None:
    fragments = render.color_cards("8-6s from 3 to 10, pile 8 turns up Qh; As and 10c")
    coloured = {text: style for style, text in fragments if style}
    assert coloured == {
        "8-6s": SUIT_CLASSES[0],
        "Qh": SUIT_CLASSES[1],
        "As": SUIT_CLASSES[0],
        "10c": SUIT_CLASSES[3],
    }
    first = render.change("Jh from 8 to 9", ["pile 8 turns up 6s"])
    assert wrapping.plain(first) == "Jh from 8 to 9\n  pile 8 turns up 6s\n"
    assert all("class:move" in style for style, text in first[:2])


def test_the_status_line_marks_a_suit_to_remove_and_a_win() -> None:
    session = Session.new_game(seed=5)
    status = wrapping.plain(render.toolbar(session.status()))
    assert "deals left 5" in status and "removed 0/8" in status and "moves 0" in status
    assert "score 0" in status and "★" not in status
    piles = [[Card.of(r, s) for r in range(13, 0, -1)] for s in (0, 1, 2, 3, 0, 1, 2, 3)]
    piles += [[], []]
    piles[8].append(piles[7].pop())  # the Ace of clubs off its suit
    session.game = Game(piles, [0] * 10, [], suits=4)
    status = wrapping.plain(render.toolbar(session.status(), ASCII))
    assert "* remove: pile 1" in status and status.isascii()
    session.game.push(Move(8, 7, 1))
    status = wrapping.plain(render.toolbar(session.status()))
    assert "score 1000" in status and "★ you have won!" in status and len(status) <= 80


def test_a_move_is_drawn_from_its_typed_result_its_cards_in_their_colours() -> None:
    from spider_cli.app.words.replies import played_text
    from spider_cli.rules.cards import Card

    session = Session.new_game(seed=5)
    played = session.execute("1 8").result  # 4h from 1 to 8: Kd turns up
    assert played is not None
    drawn = render.played(played)  # type: ignore[arg-type]
    assert wrapping.plain(drawn) == played_text(played) + "\n"  # type: ignore[arg-type]
    assert ("class:move " + SUIT_CLASSES[Card.parse("4h").suit], "4h") in drawn
    assert (SUIT_CLASSES[Card.parse("Kd").suit], "Kd") in drawn  # the card turned up


def test_undo_and_redo_are_drawn_from_their_typed_results_their_cards_in_their_colours() -> None:
    from spider_cli.app.words.replies import result_lines
    from spider_cli.rules.cards import Card

    session = Session.new_game(seed=5)
    session.execute("1 8")  # 4h from 1 to 8
    session.execute("7 3")  # 8d from 7 to 3
    for line, said in (
        ("undo 2", "took back 8d from 7 to 3, 4h from 1 to 8"),
        ("redo 2", "replayed 4h from 1 to 8, 8d from 7 to 3"),
    ):
        reply = session.execute(line)
        lines = result_lines(reply.result)
        assert lines is not None
        drawn = render.pieces(lines)
        assert wrapping.plain(drawn) == reply.text + "\n" == said + "\n"
        for card in ("4h", "8d"):
            assert ("class:move " + SUIT_CLASSES[Card.parse(card).suit], card) in drawn


def test_long_lines_are_broken_between_words_and_continue_under_their_text() -> None:
    def rows(text: str, width: int) -> list[str]:
        return [wrapping.plain(row) for row in wrapping.wrap([("", text)], width)]

    assert rows("a natural move turns up a card", 12) == ["a natural", "move turns", "up a card"]
    assert rows("  pile 1 turns up Kd and more", 14) == ["  pile 1 turns", "  up Kd and", "  more"]
    assert rows("History:  undo [N], redo [N], restart", 24) == [
        "History:  undo [N], redo",
        "          [N], restart",
    ]
    assert rows("  - a run moves as a unit, whole or in part", 20) == [
        "  - a run moves as a",
        "    unit, whole or",
        "    in part",
    ]
    assert rows("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # a word wider than a row
    assert rows("help [rules|notation|keys]", 16) == ["help", "[rules|notation|", "keys]"]
    assert rows(" " * 30 + "far to the right", 20) == [" " * 10 + "far to the", " " * 10 + "right"]
    assert rows("short", 40) == ["short"] and rows("", 40) == [""]
    # A term too long for its description to start within half the row: the description
    # goes on the rows below it.
    assert rows("  Jh from 8 to 9 (a remark)     one card, from pile 8 onto pile 9", 30) == [
        "  Jh from 8 to 9 (a remark)",
        "      one card, from pile 8",
        "      onto pile 9",
    ]
    coloured = wrapping.wrap(render.color_cards("move 8-6s from 3 to 10 now"), 14)
    assert [wrapping.plain(row) for row in coloured] == ["move 8-6s from", "3 to 10 now"]
    assert ("class:suit.spades", "8-6s") in coloured[0]  # the card keeps its colour
    # A wide character takes two columns: a saved file's name in Japanese breaks sooner.
    assert rows("saved to 対局記録.spider now", 20) == ["saved to", "対局記録.spider now"]
    assert rows("対局" * 6, 5) == ["対局", "対局", "対局", "対局", "対局", "対局"]


def test_text_laid_out_at_80_columns_flows_again_on_a_narrower_screen() -> None:
    """Help is broken at 80 columns; at 50 its paragraphs and items are broken anew, with no
    short row left at an old break, and a line broken on purpose stays broken."""
    from spider_cli.language.help import help_text

    def shown(text: str, width: int) -> list[str]:
        lines = [render.color_cards(line) for line in text.splitlines()]
        return [wrapping.plain(row) for row in wrapping.rows(lines, width)]

    rules = shown(help_text("rules"), 50)
    assert rules[:4] == [
        "Spider is played with two decks (104 cards) in ten",
        "piles. 54 cards start in the tableau, only the",
        "last card of each pile face up; the other 50 are",
        "the hand.",
    ]
    assert "    moves as a unit, whole or its lower part." in rules  # an item, under its text
    keys = shown(help_text("keys"), 50)
    at = keys.index("  Ctrl-D, quit    leave; the game is kept and")
    assert keys[at + 1 : at + 4] == [
        "                  'spider' offers it back (asks",
        "                  only to update a file you saved",
        "                  it to that is now behind)",
    ]
    assert "  :               may start a command (':help' is" in keys  # a one-character term
    assert "                  'help'), in either mode" in keys
    # A break that was meant (the next word would have fitted) and a wide screen: as written.
    meant = "Files:      save FILE (asks before replacing a file),\n            save! FILE"
    assert shown(meant, 40)[2].strip().startswith("save! FILE")
    assert shown(help_text("rules"), 80) == help_text("rules").splitlines()
    # A line over an error's caret is never joined to the line before it.
    caret = "x " * 39 + "\nzzz word\n    ^"
    assert shown(caret, 50)[-2:] == ["zzz word", "    ^"]
    assert shown("x " * 39 + "\nzzz word", 50)[-1].endswith("x zzz word")


@pytest.mark.parametrize("width", [29, 30, 35, 38, 39])
def test_under_40_columns_every_pile_shows_in_columns_of_three_with_tens_as_t(width: int) -> None:
    session = Session.new_game(seed=5)  # a 10h at the bottom of pile 4
    for glyphs, ten in ((UNICODE, "T♥"), (ASCII, "Th")):
        lines = lines_of(render.tableau(session.game, glyphs, width))
        assert lines[1].split() == [str(n) for n in range(1, 11)]
        assert all(len(line) <= width for line in lines)
        if width < 39:  # (39 is ten columns of four, the last one's gap left out)
            assert lines[7].split()[3] == ten and Card.parse(ten) == Card.parse("10h")
        assert "not shown" not in "".join(lines)


@pytest.mark.parametrize(
    ("width", "left_out"),
    [(28, "pile 10 not shown"), (24, "piles 9-10 not shown"), (16, "piles 6-10 not shown")],
)
def test_a_screen_too_narrow_for_ten_piles_says_which_are_left_out(
    width: int, left_out: str
) -> None:
    game = long_game()
    for glyphs in (UNICODE, ASCII):
        text = wrapping.plain(render.tableau(game, glyphs, width, max_rows=12))
        lines = text.splitlines()
        assert all(len(line) <= width for line in lines)
        said = " ".join(" ".join(lines).split())
        assert f"{left_out}: all ten need 29 columns" in said
        shown = int(left_out.split()[1].split("-")[0]) - 1
        numbers = next(line for line in lines if line.startswith("1 "))
        assert numbers.split() == [str(n) for n in range(1, shown + 1)]
        assert len(lines) <= 12 + 2  # a header row and the numbers: the note takes cards rows


def test_at_forty_columns_the_status_line_keeps_its_words() -> None:
    from spider_cli.app.results import Status
    from spider_cli.language.gamefiles import DealOrigin

    status = Status(DealOrigin(seed=1, suits=4), 2, 0, 0, 492, False, False, ())
    line = wrapping.plain(render.toolbar(status, width=40))
    assert line.strip() == "deals 2  off 0/8  moves 0  score 492" and len(line) <= 40


def test_a_folded_run_says_how_many_cards_it_hides_and_a_cut_pile_how_many_it_leaves_out() -> None:
    run = [Card.of(r, 0) for r in range(13, 3, -1)]  # K to 4 of spades
    first = [Card.of(5, 1), Card.of(9, 2), *run]
    rest = [Card.of(r, s) for s in range(4) for r in range(1, 14) for _ in range(2)]
    for card in first:
        rest.remove(card)
    piles = [first, *[rest[k::9] for k in range(9)]]  # (the other piles: any order)
    game = Game(piles, [1] + [0] * 9, [], suits=4)
    cells = render._pile_cells(game, 0, render.UNICODE, 2, frozenset(), room=3)
    texts = [cell.text for cell in cells]
    assert texts[2:] == ["K♠", "⋮8", "4♠"]  # the run's two ends and the eight between
    cut = render._squeezed(cells, 3, render.UNICODE, room=3)
    # the face-down card, the cards left out (9♦ and the run's head and middle), the last
    assert [cell.text for cell in cut] == ["▒▒", "+10", "4♠"]
