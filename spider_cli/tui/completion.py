"""Tab completion at the prompt: what the grammar accepts next, filled in from the position.

The words that can come next are asked of the command parser itself (Lark's interactive
parser, ``accepts()``), so completion always agrees with what the command will read. The
position decides the values: after "8-" the runs of eights that can actually move, after
"from" the piles they can leave, after "to" the piles they can go to, at the start of a line
the piles that have an obvious place; after "assume PILE" the cards an unknown card can be;
after "open" the last games of the history.
Whether a move is possible is asked of ``notation.resolve`` and the engine: completion
knows no rules of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from lark import Token
from lark.exceptions import UnexpectedInput
from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from spider_cli.app import examples
from spider_cli.app.session import Session
from spider_cli.language.commands import MoveCommand, RunSpec
from spider_cli.language.help import TOPICS
from spider_cli.language.notation import (
    MAX_DIGITS,
    parse_command,
    read_run,
    resolve,
)
from spider_cli.language.registry import WORDS, Argument
from spider_cli.language.settings import SETTING_VALUES
from spider_cli.rules.cards import RANK_NAMES, SUIT_NAMES, SUITS_IN_VARIANT, Card, run_text
from spider_cli.rules.engine import PILES, Move, Remove
from spider_cli.rules.errors import SpiderError
from spider_cli.rules.goals import Wanted
from spider_cli.rules.placing import obvious
from spider_cli.rules.text import move_text
from spider_cli.tui.highlight import expected_after, keyword_texts

_SKIP = frozenset({"_MOVE", "_COLUMN", "_PILE", "_THE", "_A"})
"""Tokens that do not change what comes next."""


def _summary(word: str) -> str:
    """A few words about a command word, for the completion menu."""
    info = WORDS.get(word)
    return info.summary if info else ""


class _Choice(NamedTuple):
    text: str
    meta: str = ""


class SpiderCompleter(Completer):
    """Completes the words of one command for the position of ``session``."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._paths = PathCompleter(expanduser=True)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        text = document.text_before_cursor
        if "\n" in text:
            return
        word = re.search(r"\S*$", text).group()  # type: ignore[union-attr]
        before = text[: len(text) - len(word)]
        if word.startswith(("#", "(")):
            return
        try:
            tokens, accepts = expected_after(before)
        except UnexpectedInput:
            return
        if accepts & {"PATH", "STRING"}:
            yield from self._files(tokens, word, complete_event)
            return
        lower = word.lower()
        seen: set[str] = set()
        for choice in self.choices(tokens, accepts):
            if choice.text.lower().startswith(lower) and choice.text.lower() not in seen:
                seen.add(choice.text.lower())
                yield Completion(choice.text, -len(word), display_meta=choice.meta)

    # -- what can come next ------------------------------------------------------------------

    def choices(self, tokens: list[Token], accepts: set[str]) -> list[_Choice]:
        """Every word that can come next, best first (before filtering by what is typed)."""
        kinds = [t.type for t in tokens if t.type not in _SKIP]
        out: list[_Choice] = []
        if "NUMBER" in accepts:
            out += self._numbers(tokens, kinds)
        if accepts & {"RUN", "CARD"}:
            out += self._cards(tokens, kinds)
        if "RANK" in accepts:
            out += [_Choice(RANK_NAMES[r], "every copy") for r in range(13, 0, -1)]
        keywords = sorted(keyword_texts(accepts - {"_D", "_COLUMN", "_PILE"}))
        out += [_Choice(k, _summary(k) if not kinds else "") for k in keywords]
        argument = _argument(tokens)
        if "WORD" in accepts and argument is Argument.TOPIC:
            out += [_Choice(topic, "help topic") for topic in TOPICS]
        if "WORD" in accepts and argument is Argument.SETTING:
            out += [_Choice(name, "setting") for name in SETTING_VALUES]
        if "VALUE" in accepts and argument is Argument.SETTING:
            values = SETTING_VALUES.get(tokens[-1].value.lower(), {})
            out += [_Choice(v) for v in values if not v.isdigit() and v not in ("true", "false")]
        if accepts & {"SUIT_NAME", "SUIT"}:
            out += [_Choice(SUIT_NAMES[s]) for s in SUITS_IN_VARIANT[self.session.game.suits]]
        if "SUIT_COUNT" in accepts:
            out += [_Choice(n, "suits") for n in ("4", "2", "1")]
        if "LEVEL" in accepts:
            out += [_Choice(w.value, "difficulty") for w in Wanted if w is not Wanted.WINNABLE]
        return out

    def _numbers(self, tokens: list[Token], kinds: list[str]) -> list[_Choice]:
        """Pile numbers that make sense here, with what they would do."""
        game = self.session.game
        first = kinds[0] if kinds else None
        if first is None or first == "_OBVIOUS":
            return self._obvious_piles()
        if first in ("NUMBER", "CARD", "RUN", "_FROM"):
            return self._move_numbers(tokens, kinds)
        argument = _argument(tokens)
        if argument is Argument.PILE:
            return [_Choice(str(i + 1), f"pile {i + 1}") for i in range(PILES)]
        if argument is Argument.HIDDEN_PILE:
            return [
                _Choice(str(i + 1), "has unknown cards")
                for i in range(PILES)
                if game.unknown_slots(i) > len(game.assumed[i])
            ]
        if argument is Argument.COMPLETE_PILE:
            return [
                _Choice(str(i + 1), "a complete suit")
                for i in range(PILES)
                if game.is_legal(Remove(i))
            ]
        if argument is Argument.GAME:
            return self._recent_games()
        return []

    def _recent_games(self) -> list[_Choice]:
        """The last games of the history, for ``open`` (none if it cannot be read)."""
        try:
            entries = self.session.games_log().recent(10)
        except SpiderError:
            return []
        return [_Choice(str(e.number), f"{e.deal}, {e.result.value}") for e in entries]

    def _obvious_piles(self) -> list[_Choice]:
        game = self.session.game
        out = []
        for i in range(PILES):
            if not game.piles[i]:
                continue
            try:
                action = obvious(game, i)
            except SpiderError:
                continue
            out.append(_Choice(str(i + 1), move_text(game, action)))
        return out

    def _move_numbers(self, tokens: list[Token], kinds: list[str]) -> list[_Choice]:
        """Sources or destinations of the move being typed, as far as it is typed."""
        run = _run_of(tokens)
        numbers = [_number(t.value) for t in tokens if t.type == "NUMBER"]
        last = kinds[-1]
        if kinds[0] == "NUMBER" or (
            kinds[0] == "CARD" and "_FROM" not in kinds and last in ("CARD", "NUMBER", "_GT")
        ):
            if kinds[0] == "CARD" and run is not None:  # quick form: "6s 3 10"
                run = RunSpec(run.top_rank, run.top_suit, None)
            if len(numbers) == 0:
                return self._sources(run)
            return self._destinations(run, numbers[0])
        if last == "_FROM":
            return self._sources(run)
        if last in ("_TO", "_INTO", "_ONTO"):
            src = numbers[0] if "_FROM" in kinds else None
            return self._destinations(run, src)
        if last == "_SPACE":
            return [_Choice(str(i + 1), "a space") for i in self.session.game.spaces()]
        return []

    def _try(self, command: MoveCommand) -> Move | None:
        """The legal move the command names, if any."""
        game = self.session.game
        try:
            action = resolve(game, command)
        except SpiderError:
            return None
        return action if isinstance(action, Move) and game.is_legal(action) else None

    def _sources(self, run: RunSpec | None) -> list[_Choice]:
        out = []
        for src in range(1, PILES + 1):
            moves = [
                m
                for d in range(1, PILES + 1)
                if (m := self._try(MoveCommand(run, src, d))) is not None
            ]
            if moves:
                out.append(_Choice(str(src), _targets(moves)))
        return out

    def _destinations(self, run: RunSpec | None, src: int | None) -> list[_Choice]:
        game = self.session.game
        out = []
        for dst in range(1, PILES + 1):
            move = self._try(MoveCommand(run, src, dst))
            if move is not None:
                out.append(_Choice(str(dst), move_text(game, move)))
        return out

    def _cards(self, tokens: list[Token], kinds: list[str]) -> list[_Choice]:
        """Cards and runs: those that can move, the pool for assume, any card for locate."""
        game = self.session.game
        first = kinds[0] if kinds else None
        if first is None:
            return self._movable_runs()
        if first == "_ASSUME":
            return [
                _Choice(str(Card(code)), "can be turned up")
                for code, n in enumerate(game.pool)
                if n
            ]
        if first == "_LOCATE":
            return [
                _Choice(str(Card.of(r, s)))
                for s in SUITS_IN_VARIANT[game.suits]
                for r in range(13, 0, -1)
            ]
        if first == "_SOLVE":  # "solve free the ...": face-up cards with something on them
            covered = sorted(
                (len(pile) - 1 - k, i, pile[k])
                for i, pile in enumerate(game.piles)
                for k in range(game.down[i], len(pile) - 1)
            )
            return [_Choice(str(Card(code)), f"pile {i + 1}, {n} on it") for n, i, code in covered]
        if kinds[-1] in ("_TO", "_ONTO"):  # "onto Qd": the cards the run can go onto
            numbers = [_number(t.value) for t in tokens if t.type == "NUMBER"]
            src = numbers[0] if "_FROM" in kinds else None
            out = []
            for choice in self._destinations(_run_of(tokens), src):
                pile = game.piles[int(choice.text) - 1]
                if pile:
                    out.append(_Choice(str(Card(pile[-1])), f"pile {choice.text}"))
            return out
        return []

    def _movable_runs(self) -> list[_Choice]:
        """Every card and run at the bottom of a pile that has somewhere to go."""
        game = self.session.game
        out = []
        for src, pile in enumerate(game.piles):
            if not pile:
                continue
            for count in range(game.run_length(src), 0, -1):
                moves = [
                    Move(src, d, count) for d in range(PILES) if game.is_legal(Move(src, d, count))
                ]
                if moves:
                    out.append(_Choice(run_text(pile[-count:]), _targets(moves)))
        return out

    def _files(self, tokens: list[Token], word: str, event: CompleteEvent) -> Iterable[Completion]:
        if _argument(tokens) is Argument.FILE_OR_EXAMPLE:
            for example in examples.catalogue():
                if example.name.startswith(word):
                    yield Completion(example.name, -len(word), display_meta=example.title)
        if word.startswith(("'", '"')):
            return
        yield from self._paths.get_completions(Document(word), event)


class LegalSuggestions(AutoSuggest):
    """The grey suggestion from the history (prompt_toolkit's, newest first), offering only
    lines that read and that the session allows now: a move illegal here is skipped for an
    older line that is legal; commands other than moves, deals and removals always are."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_suggestion(self, buffer: Buffer, document: Document) -> Suggestion | None:
        text = document.text.rsplit("\n", 1)[-1]
        if not text.strip():
            return None
        seen: set[str] = set()
        for string in reversed(list(buffer.history.get_strings())):
            for line in reversed(string.splitlines()):
                if line.startswith(text) and line not in seen:
                    seen.add(line)
                    if self.fits(line):
                        return Suggestion(line[len(text) :])
        return None

    def fits(self, line: str) -> bool:
        """Whether a line from the history reads and could run in the position now."""
        try:
            command = parse_command(line)
        except SpiderError:
            return False
        return command is not None and self.session.allows(command)


def _number(text: str) -> int:
    """A typed number, or 0 (no pile) for one too long to be any (int() refuses thousands of
    digits)."""
    return int(text) if len(text) <= MAX_DIGITS else 0


def _argument(tokens: list[Token]) -> Argument | None:
    """What the argument of the command being typed is, as the command declares it (its
    :class:`~spider_cli.language.registry.Word`), or None."""
    word = WORDS.get(tokens[0].value.lower()) if tokens else None
    return word.argument if word is not None else None


def _run_of(tokens: list[Token]) -> RunSpec | None:
    """The run named by the move being typed (its RUN or CARD token), read by the notation."""
    for token in tokens:
        if token.type in ("RUN", "CARD"):
            return read_run(token.value)
    return None


def _targets(moves: list[Move]) -> str:
    """Where moves from one pile go, in a few words: "from 3 to 10 or 5"."""
    src = moves[0].src + 1
    dsts = " or ".join(str(m.dst + 1) for m in moves[:4])
    return f"from {src} to {dsts}" + (" ..." if len(moves) > 4 else "")
