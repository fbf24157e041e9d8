"""The command language: every form the manual writes, the error messages, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from spider_cli.language import grammar
from spider_cli.language.commands import (
    Assume,
    Code,
    Complete,
    DealCommand,
    Expect,
    Goal,
    Help,
    Load,
    Locate,
    MoveCommand,
    Moves,
    NewCommand,
    ObviousCommand,
    Quit,
    Redo,
    RemoveCommand,
    Restart,
    RunSpec,
    Save,
    Score,
    Set,
    Show,
    TableauCommand,
    Undo,
)
from spider_cli.language.explain import _MOVE_MISTAKES
from spider_cli.language.help import TOPICS, help_text
from spider_cli.language.notation import (
    command_parser,
    parse_command,
    parse_question,
    read_run,
    resolve,
)
from spider_cli.language.reader import _placed_reader
from spider_cli.language.registry import WORDS
from spider_cli.rules.cards import RANK_NAMES, Card
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import DEAL, Game, Move, Remove
from spider_cli.rules.errors import IllegalMoveError, NotationError
from spider_cli.rules.placing import obvious
from spider_cli.rules.text import move_text

C = Card.parse


def run(text: str) -> RunSpec:
    """The RunSpec of a run as the manual writes it: "8-6s", "Jc-3h" or one card "As"."""
    top, _, bottom = text.rpartition("-")
    if not top:
        card = C(text)
        return RunSpec(card.rank, card.suit, card)
    suit = None if top in RANK_NAMES else C(top).suit
    return RunSpec(RANK_NAMES.index(top[:-1] if suit is not None else top), suit, C(bottom))


def table(*piles: str) -> Game:
    """A position from piles written top to bottom ("-- Kc": a face-down card, then the Kc).

    Piles not given are spaces; the cards not on the table are unknown cards in the hand.
    """
    columns = [pile.split() for pile in piles] + [[] for _ in range(10 - len(piles))]
    cards = [[0 if c == "--" else C(c) for c in column] for column in columns]
    down = [column.count("--") for column in columns]
    return Game(cards, down, [0] * (104 - sum(map(len, cards))))


# ---------------------------------------------------------------------------------------------
# Reading: every form of the manual, and the workbench's commands

MOVES = {
    "8-6s from 3 to 10": MoveCommand(run("8-6s"), 3, 10),
    "As from 2 to 5": MoveCommand(run("As"), 2, 5),
    "Q-Jh from 9 to 3": MoveCommand(run("Q-Jh"), 9, 3),
    "10-Ac from 5 to 9": MoveCommand(run("10-Ac"), 5, 9),
    "K-Qd from 4 to 5": MoveCommand(run("K-Qd"), 4, 5),
    "2-Ah from 2 to 5": MoveCommand(run("2-Ah"), 2, 5),
    "9-As from 10 to 1": MoveCommand(run("9-As"), 10, 1),
    "Jc-3h from column 5 onto Qd in column 2": MoveCommand(run("Jc-3h"), 5, 2, C("Qd")),
    "Kc-3s from column 7 into a space": MoveCommand(run("Kc-3s"), 7, into_space=True),
    "J-6h from column 3 onto Qh": MoveCommand(run("J-6h"), 3, onto=C("Qh")),
    "10-4s onto Js": MoveCommand(run("10-4s"), onto=C("Js")),
    "from column 5 to column 2": MoveCommand(None, 5, 2),
    "Ac from column 4 into a space": MoveCommand(run("Ac"), 4, into_space=True),
    "Js from 9 to 3 (into the space)": MoveCommand(run("Js"), 9, 3),
    "8-6s from column 7 onto the 9s in column 5": MoveCommand(run("8-6s"), 7, 5, C("9s")),
    "move Jh from pile 8 to pile 9.": MoveCommand(run("Jh"), 8, 9),
    "Kc from 8 into space 7": MoveCommand(run("Kc"), 8, 7, into_space=True),
    "MOVE th FROM 3 TO 4": MoveCommand(run("10h"), 3, 4),
    "8-6♠ from 3 to 10": MoveCommand(run("8-6s"), 3, 10),
    "J♥ from 8 to 9  # natural": MoveCommand(run("Jh"), 8, 9),
    "3 10": MoveCommand(None, 3, 10),
    "3>10": MoveCommand(None, 3, 10),
    "move 3 > 10": MoveCommand(None, 3, 10),
    "6s 3 10": MoveCommand(RunSpec(6, 0, None), 3, 10),
}

OTHERS = {
    "3": ObviousCommand(3),
    "obvious column 3": ObviousCommand(3),
    "d": DealCommand(),
    "Deal.": DealCommand(),
    "remove": RemoveCommand(),
    "remove 8": RemoveCommand(None, 8),
    "remove the spades": RemoveCommand(0),
    "remove the spades from column 8": RemoveCommand(0, 8),
    "remove spades from 8": RemoveCommand(0, 8),
    "remove s": RemoveCommand(0),
    "remove ♥": RemoveCommand(1),
    "new": NewCommand(),
    "new 17": NewCommand(17),
    "new suits 2": NewCommand(None, 2),
    "new 17 suits 2": NewCommand(17, 2),
    "new 3 suit 1": NewCommand(3, 1),
    "restart": Restart(),
    "undo": Undo(),
    "undo 5": Undo(5),
    "redo": Redo(),
    "redo 2": Redo(2),
    "assume 8 6s": Assume(8, C("6s")),
    "moves": Moves(),
    "complete": Complete(),
    "locate 8h": Locate(8, 1),
    "locate K": Locate(13),
    "locate 10": Locate(10),
    "score": Score(),
    "show": Show(),
    "show 3": Show(3),
    "code": Code(),
    "load problem-3.txt": Load("problem-3.txt"),
    "load ../games/a.spider.": Load("../games/a.spider"),
    "save 'my game.txt'": Save("my game.txt"),
    'expect "after hearts.txt"  # the position after': Expect("after hearts.txt"),
    "set autoremove on": Set("autoremove", True),
    "SET AutoRemove Off": Set("autoremove", False),
    "set delay 3": Set("delay", 3),
    "set sixth spread": Set("sixth", "spread"),
    "help": Help(),
    "help Moves": Help("moves"),
    "quit": Quit(),
    "exit": Quit(),
}


@pytest.mark.parametrize(("text", "command"), [*MOVES.items(), *OTHERS.items()])
def test_reads(text: str, command: object) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize("text", ["", "   ", "# a comment", "(a remark) # and a comment", "\n"])
def test_blank_lines_are_no_command(text: str) -> None:
    assert parse_command(text) is None


def test_runs_know_their_size_and_text() -> None:
    assert run("8-6s").count == 3
    assert run("As").count == 1
    assert RunSpec(6, 0, None).count is None
    assert [str(run(t)) for t in ("8-6s", "Jc-3h", "As")] == ["8-6s", "Jc-3h", "As"]
    assert str(RunSpec(6, 0, None)) == "6s"


# ---------------------------------------------------------------------------------------------
# Reading: what a player is told


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("8-6 from 3 to 10", "a run needs a suit on its last card, as in 8-6s", 2),
        ("Jh from 8", "say where to: 'to PILE'", 10),
        ("mvoe 3 4", "unknown command 'mvoe': did you mean 'move'?", 1),
        ("hlep", "unknown command 'hlep': did you mean 'help'?", 1),  # h: hint
        ("  undoo 2", "unknown command 'undoo': did you mean 'undo'?", 3),
        ("xyzzy", "unknown command 'xyzzy'", 1),  # the prompt adds where help is
        ("rules", "unknown command 'rules': 'help rules' shows that topic", 1),
        ("Keys", "unknown command 'Keys': 'help keys' shows that topic", 1),
        ("1x from 3 to 4", "'1x' is not a card", 2),
        ("3-10", "to move from pile 3 to pile 10, write '3 10' or '3>10'", 2),
        ("assume 8 1x", "'1x' is not a card", 10),
        ("8-6x from 3 to 4", "'6x' is not a card", 2),
        ("6-8s from 3 to 4", "'6-8s' runs the wrong way: name the top card first, as in 8-6s", 1),
        ("As from 2 to 5 8-8s", "unexpected '8-8s': the command is complete without it", 16),
        ("Jh from", "say which pile, as in 'from 3' or 'from column 3'", 8),
        ("Jh to", "say where to: 'to PILE', 'onto CARD' or 'into a space'", 6),
        ("Jh into a", "say 'into a space' or 'into space PILE'", 10),
        ("8-6s", "say where from and where to, as in '8-6s from 3 to 10'", 5),
        ("6s 3", "the quick form is 'CARD FROM TO', as in '6s 3 10'", 5),
        ("3 x", "the quick form is 'FROM TO', as in '3 10' or '3>10', not 'x'", 3),
        ("Jh frm 8 to 9", "say where from and where to, as in '8-6s from 3 to 10', not 'frm'", 4),
        ("deal 3", "deal takes nothing after it", 6),
        (
            "new suits 3",
            "new takes a deal number, a suit count (1, 2 or 4), and 'winnable' or a difficulty "
            "(easy, medium, hard), as in 'new 17 suits 2', 'new winnable' or 'new easy'",
            11,
        ),
        ("load", "load takes a file name, as in 'load game.txt' or 'load \"my game.txt\"'", 5),
        ("load 'my game", "a quoted name needs its closing '", 6),
        ('save ""', "a quoted name cannot be empty: write the name between the quotes", 6),
        ("load ''", "a quoted name cannot be empty: write the name between the quotes", 6),
        ("Js from 9 to 3 (into the space", "a remark in parentheses needs its closing ')'", 16),
        ("3 10\n4 5", "one command per line", 5),
    ],
)
def test_misreadings_say_what_was_expected(text: str, message: str, column: int) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(text)
    error = caught.value
    assert (error.message, error.line, error.column) == (message, 1, column)
    line, caret = error.context.split("\n")
    assert line == text.split("\n")[0] and caret == " " * (column - 1) + "^"


@pytest.mark.parametrize("text", ["1-" + "9" * 5000, "9" * 5000 + "-1", "3-" + "1" * 21])
def test_a_run_or_piles_of_too_many_digits_is_a_clear_error(text: str) -> None:
    with pytest.raises(NotationError) as caught:  # not Python's limit of 4,300 digits
        parse_command(text)
    assert caught.value.message.startswith("a number has at most 20 digits")


X300, Q300 = "x" * 300, "Q" * 300
"""Words far longer than a message should repeat."""


@pytest.mark.parametrize(
    ("text", "said", "column"),
    [
        (X300, "unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", 1),
        (Q300 + "h from 1 to 2", "unknown command 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ…'", 1),
        ("8-" + Q300 + "h from 1 to 2", "'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ…' is not a card", 2),
        ("Jh from 8 to " + X300, ", not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", 14),
        ("Jh from 8 to 9 " + X300, "unexpected 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…': the", 16),
        ("Jh onto " + Q300 + "h", ", not 'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ…'", 9),
        ("6s 3 " + X300, "as in '6s 3 10', not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", 6),
    ],
)
def test_a_long_word_is_quoted_by_its_first_thirty_characters(
    text: str, said: str, column: int
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(text)
    error = caught.value
    assert said in error.message and len(error.message) < 160
    assert error.column == column
    line, caret = error.context.split("\n")
    assert caret == " " * (column - 1) + "^" and line.startswith(text[:column])


def test_a_long_word_is_quoted_short_by_the_cards_the_deals_and_help() -> None:
    cut = "'QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ…'"
    with pytest.raises(NotationError, match=f"^{cut} is not a rank"):
        Card.parse(Q300 + "h")
    with pytest.raises(NotationError, match=f"^{cut} is not a deal"):
        DealSource.parse(Q300)
    assert help_text(Q300).startswith(f"no help on {cut}; topics:")


@pytest.mark.parametrize(
    ("message", "example"),
    [(message, example) for message, examples in _MOVE_MISTAKES.items() for example in examples],
)
def test_each_typical_mistake_gets_its_own_message(message: str, example: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(example)
    assert caught.value.message in (message, f"{message}, not 'x'")


def test_wrong_way_runs_are_pointed_at() -> None:
    with pytest.raises(NotationError) as caught:
        parse_command("move 8-8s from 3 to 4")
    assert caught.value.message == "'8-8s' names one card: write 8s"
    assert caught.value.context == "move 8-8s from 3 to 4\n     ^"


# ---------------------------------------------------------------------------------------------
# Resolving: what a command means in a position

GAME = table(
    "Kd 7h",
    "Qd",
    "Kh 8s 7s 6s",
    "9s 8h 7d",
    "Jh 10h 9h 8h 7h 6h 5h 4h 3h",
    "",
    "-- Kc",
    "Ks Qs Js 10s 9s 8s 7s 6s 5s 4s 3s 2s As",
    "9c",
    "9h",
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("8-6s from 3 to 10", Move(2, 9, 3)),
        ("3 10", Move(2, 9, 3)),
        ("3>10", Move(2, 9, 3)),
        ("from column 3 to column 10", Move(2, 9, 3)),
        ("3 6", Move(2, 5, 3)),
        ("6s 3 6", Move(2, 5, 1)),
        ("J-3h from column 5 onto Qd in column 2", Move(4, 1, 9)),
        ("J-3h from 5 onto Qd", Move(4, 1, 9)),
        ("J-3h onto Qd", Move(4, 1, 9)),
        ("Jh-3h to 2", Move(4, 1, 9)),
        ("Kc from 7 into a space", Move(6, 5, 1)),
        ("Kc from 7 into space 6", Move(6, 5, 1)),
        ("remove", Remove(7)),
        ("remove 8", Remove(7)),
        ("remove the spades", Remove(7)),
        ("remove spades from column 8", Remove(7)),
        ("3", obvious(GAME, 2)),
        ("obvious 8", Remove(7)),
    ],
)
def test_resolves(text: str, action: object) -> None:
    command = parse_command(text)
    assert command is not None
    assert resolve(GAME, command) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("9s 4 10", "pile 4 has no 9s in its movable run"),
        ("9s from 4 to 10", "pile 4 has no 9s in its movable run"),
        (
            "7s from 3 to 10",
            "7s is not at the bottom of pile 3 (it ends with 6s): to move it and "
            "the cards below it, write 7-6s",
        ),
        ("Jc-3h from column 5 onto Qd in column 2", "Jc-3h is not a same-suit run"),
        ("Kc from 7 to 2", "a King can only go into a space"),
        ("d", "cannot deal: pile 6 is a space"),
        ("8-6s from 4 to 10", "8-6s is not at the bottom of pile 4 (it ends with 7d)"),
        ("from 6 to 3", "pile 6 is a space"),
        ("7h from 1 to 9", "7h cannot go onto 9c"),
        ("3 11", "there is no pile 11"),
        ("0 3", "there is no pile 0"),
        ("obvious 11", "there is no pile 11"),
        ("9-6h from 5 to 3", "9-6h is not at the bottom of pile 5 (it ends with 3h)"),
        ("J-3h from 5 onto Qd in column 3", "Qd is not at the bottom of pile 3 (it ends with 6s)"),
        ("J-3h from 5 onto Qc", "no pile ends with Qc"),
        ("Q-3h onto Kc", "pile 5 has only 9 face-up cards"),
        ("7s 3 10", "7s cannot go onto 9h"),
        ("7d from 4 onto the 8s in 3", "8s is not at the bottom of pile 3 (it ends with 6s)"),
        ("10-4s onto Js", "no pile ends with 4s"),
        ("Kc from 7 into space 4", "pile 4 is not a space"),
        ("3 2", "nothing in pile 3's movable run (8-6s) can go onto Qd"),
        ("3 3", "a move needs two different piles"),
        ("remove the hearts", "no pile ends with the hearts, King to Ace"),
        ("remove the hearts from 8", "pile 8 ends with the spades, not the hearts"),
        ("remove 3", "pile 3 does not end with a complete suit, King to Ace"),
    ],
)
def test_illegal_commands_say_why(text: str, reason: str | None) -> None:
    assert why(GAME, text) == reason


def why(game: Game, command: str | TableauCommand) -> str:
    """Why a command is refused: ``resolve`` finds no action, or the one it finds is illegal.

    (``resolve`` finds; the rules are checked once, by the caller, with ``why_illegal``.)
    """
    if isinstance(command, str):
        command = parse_command(command)  # type: ignore[assignment]
    try:
        action = resolve(game, command)  # type: ignore[arg-type]
    except IllegalMoveError as error:
        return str(error)
    reason = game.why_illegal(action)
    assert reason, f"{command} is legal: {action}"
    return reason


def test_a_space_and_a_source_are_found() -> None:
    game = table("Kh 10s 9s 8s 7s 6s 5s 4s", "Qh Js", "Ac")
    assert resolve(game, MoveCommand(run("10-4s"), onto=C("Js"))) == Move(0, 1, 7)
    assert resolve(game, parse_command("Ac from 3 into a space")) == Move(2, 3, 1)
    full = table(*["Kd"] * 2, *["Qd"] * 2, *["Kc"] * 2, *["Qc"] * 2, "Kh", "Ac")
    assert why(full, "Ac from column 10 into a space") == "there is no space"
    assert why(full, RemoveCommand()) == "no pile ends with a complete suit, King to Ace"
    assert why(full, MoveCommand(None, None, 3)) == "say which pile to move from, as in 'from 3'"
    assert why(full, MoveCommand(run("Ac"), 10)) == "say where to: 'to PILE'"


def test_writes_the_manual_notation() -> None:
    assert move_text(GAME, Move(2, 9, 3)) == "8-6s from 3 to 10"
    assert move_text(GAME, Move(6, 5, 1)) == "Kc from 7 to 6"
    assert move_text(GAME, Move(0, 9, 2)) == "Kd-7h from 1 to 10"
    assert move_text(GAME, Remove(7)) == "remove the spades from 8"
    assert move_text(GAME, Remove(5)) == "remove 6"
    assert move_text(GAME, DEAL) == "deal"
    with pytest.raises(IllegalMoveError, match=r"^pile 7 has only 1 face-up card$"):
        move_text(GAME, Move(6, 5, 2))


# ---------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), suits=st.sampled_from([1, 2, 4]), data=st.data())
def test_every_legal_action_reads_back(seed: int, suits: int, data: st.DataObject) -> None:
    game = Game.new(seed, suits)
    for _ in range(data.draw(st.integers(0, 60), label="plies")):
        actions = game.legal_moves()
        if not actions:
            break
        game.push(data.draw(st.sampled_from(actions)))
    for action in game.legal_moves():
        command = parse_command(move_text(game, action))
        assert command is not None
        assert resolve(game, command) == action  # type: ignore[arg-type]


def test_a_complete_suit_reads_back() -> None:
    game = table("Kh Qh Jh 10h 9h 8h 7h 6h 5h 4h 3h 2h Ah", "Ks")
    assert move_text(game, Remove(0)) == "remove the hearts from 1"
    assert resolve(game, parse_command("remove the hearts from 1")) == Remove(0)


def _card_text(rank: int, suit: str, case: str) -> str:
    name = RANK_NAMES[rank]
    return (name if case == "upper" else name.lower()) + suit


_SUITS = st.sampled_from(list("shdcSHDC♠♥♦♣♤♡♢♧"))
_CASE = st.sampled_from(["upper", "lower"])
_CARD = st.builds(_card_text, st.integers(1, 13), _SUITS, _CASE)


@st.composite
def _runs(draw: st.DrawFn) -> str:
    """Runs that go down, as the manual writes them: "8-6s", "Jc-3h", "10-Ac"."""
    bottom = draw(st.integers(1, 12))
    top = draw(st.integers(bottom + 1, 13))
    top_suit = draw(st.one_of(st.just(""), _SUITS))
    return f"{_card_text(top, top_suit, draw(_CASE))}-{_card_text(bottom, draw(_SUITS), 'upper')}"


def _sentences() -> st.SearchStrategy[str]:
    """Sentences of the real grammar, with spaces around every token (lark's lexer needs them
    where two tokens would otherwise run together, as "3 10" does)."""
    parser = grammar.build("commands.lark")
    explicit = {
        t.name: st.from_regex(t.pattern.to_regexp(), fullmatch=True)
        for t in parser.terminals
        if t.name not in parser.ignore_tokens
    }
    # Numbers from 1 to 10: every pile, count and limit the grammar takes is then one that
    # makes sense (0 positions or 11 spaces are refused with a reason, tested apart).
    explicit |= {"CARD": _CARD, "RUN": _runs(), "NUMBER": st.integers(1, 10).map(str)}
    return from_lark(parser, explicit={k: s.map(" {} ".format) for k, s in explicit.items()})


@settings(max_examples=200, deadline=None)
@given(_sentences())
def test_every_sentence_of_the_grammar_reads(sentence: str) -> None:
    tree = command_parser().parse(sentence)
    try:
        command = parse_command(sentence)  # read with no tree
    except NotationError as error:  # the one sentence the grammar reads that says nothing:
        assert "cannot hold with it" in error.message  # "remove clubs, no remove clubs"
    else:
        assert command == _placed_reader().transform(tree)  # the same as from the tree


_WORDS = [
    "8-6s",
    "8-6",
    "6-8s",
    "Jc-3h",
    "As",
    "1x",
    "3",
    "10",
    "11",
    "from",
    "to",
    "onto",
    "into",
    "a",
    "the",
    "space",
    "column",
    "in",
    "move",
    ">",
    ".",
    "#",
    "(",
    ")",
    "(x)",
    "remove",
    "spades",
    "s",
    "new",
    "suits",
    "2",
    "undo",
    "assume",
    "locate",
    "K",
    "load",
    "'a b'",
    "'",
    '"',
    "set",
    "on",
    "help",
    "deal",
    "d",
    "quit",
    "-",
    "\n",
    "\t",
    "",
    "\x00",
    "♠",
]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(st.sampled_from(_WORDS)).map(" ".join)))
def test_any_text_reads_or_raises_a_notation_error(text: str) -> None:
    try:
        parse_command(text)
    except NotationError as error:
        assert error.message and error.line == 1 and error.column >= 1
        assert error.context.endswith("^")


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("solve win, limit 0", 12, "the limit is a number of positions: 1 or more"),
        ("solve get a space, keep 11 spaces", 20, "there are only 10 piles"),
        (
            "solve remove hearts then clubs, no remove clubs",
            33,
            "the goal removes the clubs: 'no remove clubs' cannot hold with it",
        ),
    ],
)
def test_solve_refuses_constraints_that_make_no_sense(line: str, column: int, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line)
    assert caught.value.column == column and message in caught.value.message


def test_solve_reads_a_time() -> None:
    command = parse_command("solve get a space, no deal, within 20 seconds")
    assert command.constraints.seconds == 20 and command.constraints.no_deal
    assert parse_command("solve win within 1 sec").constraints.seconds == 1
    with pytest.raises(NotationError) as caught:
        parse_command("solve win, within 0 seconds")
    assert caught.value.column == 12 and "1 or more" in caught.value.message


def test_solve_reads_a_card_to_free() -> None:
    command = parse_command("solve free the 6s, no deal, keep 1 space")
    assert command.goal == Goal("free", card=int(Card.parse("6s")))
    assert command.constraints.keep_spaces == 1


# ---------------------------------------------------------------------------------------------
# The table of commands


def test_the_words_that_start_a_command_are_the_words_of_the_table_of_commands() -> None:
    parser = command_parser()
    starts = {
        parser.get_terminal(name)
        for name in parser.parse_interactive("").accepts()
        if name != "$END"
    }
    words = {t.pattern.value.lower() for t in starts if t.pattern.type == "str"}
    assert words == {*WORDS, ":"}  # a leading ':' is allowed before any of them


def test_help_lists_every_command_of_the_table_and_every_topic() -> None:
    overview = help_text()
    for word, info in WORDS.items():
        assert all(line in overview for line in info.overview), word
        assert info.group or word in ("from", "exit", "history", *"dhnoqru")  # second spellings
    listed = [topic for topic in TOPICS if topic != "commands"]  # (the list is this one)
    assert WORDS["help"].overview == (f"help [{'|'.join(listed)}]",)


def test_help_on_a_slip_of_a_topic_shows_the_topic_and_says_so() -> None:
    assert help_text("notatoin") == "(taken as 'help notation')\n" + help_text("notation")
    assert help_text("xyzzy").startswith("no help on 'xyzzy'; topics: rules, notation")


@pytest.mark.parametrize("word", [w for w, info in WORDS.items() if info.takes])
def test_a_command_that_does_not_read_says_what_it_takes(word: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(f"{word} ) x")
    assert caught.value.message == WORDS[word].takes


@pytest.mark.parametrize(
    "words",
    [
        "win",
        "remove hearts then clubs, no deal",
        "get a space for each reveal, limit 500",
        "turn up a card in pile 10, keep 1 space  # a remark",
        "free the 6s, no remove, within 3 seconds",
    ],
)
def test_a_question_reads_as_the_solve_command_with_its_words(words: str) -> None:
    """`spider solve FILE WORDS...` reads the words on their own (no command is built)."""
    assert parse_question(words) == parse_command(f"solve {words}")


def test_a_question_that_does_not_read_says_where() -> None:
    with pytest.raises(NotationError) as caught:
        parse_question("get a space, keep 12 spaces")
    assert (caught.value.line, caught.value.column) == (1, 14)


@pytest.mark.parametrize(
    ("words", "column"), [("remove hearts, no dael", 19), ("remove hearts, limt 5", 16)]
)
def test_a_question_is_explained_as_solve_not_as_its_first_word(words: str, column: int) -> None:
    """A question that starts with "remove" is not the remove command: its error gives the
    usage of solve, at the word in the question's own text."""
    with pytest.raises(NotationError) as caught:
        parse_question(words)
    assert caught.value.message.startswith("solve takes a goal and constraints")
    assert caught.value.column == column
    assert caught.value.context == f"{words}\n{' ' * (column - 1)}^"


@pytest.mark.parametrize(
    ("word", "run"),
    [("8-6s", RunSpec(8, None, Card.parse("6s"))), ("As", RunSpec(1, 0, Card.parse("As")))],
)
def test_a_word_of_a_move_reads_as_its_run(word: str, run: RunSpec) -> None:
    assert read_run(word) == run
    assert read_run("6-8s") is None and read_run("Zz") is None
