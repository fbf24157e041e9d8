"""A hint in a player's words: the move and the manual's reason for it (the data is
:class:`~spider_cli.analysis.hints.Advice`), and why ``auto`` stops."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spider_cli.app.results import Stop
from spider_cli.rules.cards import SUIT_NAMES
from spider_cli.rules.goals import GoalKind
from spider_cli.rules.text import move_text

if TYPE_CHECKING:
    from spider_cli.analysis.hints import Advice, Further, LookedAhead, Reasons, WorldsJudged
    from spider_cli.app.results import Stopped
    from spider_cli.rules.engine import Action, Game


def hint_text(game: Game, advice: Advice) -> str:
    """What ``hint`` says in ``game`` (the position the hint was asked in): the rank of the
    choice when it is not the best, the hint, and how to play its line."""
    text = advice_text(game, advice)
    if advice.again:
        text = f"no other choice; the best again: {text}"
    elif advice.choice > 1:
        text = f"choice {advice.choice}: {text}"
    if len(advice.actions) > 1:
        text += f"\n('apply' plays the move, 'apply all' all {len(advice.actions)})"
    return text


def advice_text(game: Game, advice: Advice) -> str:
    """The hint itself: its first move and the manual's reasons, or why there is none, with
    what looking ahead found and what a longer search sees."""
    from spider_cli.analysis.hints import HintKind

    texts = line_texts(game, advice.actions)
    kind = advice.kind
    further = further_text(game, advice.further) if advice.further is not None else ""
    nothing = "nothing helps now" if advice.exhausted else "no line that helps was found"
    where = "in any line" if advice.exhausted else f"within {advice.budget:,} positions"
    if kind is HintKind.WON:
        return "the game is won: nothing left to do"
    if kind is HintKind.DEAL_AHEAD:
        looked = looked_text(advice.looked) if advice.looked is not None else ""
        return f"deal a row ('deal'): {looked.removeprefix('; ')}"
    if kind is HintKind.NO_OTHER:
        return "no other line gains"
    if kind is HintKind.LINE:
        assert advice.reasons is not None, "a line has its reasons"
        text = f"{texts[0]}: " + "; ".join(reasons_words(advice.reasons, texts, where))
        if advice.looked is not None:
            text += looked_text(advice.looked)
        return text + further
    if kind is HintKind.FILL_FOR_DEAL:
        ones = "one" if len(texts) == 1 else "them"
        return (
            f"{texts[0]}: {nothing} but a deal, and every space must be filled first "
            f"(a deal needs a card on every pile): this fills {ones}{_moves(texts)}{further}"
        )
    if kind is HintKind.CANNOT_FILL:
        return (
            f"{nothing}: a deal is due, but every space must be filled first "
            f"and no card can go into one{further}"
        )
    if kind is HintKind.DEAL_DUE:
        return f"{nothing}: a deal is due ('deal'){further}"
    if kind is HintKind.LOST:
        return "nothing helps and the hand is empty: the game is lost"
    why = (
        f"nothing turns up a card, gets a space or removes a suit {where}, and the hand is "
        f"empty: the game looks lost ('solve win' to be sure){further}"
    )
    if kind is HintKind.WEAK_MOVE:
        return f"{texts[0]}: a weak move, the best there is: {why}"
    return why


def reasons_words(reasons: Reasons, texts: Sequence[str], where: str) -> list[str]:
    """A line's reasons in the manual's words, in the order said (``texts``: the line in
    notation; ``where``: how far the player's searches looked)."""
    from spider_cli.analysis.hints import Gain

    words: list[str] = []
    if reasons.prepared is not None:
        words.append("prepares a contingency")
    if reasons.natural:
        words.append("a natural move")
    elif reasons.top_down:
        words.append("top down")
    if reasons.frees_king:
        words.append("frees a King")
    if reasons.completes is not None:
        words.append(f"completes the {SUIT_NAMES[reasons.completes]}")
    gain, count = reasons.gain, reasons.count
    if gain is None:
        return words
    if gain is Gain.REMOVES:
        goal = "removes the " + " and the ".join(SUIT_NAMES[suit] for suit in reasons.suits)
    elif gain is Gain.SPACES:
        goal = "gets a space" if count == 1 else f"gets {count} spaces"
    elif gain is Gain.TURNS_UP:
        goal = "turns up a card" if count == 1 else f"turns up {count} cards"
        if reasons.kept:
            goal += " and keeps the space" if reasons.kept == 1 else " and keeps the spaces"
    else:
        what = "puts a space to use" if reasons.use else "builds the runs"
        goal = f"{what}: a weak line, the best the player has (no card turns up, no space "
        goal += f"is got and no suit removed {where})"
    goal += _moves(texts)
    prepared = reasons.prepared
    if prepared is not None:
        back = prepared.back
        what = "a space comes back" if back else "a space comes back or another card turns up"
        goal += f"; then {what} for {prepared.ours:.0%} of the cards it could be, against "
        goal += f"{prepared.theirs:.0%} turning it up at once"
    words.append(goal)
    return words


def looked_text(looked: LookedAhead | WorldsJudged) -> str:
    """What the search over what turns up, or the judge, found, as a clause."""
    from spider_cli.analysis.hints import WorldsJudged

    if isinstance(looked, WorldsJudged):
        return judged_text(looked)
    text = (
        f"; looked ahead over {looked.games} games on {looked.deals} deals of the "
        f"cards not seen, {looked.choices} choices weighed: about {looked.chance:.0%} to win "
        "after it"
    )
    if looked.first is not None:
        text += f" (the first choice before looking ahead: {looked.first:.0%})"
    return text


def judged_text(judged: WorldsJudged) -> str:
    """What the judge found, as a clause."""
    text = (
        f"; judged on {judged.worlds} deals of the cards not seen, each played on with "
        f"every card known (at most {judged.cap:,} positions a deal), {judged.choices} "
        "choices: "
    )
    if not judged.told:
        return text + "none told apart, so the quick level's look-ahead chose"
    text += f"won {judged.won} of its {judged.judged} after it"
    if judged.first is not None:
        won, of = judged.first
        text += f" (the quick level's choice: {won} of {of})"
    return text


def further_text(game: Game, further: Further) -> str:
    """What a longer line achieves, and how to see it, as a clause."""
    moves = further.moves
    suit = SUIT_NAMES[further.suit] if further.suit is not None else ""
    what, ask = {
        GoalKind.REMOVE: (f"removing the {suit}", f"remove {suit}"),
        GoalKind.SPACE: ("getting a space", "get a space"),
        GoalKind.TURN_UP: ("turning up a card", "turn up a card"),
    }[further.goal]
    return (
        f"; a longer search sees a way toward {what} in {moves} move{'s' if moves > 1 else ''}, "
        f"starting {move_text(game, further.first)} ('solve {ask}, no deal' lists them)"
    )


def line_texts(game: Game, line: Sequence[Action]) -> list[str]:
    """A line from ``game`` in the manual's notation, one text a move."""
    work = game.copy()
    texts = []
    for action in line:
        texts.append(move_text(work, action))
        work.push(action)
    return texts


def stop_text(game: Game, stopped: Stopped) -> str:
    """Why ``auto`` stops in ``game``: the win, the loss, or the hint that has no move to
    play (or only the least bad one)."""
    if stopped.why is Stop.WON:
        return "the game is won"
    if stopped.why is Stop.LOST:
        return "the game is lost"
    assert stopped.advice is not None, "a hint that stops auto is given"
    return advice_text(game, stopped.advice)


def _moves(texts: Sequence[str]) -> str:
    """A line of more than one move, listed: " (3 moves: a, b, c)"."""
    return f" ({len(texts)} moves: {', '.join(texts)})" if len(texts) > 1 else ""
