"""The full-screen board, driven by prompt_toolkit's pipe input: typed lines, single keys and
SGR mouse sequences (``ESC [ < button ; column ; row M`` to press, ``m`` to let go).

Each step is sent once the board has handled the previous one and drawn the screen again
(counted by the key processor's and the renderer's events, never by the clock), so a click
lands on the tableau as the player would see it. The checks are on the session's state, the
files written and the board's transcript.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.utils import get_cwidth

from spider_cli.app.journal import Journal
from spider_cli.app.results import Status
from spider_cli.app.session import Session
from spider_cli.app.timer import Timer
from spider_cli.cli import main as cli
from spider_cli.cli.parser import SUBCOMMANDS
from spider_cli.language.commands import Hint, Odds, Redo, Undo
from spider_cli.language.gamefiles import DealOrigin
from spider_cli.rules.cards import Card
from spider_cli.rules.engine import Deal, Game, Move
from spider_cli.rules.errors import Part
from spider_cli.tui import render, wrapping
from spider_cli.tui.board import Board
from spider_cli.tui.main import full_screen
from tests.helpers import SEED, Screen, said
from tests.helpers import board_moves as moves
from tests.helpers import on_board as play


def click(column: int, row: int, button: int = 0) -> str:
    """Press and let go at a cell (0-based), as an xterm reports it in SGR mode."""
    return f"\x1b[<{button};{column + 1};{row + 1}M\x1b[<{button};{column + 1};{row + 1}m"


def drag(start: tuple[int, int], end: tuple[int, int]) -> str:
    return f"\x1b[<0;{start[0] + 1};{start[1] + 1}M\x1b[<0;{end[0] + 1};{end[1] + 1}m"


def card(pile: int, index: int, width: int = 8) -> tuple[int, int]:
    """Where a pile's card is on an uncompressed tableau (header, numbers, then rows)."""
    return pile * width, 2 + index


# ---------------------------------------------------------------------------------------------
# The mouse


def test_a_click_sends_the_card_to_its_obvious_place_and_echoes_the_notation(home: Path) -> None:
    status, board = play([click(*card(0, 5)), "q\r"])
    assert status == 0
    assert moves(board) == ["4h from 1 to 6"]  # onto the 5h: its own suit
    assert "4h from 1 to 6\n  pile 1 turns up Kd" in said(board)


def test_escape_codes_that_are_not_mouse_reports_are_ignored(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A colour code typed or pasted (ESC[31m) looks like a mouse report to prompt_toolkit,
    whose handler fails on it; it is dropped, and a real click still works."""
    codes = ["\x1b[31m", "\x1b[0m", "\x1b[1;2m", "\x1b[<5m"]
    status, board = play([*codes, click(*card(0, 5)), "q\r"])
    assert status == 0
    assert moves(board) == ["4h from 1 to 6"]
    assert "Exception" not in capsys.readouterr().out + said(board)


def test_dragging_a_card_or_selecting_it_then_clicking_a_pile_moves_it_there(home: Path) -> None:
    steps = [
        drag(card(0, 5), card(7, 4)),  # 4h dragged onto the 5s of pile 8
        click(*card(6, 4), button=2),  # right click: the 8d of pile 7 selected
        click(*card(2, 5)),  # then a click on pile 3 (9d)
        drag(card(0, 4), card(2, 6)),  # Kd cannot go onto the 8d
        "q\r",
        "n\r",
    ]
    _, board = play(steps)
    assert moves(board) == ["4h from 1 to 8", "8d from 7 to 3"]
    assert "error: nothing in pile 1's movable run (Kd) can go onto 8d" in said(board)


@pytest.mark.parametrize("columns", [29, 38])
def test_a_narrow_board_shows_every_pile_and_its_cards_are_clicked_where_they_are(
    home: Path, columns: int
) -> None:
    """Under 40 columns, columns of three: all ten piles in sight, and clicks land on the
    cards drawn there."""
    steps = [
        drag(card(0, 5, 3), card(7, 4, 3)),  # 4h dragged onto the 5s of pile 8
        click(*card(6, 4, 3), button=2),  # right click: the 8d of pile 7 selected
        click(*card(2, 5, 3)),  # then a click on pile 3 (9d)
        click(*card(9, 4, 3)),  # the 2c of pile 10: nowhere to go
        "q\r",
        "n\r",
    ]
    _, board = play(steps, columns=columns)
    assert moves(board) == ["4h from 1 to 8", "8d from 7 to 3"]
    assert "2c" in said(board).split("8d from 7 to 3", 1)[1]  # the click reached pile 10
    tableau = wrapping.plain(board._tableau()).splitlines()
    assert tableau[1] == "1  2  3  4  5  6  7  8  9  10"
    assert all(len(line) <= columns for line in tableau)


def test_a_click_above_the_bottom_moves_that_card_and_those_covering_it(home: Path) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    for line in ("8d from 7 to 3",):
        session.execute(line)
    # pile 3 is now ... 9d 8d: a click on the 9d moves both onto the 10h of pile 4
    _, board = play([click(*card(2, 5)), click(*card(0, 0)), "q\r"], session)
    assert moves(board)[1:] == ["9-8d from 3 to 4"]
    assert "that card in pile 1 is face down" in said(board)


def test_clicking_the_hand_deals_and_a_complete_suit_is_removed(home: Path) -> None:
    _, board = play([click(2, 0), "q\r"])
    assert moves(board) == ["deal"]
    spades = [Card.of(rank, 0) for rank in range(13, 0, -1)]
    game = Game([spades, spades[:-1], [spades[-1]]] + [[]] * 7, [0] * 10, removed=[0] * 6, suits=1)
    _, board = play([click(*card(0, 3)), "q\r"], Session.of_position(game))  # the Js
    assert moves(board) == ["remove the spades from 1"]
    assert board.session.game.removed == [0] * 7


def test_the_cards_a_click_turns_up_are_asked_for_first(home: Path) -> None:
    intro = Session.new_game(seed=0, base_dir=Path.cwd())
    intro.load("intro-deal")
    bottom = len(intro.game.piles[7]) - 1
    _, board = play([click(*card(7, bottom)), "zz\r", "6s\r", "q\r"], intro)
    text = said(board)
    assert "pile 8 turns up: (Enter for a random card, or type one) 6s" in text
    assert "not a card an unknown card can be" in text
    assert board.session.game.piles[7][-1] == Card.parse("6s")
    assert board.session.history()[0].reveals == ((7, Card.parse("6s")),)


# ---------------------------------------------------------------------------------------------
# Keys and the command line


def test_typed_words_are_never_taken_for_keys(home: Path) -> None:
    """Every letter writes the command line: the words a new player types run whole."""
    steps = ["4h from 1 to 8\r", "7 3\r", "help\r", "hint\r", "undo 2\r", "open 3\r"]
    status, board = play([*steps, "new 5 winnable\r", "quit\r"])
    text = said(board)
    assert status == 0
    assert "unknown command" not in text
    assert "New to Spider?" in text  # help
    assert "took back 8d from 7 to 3, 4h from 1 to 8" in text  # undo 2, not 'u' then 'ndo 2'
    assert "there is no game 3 in the history" in text  # open 3, not odds
    assert "winnable with every card known" in text  # new 5 winnable: no move, nothing asked
    assert board.session.origin.name == "5"


def test_one_letter_commands_need_enter_and_the_keys_that_act_start_no_word(home: Path) -> None:
    steps = [click(*card(0, 5)), "u\r", "r\r", "\x1a", "\x19", ":d\r", "?", "o\r"]
    status, board = play([*steps, "n\r", "y\r", "q\r"])
    text = said(board)
    assert status == 0
    assert text.count("took back 4h from 1 to 6") == 2  # 'u' Enter, then Ctrl-Z
    assert text.count("replayed 4h from 1 to 6") == 2  # 'r' Enter, then Ctrl-Y
    assert "4 deals left" in text  # ':d': a leading ':' is allowed
    assert "chance of a win" in text  # 'o' Enter: odds
    assert "Abandon this game (2 moves) for a new deal? [y/N] y" in text
    assert board.session.game.moves_made == 0  # a new deal, of the same variant
    assert board.session.game.suits == 4


def test_the_keys_run_their_commands_as_typed_ones_do(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spider_cli.analysis import native
    from spider_cli.app.words.notes import slow_note

    slow = native.Unused(native.Reason.DOES_NOT_LOAD, "slow")
    monkeypatch.setattr(native, "warning", lambda: slow)  # the core is still used
    prepared: list[object] = []
    prepare = Session.prepare

    def preparing(session: Session, command: object) -> object:
        prepared.append(command)
        return prepare(session, command)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "prepare", preparing)
    steps = [click(*card(0, 5)), "\x1a", "\x19", "o\r", "o\r", "?"]
    _status, board = play([*steps, "q\r"])
    assert prepared[1:5] == [Undo(), Redo(), Odds(), Odds()]  # Ctrl-Z, Ctrl-Y, o, o
    assert isinstance(prepared[5], Hint)  # ?
    assert said(board).count(slow_note(slow)) == 1  # the slow path said once, by the first o


def test_the_hinted_move_is_marked_on_the_tableau_and_the_key_plays_it(home: Path) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    advice = session.copy(game=session.game.copy()).analysis.hint()
    _, board = play(["?", "\x1b"], session=session)  # no quit: input ends
    hinted = board.marked()
    assert hinted == advice.action and isinstance(hinted, Move)
    marked = [t for style, t, *_ in board._tableau() if "class:hinted" in style]
    assert len(marked) == hinted.count + 1  # the cards that move, and the one they go onto
    _, board = play(["?", "!", "q\r"], session=Session.new_game(seed=SEED, base_dir=Path.cwd()))
    assert board.session.history()[0].action == advice.action


def test_the_hint_key_again_gives_the_next_choice(home: Path) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    _, board = play(["?", "?", "\x1b"], session=session)
    text = said(board)
    assert "choice 2: " in text  # as Microsoft Spider's hint key moves on
    second = board.marked()
    first = Session.new_game(seed=SEED).analysis.hint().action
    assert second is not None and second != first


def test_the_play_key_deals_where_the_hint_says_a_deal_is_due(home: Path) -> None:
    session = Session.new_game(seed=21, base_dir=Path.cwd())
    for _ in range(60):  # follow the hints up to the first deal due
        advice = session.analysis.hint()
        if advice.deal_due:
            break
        session.apply(whole=True)
    assert advice.deal_due
    left = len(session.game.stock)
    _, board = play(["!", "\x1b"], session=session)
    assert len(board.session.game.stock) == left - 10
    assert "auto stops" not in said(board)


def test_the_key_with_nothing_marked_plays_hints_move_and_says_only_the_move(home: Path) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    advice = session.copy(game=session.game.copy()).analysis.hint()
    _, board = play(["!", "q\r"], session=session)
    assert board.session.history()[0].action == advice.action
    text = said(board)
    assert board.session.history()[0].text in text
    assert "auto" not in text  # neither auto's banner nor why it stopped


def test_typed_commands_run_as_at_the_prompt(home: Path) -> None:
    steps = ["4h from 1 to 8\r", "undo\r", "Jh frm 8\r", "\x03", "r\r", "save game-5.spider\r"]
    status, board = play(steps)
    text = said(board)
    assert status == 0
    assert "spider> 4h from 1 to 8" in text and "took back 4h from 1 to 8" in text
    caret = next(line for line in board.transcript if line.strip() == "^")
    assert caret.index("^") == len("spider> Jh ")  # under "frm"
    assert moves(board) == ["4h from 1 to 8"]
    assert Path("game-5.spider").read_text().splitlines()[1:3] == [
        "new 5 suits 4",
        "4h from 1 to 8",
    ]
    assert "saved to game-5.spider" in text


def test_show_on_the_board_points_at_it_and_show_n_lists_the_pile(home: Path) -> None:
    status, board = play(["show\r", "show 1\r", "q\r"])
    text = said(board)
    assert status == 0
    assert (
        "spider> show\n\nthe tableau is the board above ('show N' lists one pile in full)" in text
    )
    assert "pile 1: 5 face down, 1 face up" in text


def caret_rows(board: Board) -> tuple[str, str]:
    """The last row of the replies with a caret alone on it, and the row above it, as the
    board shows them."""
    rows = wrapping.plain(board._messages()).splitlines()
    at = max(n for n, row in enumerate(rows) if row.strip() == "^")
    return rows[at - 1], rows[at]


def shown_at(row: str, column: int) -> str:
    """The character a terminal shows at 0-based ``column`` of ``row`` (a wide character
    takes two columns)."""
    at = 0
    for char in row:
        at += get_cwidth(char)
        if at > column:
            return char
    return ""


def test_a_wide_character_typed_before_an_error_keeps_the_caret_under_it(home: Path) -> None:
    _, board = play(["load 漢字 extra\r"])
    line, caret = caret_rows(board)
    assert line.rstrip() == "spider> load 漢字 extra"
    assert shown_at(line, caret.index("^")) == "e"  # of "extra"


def test_a_line_wider_than_the_board_keeps_its_caret_under_the_word_at_fault(
    home: Path,
) -> None:
    """At 40 columns the line typed is cut around the caret, the same way as its caret row,
    rather than broken between words (which left the caret under other text)."""
    _, board = play(["solve get a space in pile 5, no deal, limit 0\r"], columns=40)
    line, caret = caret_rows(board)
    assert len(line) <= 40 and line.startswith("…") and "limit 0" in line
    assert line[caret.index("^") :].startswith("limit 0")


def test_a_long_line_of_a_file_keeps_its_caret_under_the_word_at_fault(home: Path) -> None:
    remark = "(a remark long enough to need more than one row of the board)"
    Path("long.spider").write_text(
        f"# spider game file, version 1\nnew 5 suits 1\n{remark} 4s from 1 to 7 {remark}\n"
    )
    _, board = play(["load long.spider\r"], columns=40)
    line, caret = caret_rows(board)
    assert len(line) <= 40 and line.startswith("…") and line.rstrip().endswith("…")
    assert line[caret.index("^") - len("to ") :].startswith("to 7 (")


@pytest.mark.parametrize("gap", [" ", "  "])
def test_a_long_line_of_wide_characters_is_cut_in_terminal_columns(home: Path, gap: str) -> None:
    """The line is cut by the terminal's columns (a wide character takes two, and one cut
    in two at an edge shows as a blank), so the caret is still under its word."""
    Path("wide.spider").write_text(
        f"# spider game file, version 1\nnew 5 suits 1\n"
        f"({'漢' * 30}){gap}4s from 1 to 7 ({'字' * 30})\n"
    )
    _, board = play(["load wide.spider\r"], columns=41)
    line, caret = caret_rows(board)
    assert sum(map(get_cwidth, line)) == 41 and line.startswith("…")
    assert line.rstrip().endswith("…")
    assert shown_at(line, caret.index("^")) == "7"
    assert shown_at(line, caret.index("^") - 2) == "o"  # of "to 7"


def test_the_searching_line_is_for_a_command_that_searches_not_for_its_words(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[str] = []
    monkeypatch.setattr(Screen, "write_raw", lambda _self, data: written.append(data))
    _, board = play([":new 3 # not hard\r", "q\r"])  # "hard" in a comment: no search
    assert board.session.origin == DealOrigin(3)
    assert not any("searching" in data for data in written)
    play(["?", "q\r"])  # the key stands for 'hint': a search
    assert any("searching... 0 s (Ctrl-C stops)" in data for data in written)


def test_ctrl_c_at_the_save_question_keeps_playing(home: Path) -> None:
    steps = [":save mine.spider\r", "4h from 1 to 8\r", "\x03", "q\r", "\x03", "q\r"]
    _, board = play(steps)
    assert "(still playing)" in said(board)
    assert "4h from 1 to 8" not in Path("mine.spider").read_text()


def test_replay_steps_through_the_game_on_the_board(home: Path) -> None:
    steps = ["4h from 1 to 8\r", "7 3\r", "replay\r", "\r", "b", "\r", "\r", "q\r"]
    _, board = play(steps)
    text = said(board)
    assert "back to move 0/2 (took back 4h from 1 to 8)" in text  # b: at once
    assert "move 1/2: 4h from 1 to 8" in text and "move 2/2: 8d from 7 to 3" in text
    assert "replay over: this is the current position" in text
    assert board.shown is None
    for stop in ("q", "\x1b"):
        _, board = play(["4h from 1 to 8\r", "replay\r", stop, "q\r"])
        assert "back at the current position (move 1)" in said(board)  # at once


def test_q_leaves_at_once_and_the_journal_keeps_the_game(home: Path) -> None:
    status, board = play(["4h from 1 to 8\r", "q\r"])
    text = said(board)
    assert status == 0 and board.question is None and "[Y/n]" not in text  # nothing asked
    assert "the game is always kept" in text  # the welcome says so
    assert Journal().read().moves == 1  # type: ignore[union-attr]


def test_q_asks_only_when_the_named_save_file_is_behind(home: Path) -> None:
    _, board = play(["4h from 1 to 8\r", "save mine.spider\r", "\x03", "q\r"])
    assert "[Y/n]" not in said(board)  # the file has the game: nothing to ask
    _, board = play(["7 3\r", "\x03", "q\r", "\r"], name="mine.spider")
    assert "mine.spider is behind this game. Update it? [Y/n] " in said(board)
    assert Path("mine.spider").read_text().splitlines()[1:4] == [
        "new 5 suits 4",
        "4h from 1 to 8",
        "8d from 7 to 3",
    ]


# ---------------------------------------------------------------------------------------------
# Sizes


@pytest.mark.parametrize(
    ("columns", "rows"), [(24, 20), (29, 20), (38, 20), (40, 20), (60, 30), (80, 24), (160, 50)]
)
def test_the_board_fits_the_screen(home: Path, columns: int, rows: int) -> None:
    session = Session.new_game(seed=SEED, base_dir=Path.cwd())
    for _ in range(4):
        session.deal()
    problem = Session(base_dir=Path.cwd())
    problem.load("problem-1")  # long piles of face-up cards that are not runs
    for game in (session, problem):
        _, board = play(["q\r"], game, columns, rows)
        tableau = wrapping.plain(board._tableau()).splitlines()
        status = wrapping.plain(board._status())
        assert all(len(line) <= columns for line in tableau)
        assert len(tableau) <= rows - 5  # room for the status line, replies, command line
        assert len(status) <= columns
        assert re.search(r"deals|\bd\d", status)


def _long_runs() -> Game:
    """A one-suit deal played by natural moves and deals until none is left: long runs."""
    game = Session.new_game(seed=3, suits=1).game
    for _ in range(60):
        natural = [m for m in game.legal_moves() if isinstance(m, Move) and game.is_natural(m)]
        if natural:
            game.push(natural[0])
        elif game.stock and not game.spaces():
            game.push(Deal())
        else:
            break
    return game


@pytest.mark.parametrize("width", [29, 33, 38, 39, 40, 45, 50, 60, 79, 80])
@pytest.mark.parametrize("rows", [3, 6, 40])
@pytest.mark.parametrize("glyphs", [render.UNICODE, render.ASCII])
def test_narrow_columns_keep_a_gap_between_piles(
    width: int, rows: int, glyphs: render.Glyphs
) -> None:
    w = render.column_width(width)
    for game in (_long_runs(), Session.new_game(seed=SEED).game):
        lines = wrapping.plain(render.tableau(game, glyphs, width, rows)).splitlines()
        assert all(len(line) <= width for line in lines)
        for line in lines[2:]:
            for start in range(0, len(line), w):
                cell = line[start : start + w]
                assert cell == cell.lstrip() or not cell.strip()  # each card in its column
                assert len(cell) < w or cell.endswith(" ")  # and a gap after it


@given(
    st.integers(0, 5),
    st.integers(0, 8),
    st.integers(0, 9999),
    st.integers(-500, 1000),
    st.sampled_from([(), (2,), (0, 9)]),
    st.booleans(),
    st.integers(40, 200),  # the board is made for 40 columns and more
)
def test_the_status_line_fits_and_never_cuts_a_word(
    deals: int, removed: int, moves: int, score: int, ready: tuple[int, ...], keys: bool, width: int
) -> None:
    status = Status(DealOrigin(1), deals, removed, moves, score, False, False, ready)
    line = wrapping.plain(render.toolbar(status, render.UNICODE, width, keys=keys))
    widest = wrapping.plain(render.toolbar(status, render.UNICODE, 1000, keys=keys))
    assert len(line) <= width
    words = set(re.split(r"[\s|:]+", widest)) | {"deals", "off", "keys", ":", "won!", "lost"}
    words |= {f"d{deals}", f"m{moves}", f"s{score}", f"{removed}/8", "remove"}
    words |= {str(pile + 1) for pile in ready}
    assert set(re.split(r"[\s|:]+", line)) <= words | {""}


def test_the_board_is_the_default_only_at_a_terminal_that_can_show_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert full_screen(line_mode=False)
    assert not full_screen(line_mode=True)
    monkeypatch.setenv("TERM", "dumb")
    assert not full_screen(line_mode=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert not full_screen(line_mode=False)


def test_new_keeps_the_variant_unless_told() -> None:
    session = Session.new_game(seed=1, suits=2)
    session.execute("new 7")
    assert session.game.suits == 2
    session.execute("new")
    assert session.game.suits == 2
    session.execute("new 7 suits 1")
    assert session.game.suits == 1


def test_spider_help_lists_the_play_options_and_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    for word in (
        "--seed N",
        "--suits N",
        "--ascii",
        "--line",
        "FILE",
        "--version",
        *SUBCOMMANDS,
    ):
        assert word in text
    assert cli.main(["--version"]) == 0
    assert re.fullmatch(
        r"spider \d+\.\d+\.\d+.*\n.*compiled search core.*\n", capsys.readouterr().out
    )


def test_the_replies_say_there_is_more_and_scroll_at_once(home: Path) -> None:
    """'help' overflows the message area at 80x24: it is read on the screen from its first
    line, and back on the board a sign says how much is above, and each PageUp or turn of
    the wheel moves the view (not only once a cursor leaves it)."""
    wheel_up = "\x1b[<64;5;20M"  # over the replies (row 20 of 24)
    wheel_down = "\x1b[<65;5;20M"
    _, board = play(["help\r"])  # no quit: input ends
    shown = wrapping.plain(board._messages()).splitlines()
    assert shown[0].startswith("New to Spider?")  # read from its first line
    assert re.match(r"▼ \d+ more: PageDown; q or Esc: back to the game", shown[-1])
    _, board = play(["help\r", "\x1b[6~", "\x1b[6~", "\x1b[6~", "\x1b[6~"])
    assert "'help TOPIC' for a topic above" in wrapping.plain(board._messages())
    # q: back to the board, the replies beside the tableau, their newest rows in view
    _, board = play(["help\r", "q"])
    shown = wrapping.plain(board._messages()).splitlines()
    assert re.match(r"▲ \d+ more lines: PageUp or the wheel", shown[0])
    assert "'help TOPIC' for a topic above" in shown[-1]  # the newest row
    views = []
    for steps in (["\x1b[5~"], ["\x1b[5~", "\x1b[5~"], [wheel_up], [wheel_up, wheel_down]):
        _, board = play(["help\r", "q", *steps])
        views.append((board.scroll, wrapping.plain(board._messages())))
    page = board._page()
    assert [scroll for scroll, _ in views] == [page, views[1][0], 3, 0]
    assert page < views[1][0] < 2 * page  # the second PageUp stops at the top
    assert "▼" in views[0][1] and "▲" in views[0][1]  # more below and above
    assert "▲" not in views[1][1] and "New to Spider?" in views[1][1]
    _, board = play(["help\r", "q", "\x1b[5~", "u\r"])
    assert board.scroll == 0  # a new reply: the newest rows again


# ---------------------------------------------------------------------------------------------
# The history of games and the time played


def test_the_board_lists_and_opens_games_and_its_status_line_keeps_the_time(home: Path) -> None:
    now = [100.0]
    session = Session.new_game(seed=SEED, base_dir=Path.cwd(), timer=Timer(lambda: now[0]))
    steps = [click(*card(0, 5)), ":new 7\r", "y\r", "games\r", "open 1\r", "q\r"]
    status, board = play(steps, session=session)
    assert status == 0
    assert "game 1 (5, abandoned): 1 move replayed" in said(board)
    assert moves(board) == ["4h from 1 to 6"]
    now[0] += 50
    assert "time 0:50" in wrapping.plain(board._status())
    now[0] += 30  # more than a minute since the last key: the watch has stopped at 1:00
    assert "time 1:00" in wrapping.plain(board._status())
    board.player.touched()  # a key: it goes on from here
    now[0] += 5
    assert "time 1:05" in wrapping.plain(board._status())
    assert board.app.refresh_interval == 1.0  # the clock ticks on the screen


def test_every_key_on_the_board_and_at_the_prompt_is_seen_by_the_watch(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    touched: list[float] = []
    monkeypatch.setattr(Timer, "touch", lambda self: touched.append(self.clock()))
    session = Session.new_game(seed=SEED, base_dir=Path.cwd(), timer=Timer(lambda: 7.0))
    play(["7 3\r", "q\r"], session=session)
    assert len(touched) >= len("7 3\rq\r")
    from tests.helpers import drive

    touched.clear()
    drive("7 3\rquit\rn\r", Session.new_game(seed=SEED, timer=Timer(lambda: 7.0)))
    assert len(touched) >= len("7 3\rquit\r")


# ---------------------------------------------------------------------------------------------
# One typed move: read once, resolved once, checked once


def _counted(monkeypatch: pytest.MonkeyPatch, original: Callable[..., object]) -> list[object]:
    """Count the calls of a function wherever spider_cli's modules hold it by name; the
    first argument of each call."""
    import sys

    calls: list[object] = []

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("spider_cli") and module is not None:
            for attr, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, attr, counting)
    return calls


def test_a_typed_move_on_the_board_is_read_resolved_and_checked_once(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spider_cli.language import notation

    parsed = _counted(monkeypatch, notation.parse_command)
    resolved = _counted(monkeypatch, notation.resolve)
    checks: list[object] = []
    refusal = Game.refusal  # (why_illegal asks it too)

    def checking(game: Game, action: object) -> tuple[str, Part | None] | None:
        checks.append(action)
        return refusal(game, action)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "refusal", checking)
    entered = Board.enter

    def enter(board: Board) -> None:  # count from Enter: typing is read by the highlighter
        del parsed[:], resolved[:], checks[:]
        entered(board)
        counts.append((parsed.count("1 6"), len(resolved), checks.count(Move(0, 5, 1))))

    counts: list[tuple[int, int, int]] = []
    monkeypatch.setattr(Board, "enter", enter)
    _status, board = play(["1 6\r", "q\r"])
    assert moves(board) == ["4h from 1 to 6"]
    assert counts[0] == (1, 1, 1)


def test_the_prompt_shows_again_after_a_line_wider_than_the_screen(home: Path) -> None:
    """The command line scrolls sideways to show the end of a long line, and back once the
    line fits again (run, or rubbed out): the prompt stays in sight. At 40 columns, 'solve
    get a space in pile 5, no deal' is wider than the screen."""
    long = "solve get a space in pile 5, no deal, no remove"
    for steps, left in (([long, "\r", "abc"], "abc"), ([long, "\x7f" * (len(long) - 3)], "sol")):
        _, board = play(steps, columns=40)
        assert board.buffer.text == left
        assert board.app.layout.current_window.horizontal_scroll == 0


def test_late_in_a_game_replies_keep_five_rows_and_page_keys_move_a_page(home: Path) -> None:
    session = Session.new_game(seed=21, base_dir=Path.cwd())
    for _ in range(5):  # the hand dealt: every pile ten cards or more
        session.deal()
    _, board = play(["help\r", "\x1b"], session=session)
    view, above, below, height = board._view()
    assert height >= 6 and len(view) >= 5 and above > 0 and below == 0
    page = board._page()
    assert page >= 4  # PageUp moves a page, not a line
    board.scroll_by(page)
    assert board._view()[2] >= page  # a page of newer rows lies below
    _, board = play(["help\r", "\x1b[H"], session=session)  # Home: the oldest replies
    assert board._view()[1] == 0
    _, board = play(["help\r", "\x1b[5~", "\x1b[F"], session=session)  # PageUp, then End
    assert board.scroll == 0


def test_a_long_reply_has_the_screen_until_q_and_the_game_is_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[str, bool, int, str]] = []

    def record(name: str, method: Callable[..., None]) -> Callable[..., None]:
        def call(self: Board, *args: object) -> None:
            method(self, *args)
            shown = wrapping.plain(FormattedText(self._messages()))
            seen.append((name, self.reading, self._message_height(), shown))

        return call

    monkeypatch.setattr(Board, "read", record("read", Board.read))
    monkeypatch.setattr(Board, "close_reading", record("closed", Board.close_reading))
    status, board = play(["7 3\r", "help\r", "\x1b[6~", "q", "help\r", "\r", "q\r"])
    assert status == 0 and moves(board) == ["8d from 7 to 3"]
    (name, reading, height, shown), *rest = seen
    # help: the whole screen but the status and command lines, from its first line
    assert (name, reading, height) == ("read", True, 22)
    first = wrapping.plain(render.message(board.session.execute("help").text)).splitlines()[0]
    assert shown.splitlines()[0].rstrip() == first
    assert "q or Esc: back to the game" in shown.splitlines()[-1]
    assert rest[0][:2] == ("closed", False)  # q: the board again
    assert [(n, r) for n, r, *_ in rest[1:]] == [("read", True), ("closed", False)]  # Enter


def test_a_reply_that_fits_beside_the_tableau_stays_there() -> None:
    status, board = play(["stats\r", "q\r"])
    assert status == 0 and not board.reading
