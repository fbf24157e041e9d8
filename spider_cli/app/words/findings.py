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
    PlayResult,
    Report,
    Stage,
    Verdict,
    join,
)
from spider_cli.rules.cards import RANK_WORDS, SUIT_NAMES, card_text
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
    if answer.status is Verdict.IMPOSSIBLE and answer.reason:
        return f"impossible: {answer.reason}"
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
    return f"unknown: {answer.limit}{shortest} ({work})"


def answer_text(answer: Answer) -> str:
    """The verdict, then the line numbered one move a line."""
    lines = [answer_summary(answer)]
    if answer.note:
        lines.append(f"  ({answer.note})")
    for k, move in enumerate(answer.texts, start=1):
        lines.append(f"  {k:>2}. {move}")
    if answer.reveal is not None:
        lines.append(f"  (the last move turns up an unknown card in pile {answer.reveal})")
    return "\n".join(lines)


def play_text(result: PlayResult) -> str:
    """Full-information play's result: won with the line, proved unwinnable, or neither."""
    timed = f" in {result.seconds:.2f} s" if result.seconds is not None else ""
    if result.proved:
        return f"proved unwinnable: {result.reason} ({result.positions:,} positions{timed})"
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
