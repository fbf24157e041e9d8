"""Other programs' numbered deals (spider_cli.rules.deals), pinned against their own vectors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spider_cli.rules.cards import Card, card_text
from spider_cli.rules.deals import (
    KPAT_MAX,
    PYSOL_LC_LIMIT,
    DealSource,
    Source,
    deal_name,
    kpat_deal,
    kpat_deck,
    kpat_shuffle,
    pysol_card,
    pysol_card_ids,
    pysol_deal,
)
from spider_cli.rules.engine import Game
from spider_cli.rules.errors import NotationError
from spider_cli.rules.layout import position_code


def texts(words: str) -> list[str]:
    """Cards written as the other programs write them (TC, AH) in our own text (10c, Ah)."""
    return [card_text(Card.parse(word)) for word in words.split()]


def pysol_texts(number: int) -> list[str]:
    return [card_text(pysol_card(i)) for i in pysol_card_ids(number)]


# ---------------------------------------------------------------------------------------------
# PySolFC: the 104-card shuffle, against published two-deck deals


# shlomif/fc-solve, fc-solve/source/t/t/board-gen.t, test "gypsy 200"
# (make_pysol_freecell_board.py -t 200 gypsy; pysol-cards' deal_game prints the same).
# Gypsy deals the same two suit-ordered decks from the same talon: two face-down rows and one
# face-up row round eight columns, then the rest stays in the talon in dealing order.
GYPSY_200_COLUMNS = [
    "3S 7H 7D",
    "5H 8D 8S",
    "TS 4S 6D",
    "AS QD QH",
    "9H 8H 5S",
    "7S KS KC",
    "6H 3C 5D",
    "7C TS KH",
]
GYPSY_200_TALON = (
    "9C AD 6S KH 8D 3D TC QC AD QC 7S AH 6C QH 8S 5C KD 4H 2D 8C JD 9S 7H 4C JS JH 9D JC "
    "4D 9S AC QS 5S KS TD 2H 4H KC TC 2C JD 3H 3D KD 7C 9C 8C 6D 4C 3S TH 2S 5D 7D 6H TH "
    "8H JS 6S 2C 4S 3C JH 2D TD 3H 5C QS AH AC 4D 5H 2H 2S JC 9D AS QD 9H 6C"
)


def test_pysol_lc_shuffle_matches_gypsy_200() -> None:
    """Game numbers below 32000: LCRandom31 over 104 cards (no FreeCell rearranging)."""
    columns = [texts(column) for column in GYPSY_200_COLUMNS]
    dealt = [columns[k % 8][k // 8] for k in range(24)]
    assert pysol_texts(200) == dealt + texts(GYPSY_200_TALON)


# shlomif/pysol_cards, tests/test_pysol_cards.py, test_pysolfc_binary_star
# (make_pysol_freecell_board.py -F -t 240000 binary_star). Binary Star takes the first
# deck's Ace of spades and King of hearts (ids 13 and 38) out to the foundations, then deals
# the other 102 cards round 17 columns.
BINARY_STAR_240000 = """\
5H 6H 2C QD 4H 4C
2S KH 5D 9D 4H 6C
KC KS 5S TS QD TH
JH QH 5D 6H 7H 7H
7D QS QC JS TH AH
AD 9D 2S 7S 6D JD
AH KD 2C 3H 3S 8H
TD 8H 7C 4S JC 7C
8S AC 4S 3C QC 9S
KC KS 9C JD AS 9C
2H 7D TC 4D 9H 8C
QS 7S 6D 3D 6C TD
4C 5H 5C 5S JS 3H
9S 5C TS 2H 4D 3S
KD AC QH 6S 3D 3C
2D 8C 6S 8D TC 9H
8D 8S JH JC AD 2D
"""


def test_pysol_mt_shuffle_matches_binary_star_240000() -> None:
    """Game numbers from 32000 up: Python's Mersenne Twister over 104 cards."""
    rest = [i for i in pysol_card_ids(240000) if i not in (13, 38)]
    assert (pysol_card(13), pysol_card(38)) == (Card.parse("As"), Card.parse("Kh"))
    columns = [[card_text(pysol_card(i)) for i in rest[j::17]] for j in range(17)]
    assert columns == [texts(line) for line in BINARY_STAR_240000.splitlines()]


def _lc_ids(number: int) -> list[int]:
    """The LCRandom31 shuffle as PySolFC's pysolrandom.py states it, written out here."""
    ids, seed = list(range(104)), number
    for n in range(103, 0, -1):
        seed = (seed * 214013 + 2531011) & ((1 << 33) - 1)
        j = ((seed >> 16) & 0x7FFF) % (n + 1)
        ids[n], ids[j] = ids[j], ids[n]
    return ids[::-1]


def _mt_ids(number: int) -> list[int]:
    """The Mersenne Twister shuffle: j = int(random() * (n + 1)), from the end."""
    ids, rng = list(range(104)), random.Random(number)
    for n in range(103, 0, -1):
        j = int(rng.random() * (n + 1))
        ids[n], ids[j] = ids[j], ids[n]
    return ids[::-1]


@pytest.mark.parametrize("number", [1, 2, 14934, PYSOL_LC_LIMIT - 1])
def test_pysol_low_numbers_use_lcrandom31(number: int) -> None:
    assert pysol_card_ids(number) == _lc_ids(number)


@pytest.mark.parametrize("number", [PYSOL_LC_LIMIT, 32001, 240000, 10**19])
def test_pysol_high_numbers_use_mersenne_twister(number: int) -> None:
    assert pysol_card_ids(number) == _mt_ids(number)


def test_pysol_deck_is_two_suit_ordered_decks() -> None:
    assert [card_text(pysol_card(i)) for i in range(14)] == texts(
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS"
    )
    assert sorted(map(pysol_card, range(104))) == sorted(
        Card.of(rank, suit) for _ in range(2) for suit in range(4) for rank in range(1, 14)
    )


def test_pysol_spider_layout() -> None:
    """pysollib/games/spider.py: four rows of ten face down, a fifth on piles 1, 4, 7, 10,
    a row face up, the hand ten at a time, all from the top of the talon."""
    order = [int(pysol_card(i)) for i in pysol_card_ids(14934)]
    deal = pysol_deal(14934)
    assert deal.down == (5, 4, 4, 5, 4, 4, 5, 4, 4, 5)
    assert [pile[:4] for pile in deal.piles] == [tuple(order[j:40:10]) for j in range(10)]
    assert [deal.piles[i][4] for i in (0, 3, 6, 9)] == order[40:44]
    assert [pile[-1] for pile in deal.piles] == order[44:54]
    assert list(deal.hand) == order[54:]


@pytest.mark.parametrize("suits", [1, 2])
def test_pysol_fewer_suits_relabel_the_same_deal(suits: int) -> None:
    """PySolFC's 1- and 2-suit Spider shuffle the same ids; only the suit slots differ
    (clubs played as spades)."""
    four, other = pysol_deal(31999, 4), pysol_deal(31999, suits)
    assert [[Card(c).rank for c in p] for p in other.piles] == [
        [Card(c).rank for c in p] for p in four.piles
    ]
    expected = {1: {0}, 2: {0, 1}}[suits]
    assert {Card(c).suit for p in other.piles for c in p} | {Card(c).suit for c in other.hand} == (
        expected
    )
    assert [card_text(pysol_card(i, 2)) for i in (0, 13, 26, 39)] == ["As", "As", "Ah", "Ah"]


# Our own pins of whole Spider deals, to notice any change (derived by this code from the
# vectors above and the dealing order in spider.py; no published Spider vector exists).
PINNED = {
    "pysol:14934": "spider:4/[6dAhTh9s9c6cAc6s9d4c5d9h6d8d9cKdAsTdQhJsJc4h2s6s7hTcKh8d8hAd5h2c2d"
    "4s8sAcTs7h5h7c9dKcAdQdJcJd7s7d9sQs]/-/[Ts3cKs4cJh]:5s/[2h4hKc3h]:Kh/[4s3hTc4d]:2h/"
    "[QdQh7c7sQc]:2d/[3d8c8s2s]:Jh/[TdTh3s3c]:6h/[9h3d7d5cQs]:6h/[As4d3s8c]:2c/[Js8h6cQc]:Kd/"
    "[JdAh5c5sKs]:5d",
    "kpat:1": "spider:4/[KcQc7d5c4dAhTd4h6dTdAh5hTcTs2d2cJh6sQs3cQs2c5s8c9hAd7c7h3dKd9cKhKs6hQc"
    "5sKh6hJs7dAc5h5dAsJc8cJsThAdJd]/-/[Jd4dKsQd4s]:7c/[8h2s7s6d3c]:3s/[3h2dKc9dQd]:2h/"
    "[Th8s6cTc5c]:4s/[5d3dAcJh]:9d/[8hQh2hJc]:9s/[4cAs7s8s]:7h/[4c6sTs9s]:3h/[Qh3s9h2s]:8d/"
    "[Kd8d6c4h]:9c",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_deals(name: str) -> None:
    assert position_code(DealSource.parse(name).game()) == PINNED[name]


# ---------------------------------------------------------------------------------------------
# KPatience


# KDE/kpat, autotests/shuffle_test.cpp: one deck in KPatience's order, and its shuffles.
KPAT_INPUT = (
    "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S "
    "8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS"
)
KPAT_SHUFFLED = {
    1: "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS 5C 4C "
    "3C AH AS JS QD 9D KS 2S 3H KH QC AD 5S 9S KC KD 5H 7C 7H 5D JC 9H 2D JD",
    24: "AS 3D QD 2H 9D JD 7C 8D 6D KS 4H 4S 8S 8H KC TD JH 3S 3H QS 4D AD TS TC 5C 9H AC 8C "
    "7D 6S KH TH JC 6H 3C 9C 6C 5S JS KD 2S 9S QH 2C 7S AH 7H 2D 5D QC 5H 4C",
    3000000000: "9S AS 3C JC 5S 3S 7D 2C 6S KD TC JD 2D 6D QD KC KS 5C 4S JH 5H AC 7S 3D 4H 4C "
    "AD TD 2H 8H QC 7H 8S QH TH JS AH 3H 7C 2S 5D KH QS TS 8C 6C 9C 6H 9D 9H 4D 8D",
    6000000000: "AC JD QD 4C 8H 4S 6C 3S 5D JC 6H 8C 7D 9S 7S 3C TC JH TS KD TH KC 5S 7H AS 6S "
    "4H 8D 8S 2S 9D 9C KS AD 2H QS QC 5H 9H 7C 3H JS AH 2C 6D 5C QH TD KH 4D 3D 2D",
}


@pytest.mark.parametrize("seed", sorted(KPAT_SHUFFLED))
def test_kpat_shuffle_vectors(seed: int) -> None:
    assert kpat_shuffle(KPAT_INPUT.split(), seed) == KPAT_SHUFFLED[seed].split()


def test_kpat_deck_is_rank_major() -> None:
    four = [card_text(c) for c in kpat_deck(4)]
    assert four[:52] == four[52:] == texts(KPAT_INPUT)
    assert {Card(c).suit for c in kpat_deck(2)} == {0, 1}
    assert {Card(c).suit for c in kpat_deck(1)} == {0}


def test_kpat_spider_layout() -> None:
    """src/spider.cpp: cards from the end of the shuffled list; 44 face down round the piles,
    ten face up continuing from pile 5, five stacks of ten each dealt from its top."""
    order = kpat_shuffle(kpat_deck(2), 77)[::-1]
    deal = kpat_deal(77, suits=2)
    assert deal.down == (5, 5, 5, 5, 4, 4, 4, 4, 4, 4)
    assert [pile[: deal.down[j]] for j, pile in enumerate(deal.piles)] == [
        tuple(order[j:44:10]) for j in range(10)
    ]
    assert [deal.piles[(4 + i) % 10][-1] for i in range(10)] == order[44:54]
    assert list(deal.hand[:10]) == order[54:64][::-1]
    assert list(deal.hand[40:]) == order[94:104][::-1]


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_kpat_suit_variants_share_the_shuffle(suits: int) -> None:
    """The variants differ only in the suits: KPatience keeps four suit slots per rank."""
    four, other = kpat_deal(9, 4), kpat_deal(9, suits)
    assert [len(p) for p in other.piles] == [len(p) for p in four.piles]
    ranks = [[Card(c).rank for c in pile] for pile in four.piles]
    assert [[Card(c).rank for c in pile] for pile in other.piles] == ranks


# ---------------------------------------------------------------------------------------------
# Naming deals and building games


@settings(deadline=None)
@given(st.sampled_from(list(Source)), st.integers(1, KPAT_MAX), st.sampled_from([1, 2, 4]))
def test_deal_source_round_trips(source: Source, number: int, suits: int) -> None:
    deal = DealSource(source, number, suits)
    assert DealSource.parse(str(deal), suits) == deal


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pysol:14934", DealSource(Source.PYSOL, 14934)),
        (" PySol : 7 ", DealSource(Source.PYSOL, 7)),
        ("kpat:1", DealSource(Source.KPAT, 1)),
        ("42", DealSource(Source.OURS, 42)),
    ],
)
def test_parse_deal_source(text: str, expected: DealSource) -> None:
    assert DealSource.parse(text) == expected
    assert DealSource.is_deal_name(text) == (expected.source is not Source.OURS)


@pytest.mark.parametrize(
    ("text", "suits", "message"),
    [
        ("pysol:0", 4, "PySolFC deal numbers run from 1"),
        ("kpat:0", 4, "KPatience deal numbers run from 1"),
        ("kpat:2147483648", 4, "to 2147483647"),
        ("freecell:5", 4, "is not a deal"),
        ("pysol:", 4, "is not a deal"),
        ("7", 3, "1, 2 or 4 suits"),
        ("pysol:" + "9" * 30, 4, "too big"),
        (str(2**64), 4, f"deal numbers run from 0 to {2**64 - 1}, not {2**64}"),
    ],
)
def test_bad_deal_names(text: str, suits: int, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        DealSource.parse(text, suits)


@settings(deadline=None)
@given(
    st.one_of(
        st.builds(
            lambda n, s: DealSource(Source.PYSOL, n, s),
            st.integers(1, 10**12),
            st.sampled_from([1, 2, 4]),
        ),
        st.builds(
            lambda n, s: DealSource(Source.KPAT, n, s),
            st.integers(1, KPAT_MAX),
            st.sampled_from([1, 2, 4]),
        ),
    )
)
def test_deal_games_know_every_card(deal: DealSource) -> None:
    game = deal.game()
    assert game.suits == deal.suits and len(game.hand) == 50
    assert game.down == list(deal.layout().down)
    cards = [c for pile in game.piles for c in pile] + game.hand
    assert 0 not in cards and sorted(cards) == sorted(kpat_deck(deal.suits))


def test_our_deals_by_name() -> None:
    deal = DealSource.parse("7", suits=2)
    assert deal.game().key() == Game.new(7, 2).key()
    layout = deal.layout()
    assert layout.to_game(2).key() == Game.new(7, 2).key()


# ---------------------------------------------------------------------------------------------
# Naming another program's deal wherever a deal is named: the prompt, game files, the CLI


def test_new_at_the_prompt_reads_other_programs_deals() -> None:
    from spider_cli.language.commands import NewCommand
    from spider_cli.language.notation import parse_command

    assert parse_command("new pysol:14934") == NewCommand(14934, None, Source.PYSOL)
    assert parse_command("NEW Kpat:7 suits 2") == NewCommand(7, 2, Source.KPAT)
    assert parse_command("new 17 suits 2") == NewCommand(17, 2)  # ours, as before
    assert parse_command("new") == NewCommand()


def test_session_plays_another_programs_deal_and_saves_it(tmp_path: Path) -> None:
    from spider_cli.app.session import Session

    session = Session.new_game(seed=0)
    assert session.execute("new pysol:14934").text == "deal pysol:14934, 4 suits"
    assert session.game.key() == DealSource(Source.PYSOL, 14934).game().key()
    assert session.describe_start() == "deal pysol:14934, 4 suits"
    move = session.choices()[0].text
    session.execute(move)
    session.execute(f"save {tmp_path / 'g.spider'}")
    saved = (tmp_path / "g.spider").read_text(encoding="utf-8")
    assert "\nnew pysol:14934 suits 4\n" in saved
    again = Session.new_game(seed=0)
    again.load(tmp_path / "g.spider")
    assert again.game.key() == session.game.key() and again.game.moves_made == 1
    again.restart()
    assert again.game.key() == DealSource(Source.PYSOL, 14934).game().key()
    kpat = Session.new_game(DealSource(Source.KPAT, 7, 2))
    assert kpat.game.key() == kpat_deal(7, 2).to_game(2).key()
    with pytest.raises(NotationError, match="from 1 to"):
        session.execute("new kpat:0")
    assert session.describe_start() == "deal pysol:14934, 4 suits"  # unchanged by the error


def test_a_plain_new_keeps_our_own_deals() -> None:
    from spider_cli.app.session import Session

    session = Session.new_game(seed=0)
    session.execute("new 17 suits 2")
    assert session.game.key() == Game.new(17, 2).key()
    assert session.new(DealSource(Source.OURS, 17, 2)).origin == session.origin


def test_our_deal_numbers_end_where_the_shuffle_would_deal_them_again(tmp_path: Path) -> None:
    """The shuffle takes its seed mod 2**64: deal 2**64 would be deal 0 by another name."""
    from spider_cli.app.session import Session
    from spider_cli.rules.shuffle import SplitMix64

    assert SplitMix64(2**64).next() == SplitMix64(0).next()  # the generator wraps: Game.new,
    with pytest.raises(ValueError, match=f"from 0 to {2**64 - 1}, not {2**64}"):  # refuses it
        Game.new(2**64)
    session = Session.new_game(seed=5)
    for line in (f"new {2**64}", f"new {2**64} suits 2", f"new {10**20 - 1} winnable"):
        with pytest.raises(NotationError, match=f"from 0 to {2**64 - 1}, not "):
            session.execute(line)
    assert session.describe_start() == "deal 5, 4 suits"  # the game goes on
    assert session.execute(f"new {2**64 - 1}").text == f"deal {2**64 - 1}, 4 suits"
    game_file = tmp_path / "g.spider"
    game_file.write_text(f"# spider game file, version 1\nnew {2**64} suits 4\n")
    with pytest.raises(NotationError, match="from 0 to") as caught:
        session.load(game_file)
    assert caught.value.line == 2


def test_cli_seed_names_any_deal(capsys: pytest.CaptureFixture[str]) -> None:
    from spider_cli.cli.main import main

    assert main(["solve", "--seed", "kpat:3", "--suits", "1", "--limit", "300"]) == 3
    assert capsys.readouterr().out.startswith("deal kpat:3, 1 suit: no win found")
    assert main(["solve", "--seed", "3", "--suits", "1", "--limit", "300"]) == 3
    assert capsys.readouterr().out.startswith("deal 3, 1 suit: ")
    assert main(["solve", "--seed", "pysol:x"]) == 2
    assert "'pysol:x' is not a deal" in capsys.readouterr().err
    assert main(["--seed", "pysol:0"]) == 2
    assert "PySolFC deal numbers run from 1" in capsys.readouterr().err


def test_bench_reads_ranges_of_any_programs_deals() -> None:
    from spider_cli.analysis.bench.full import MAX_DEALS, parse_deals
    from spider_cli.rules.errors import QuestionError

    assert parse_deals("pysol:1-3", 4) == [DealSource(Source.PYSOL, n) for n in (1, 2, 3)]
    assert parse_deals("KPAT:7", 2) == [DealSource(Source.KPAT, 7, 2)]
    assert parse_deals("0-1", 1) == [DealSource(Source.OURS, n, 1) for n in (0, 1)]
    for bad in ("x", "pysol:", "pysol:1-", "1-2-3", "kpat:-4"):
        with pytest.raises(QuestionError, match="written as"):
            parse_deals(bad, 4)
    with pytest.raises(QuestionError, match="empty"):
        parse_deals("pysol:5-3", 4)
    with pytest.raises(QuestionError, match="at most"):
        parse_deals(f"pysol:1-{MAX_DEALS + 1}", 4)
    with pytest.raises(NotationError, match="from 1 to"):
        parse_deals("pysol:0-3", 4)
    with pytest.raises(NotationError, match=f"from 0 to {2**64 - 1}, not {2**64}"):
        parse_deals(f"{2**64 - 2}-{2**64}", 4)
    with pytest.raises(QuestionError) as long:  # a long word is quoted by its start
        parse_deals("x" * 300, 4)
    assert str(long.value).endswith(f"not '{'x' * 30}…'")


def test_one_reader_of_deal_names_serves_the_notation_the_command_line_and_benchmarks() -> None:
    assert deal_name(" PySol : 14934 ") == (Source.PYSOL, "14934")
    assert deal_name("kpat:1-100") == (Source.KPAT, "1-100")
    assert deal_name("7") == (Source.OURS, "7")
    assert deal_name("freecell:7") is None
    from spider_cli.analysis.bench.full import parse_deals
    from spider_cli.language.commands import NewCommand
    from spider_cli.language.notation import parse_command

    command = parse_command("new kpat:7")
    assert isinstance(command, NewCommand)
    assert (command.source, command.seed) == (Source.KPAT, 7)
    assert parse_deals("kpat:7", 4) == [DealSource.parse("kpat:7")]
