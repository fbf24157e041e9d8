"""The searches' findings in a player's words: a ``solve`` answer, full-information play,
a ``for each reveal`` report. The searches return data (as python-chess's engine returns a
``PlayResult``, never a sentence); what a player reads is written here."""

from __future__ import annotations

from spider_cli.analysis import (
    FOUND_FIRST,
    FOUND_LAST,
    Answer,
    Contingency,
    EachReveal,
    Ground,
    Halt,
    Halted,
    HeldRank,
    PlayResult,
    Proof,
    Report,
    Stage,
    Verdict,
)
from spider_cli.analysis.memory import VARIABLE as MEMORY_VARIABLE
from spider_cli.rules.cards import KING, RANK_NAMES, RANK_WORDS, SUIT_NAMES, card_text
from spider_cli.rules.goals import Goal, GoalKind


def report_text(report: Report) -> str:
    """What a ``solve`` question says: the goal and the answer, full-information play's
    result, or the report for each card a face-down card could be."""
    found = report.found
    if isinstance(found, EachReveal):
        return contingency_text(report.goal, found.prefix, found.found)
    if isinstance(found, PlayResult):
        return play_text(found)
    return f"{goal_text(report.goal)}: {answer_text(found)}"


def answer_summary(answer: Answer) -> str:
    """One line: the verdict and the work behind it."""
    work = f"{answer.positions:,} position{'s' if answer.positions != 1 else ''} examined"
    if answer.seconds is not None:
        work += f" in {answer.seconds:.2f} s"
    if answer.status is Verdict.POSSIBLE:
        moves = len(answer.texts)
        return f"possible in {moves} move{'s' if moves != 1 else ''} ({work})"
    if answer.status is Verdict.IMPOSSIBLE and answer.reason is not None:
        return f"impossible: {proof_text(answer.reason)}"
    if answer.status is Verdict.IMPOSSIBLE and answer.reachable == 1:
        return (
            "impossible: the one position reachable over the known cards does not meet "
            f"the goal ({work}, the quick searches' included)"
        )
    if answer.status is Verdict.IMPOSSIBLE and answer.reachable:
        return (
            f"impossible: the {answer.reachable:,} positions reachable over the known cards "
            f"were all examined and none meets the goal ({work}, the quick searches' "
            "included)"
        )
    if answer.status is Verdict.IMPOSSIBLE:
        return f"impossible: every position reachable over the known cards was examined ({work})"
    shortest = ""
    if answer.depth:
        shortest = (
            f"; no line of {answer.depth} move{'s' if answer.depth != 1 else ''} or fewer exists"
        )
    halted = halted_text(answer.limit) if answer.limit is not None else ""
    return f"unknown: {halted}{shortest} ({work})"


def halted_text(halted: Halted) -> str:
    """Where a search stopped, as the answer says it."""
    if halted.why is Halt.SECONDS:
        return f"stopped within the {halted.seconds:g} s asked for"
    if halted.why is Halt.MEMORY:
        return (
            f"stopped at the memory ceiling of {halted.positions:,} positions "
            f"(about {halted.megabytes:,} MB; {MEMORY_VARIABLE} sets it)"
        )
    if halted.why is Halt.LIMIT:
        return f"stopped at the limit of {halted.positions:,} positions"
    return f"stopped at {halted.positions:,} positions"


def proof_text(proof: Proof) -> str:
    """Why a goal is out of reach, as the proof says it."""
    ground, pile, count = proof.ground, proof.pile + 1, proof.count
    where = " on the table" if proof.on_table else ""
    if ground is Ground.TOO_FEW_SPACES:
        return (
            f"at most {count} pile{'s' if count != 1 else ''} can ever be "
            f"empty (the others have unknown face-down cards), not the {proof.keep} to keep"
        )
    if ground is Ground.PILE_NOT_DOWN:
        return f"pile {pile} has no face-down card"
    if ground is Ground.NONE_DOWN:
        return "no pile has a face-down card"
    if ground is Ground.NONE_CAN_EMPTY:
        return "every pile that is not a space has an unknown face-down card"
    if ground is Ground.PILE_UNKNOWN:
        return f"pile {pile} has an unknown face-down card"
    if ground is Ground.PILE_KEPT:
        return f"pile {pile} has a face-down card, and 'no turn up' keeps it there"
    if ground is Ground.CARD_UNKNOWN:
        return f"the {card_text(proof.card)} is not among the known cards{where}"
    if ground not in (Ground.SUIT_SHORT, Ground.SETS_SHORT):
        return counted_text(proof)
    short = join([card_text(card) for card in proof.cards], "and")
    suit = SUIT_NAMES[proof.suit]
    if ground is Ground.SUIT_SHORT:
        return (
            f"the {short} {'is' if len(proof.cards) == 1 else 'are'} not among "
            f"the known cards{where}, so the {suit} cannot be completed"
        )
    return (
        f"{count} sets of {suit} need {count} of each card, and "
        f"the known cards{where} have fewer of the {short}"
    )


def counted_text(proof: Proof) -> str:
    """The counting argument's proof: the count fails (at the moments it was made)."""
    named = [
        f"the {card_text(card)} of pile {pile + 1}"
        for card, pile in zip(proof.cards, proof.piles, strict=True)
    ]
    when = ""
    if proof.ground is Ground.COUNTED_IN_EVERY_ORDER:
        when = "just before each card first moves, in every order of those moves"
    elif proof.ground is Ground.COUNTED_AT_MOMENTS and not named:
        when = "at the end of the line"
    elif proof.ground is Ground.COUNTED_AT_MOMENTS and len(named) == 1:
        when = f"at the end of the line and just before {named[0]} first moves (if it does)"
    elif proof.ground is Ground.COUNTED_AT_MOMENTS:
        when = (
            f"at the end of the line and just before each of {join(named, 'and')} first "
            f"moves (in any order, if they do)"
        )
    counted = f", counted {when}" if when else ""
    examined = proof.count
    return (
        f"however the cards are played, the moved cards would need more cards one rank "
        f"higher and spaces to lie on than the tableau can offer{counted} (a counting "
        f"argument over {examined:,} choice{'s' if examined != 1 else ''} of the cards that "
        f"never move)"
    )


def join(words: list[str], last: str = "or") -> str:
    """Words as a list is said: "a, b or c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def answer_text(answer: Answer) -> str:
    """The verdict, then the line numbered one move a line."""
    lines = [answer_summary(answer)]
    if answer.only_pile is not None:
        lines.append(
            f"  (only pile {answer.only_pile + 1} can be the first to turn up a card: the "
            "counting argument rules out the others)"
        )
    for k, move in enumerate(answer.texts, start=1):
        lines.append(f"  {k:>2}. {move}")
    if answer.reveal is not None:
        lines.append(f"  (the last move turns up an unknown card in pile {answer.reveal})")
    return "\n".join(lines)


def play_text(result: PlayResult) -> str:
    """Full-information play's result: won with the line, proved unwinnable, or neither."""
    timed = f" in {result.seconds:.2f} s" if result.seconds is not None else ""
    if result.proved:
        reason = (
            "the complete search examined every reachable position"
            if result.held is None
            else held_text(result.held)
        )
        return f"proved unwinnable: {reason} ({result.positions:,} positions{timed})"
    how = {
        Stage.BEAM: f"beam width {result.width}",
        Stage.PORTFOLIO: f"beam width {result.width}, {tie_text(result.ties)}",
        Stage.COMPLETE: "the complete search",
        Stage.PROOF: "the proof by a held rank",
    }[result.stage]
    work = f"{result.positions:,} positions{timed}, {how}"
    if not result.won:
        return f"no win found within the limits ({work}; not a proof that none exists)"
    lines = [f"won in {len(result.texts)} moves ({work})"]
    lines.extend(f"  {k:>3}. {t}" for k, t in enumerate(result.texts, start=1))
    return "\n".join(lines)


def held_text(held: HeldRank) -> str:
    """The proof by a held rank: why its cards never turn up."""
    rank, below = RANK_NAMES[held.rank], RANK_NAMES[held.rank - 1]
    if held.rank == KING:
        blockers = f"a {below}"
    elif held.rank == 1:
        blockers = "a King"
    else:
        blockers = f"a King or a {below}"
    if held.positions == 1:
        where = f"every {rank} lies face down beneath {blockers}, and every pile holds one"
    else:
        where = (
            f"whatever is played ({held.positions:,} positions), every {rank} comes to "
            f"lie face down beneath {blockers}, and every pile to hold one, before a "
            f"{rank} is turned up"
        )
    return (
        f"{where}: these cannot move until a {rank} is turned up or a pile emptied, so "
        "neither ever happens, and no suit can be removed"
    )


def tie_text(ties: int) -> str:
    """How a beam broke ties in its ranking, in words."""
    if ties == FOUND_FIRST:
        return "ties to the move found first"
    if ties == FOUND_LAST:
        return "ties broken the other way"
    return f"ties shuffled ({ties})"


def contingency_text(goal: Goal, prefix: Answer | None, found: list[Contingency]) -> str:
    """The report of :func:`contingencies`, the manual's way: "if it's a Jack, 4 or King..."."""
    lines = []
    if prefix is not None:
        if not found:
            return "no line over the known cards turns up a card: " + answer_summary(prefix)
        lines.append("first, to turn up a card: " + ", ".join(prefix.texts[:-1]))
    for item in found:
        _yes, total = item.share(Verdict.POSSIBLE)
        lines.append(
            f"{item.text} turns up a card in pile {item.pile} "
            f"({total} unknown card{'s' if total != 1 else ''} it could be):"
        )
        pool = {card: n for card, n, _a in item.outcomes}
        for status, verb in (
            (Verdict.POSSIBLE, "possible"),
            (Verdict.IMPOSSIBLE, "impossible"),
            (Verdict.UNKNOWN, "unknown (search limit)"),
        ):
            cards = item.cards(status)
            if not cards:
                continue
            count, total = item.share(status)
            lines.append(
                f"  {goal_text(goal)}: {verb} if it is {describe_cards(cards, pool)} "
                f"({count} of {total}, {100 * count / total:.0f}%)"
            )
        examples = [(c, a) for c, _n, a in item.outcomes if a.found and a.texts]
        if examples:
            card, answer = min(examples, key=lambda e: (len(e[1].texts), e[0]))
            lines.append(f"  for example, after {card_text(card)}: " + ", ".join(answer.texts))
    return "\n".join(lines)


def describe_cards(cards: list[int], pool: dict[int, int]) -> str:
    """Cards as a player says them: whole ranks by name ("a Jack, 4 or King"), then the
    single cards of ranks whose other suits differ ("the 9h")."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card & 15, []).append(card)
    ranks: list[str] = []
    singles: list[str] = []
    for rank in sorted(by_rank):
        every = [c for c in pool if c & 15 == rank]
        if sorted(by_rank[rank]) == sorted(every):
            ranks.append(RANK_WORDS[rank])
        else:
            singles.extend(card_text(c) for c in sorted(by_rank[rank]))
    parts = []
    if ranks:
        parts.append(("an " if ranks[0][0] in "A8" else "a ") + join(ranks))
    if singles:
        parts.append("the " + join(singles))
    return ", or ".join(parts)


def goal_text(goal: Goal) -> str:
    """The goal in words, as typed."""
    if goal.kind == GoalKind.TURN_UP:
        return "turn up a card" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == GoalKind.SPACE:
        return "get a space" + (f" in pile {goal.pile + 1}" if goal.pile is not None else "")
    if goal.kind == GoalKind.WIN:
        return "win"
    if goal.kind == GoalKind.FREE:
        return f"free the {card_text(goal.card or 0)}"
    steps = [" and ".join(SUIT_NAMES[s] for s in step) for step in goal.steps]
    return "remove the " + " then ".join(steps)
