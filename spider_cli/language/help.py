"""The text of ``help``: the rules, the notation (through the manual's own examples), commands."""

from __future__ import annotations

import difflib

from spider_cli.language.registry import WORDS
from spider_cli.rules.errors import quoted

WIDTH = 80
"""The longest line of the list of commands."""

TOPICS: dict[str, str] = {
    "rules": """\
Spider is played with two decks (104 cards) in ten piles. 54 cards start in the
tableau, only the last card of each pile face up; the other 50 are the hand.
  - Put a card on a card one rank higher, of any suit (a 5 on any 6).
  - A run of cards of ONE suit in descending order moves as a unit, whole or its
    lower part.
  - Anything can go into an empty pile (a space); a King can go nowhere else.
  - When a pile's face-up cards are all gone, its last face-down card turns up.
  - 'deal' puts ten cards from the hand on the piles, one each; not while there
    is a space.
  - A complete suit, King down to Ace, at the bottom of a pile can be removed
    ('remove'). You win when all eight suits are removed (or assembled in the
    tableau).""",
    "notation": """\
Moves are written as in the manual: the cards that move, where from, where to.
  Jh from 8 to 9          one card, from pile 8 onto pile 9
  8-6s from 3 to 10       the run 8, 7, 6 of spades from pile 3 to pile 10
  10-Ac from 5 to 9       the run from the 10 down to the Ace of clubs
  Js from 9 to 3 (into the space)     remarks in parentheses are ignored
  J-6h from column 3 onto Qh          'onto' a card ('into a space': the first)
  remove the spades from column 8     take the suit off pile 8 ('remove 8' too)
Quick forms:
  3 10    or 3>10     the longest run from pile 3 that fits on pile 10
  6s 3 10             the run starting at the 6s of pile 3, to pile 10
  3                   pile 3's cards to the obvious place (the manual's click)
  d                   deal
Ranks: A 2-10 J Q K (T for 10). Suits: s h d c, or the symbols.""",
    "commands": "",  # made from the table of commands: see _commands_topic
    "files": """\
Position files show the tableau in the manual's layout: ten aligned columns,
each pile from its top to its bottom; '--' a face-down card, '[Jh]' a face-down
card you know, '(sp)' an empty pile. A Markdown table (| -- | 10d | ...) or one
line per pile ('3: -- -- Jc 10h') reads too. Optional first lines: 'stock: 20'
(or the hand's cards), 'removed: d s' (or a count), 'suits: 2'. 'code' prints
the position as one line that 'load' accepts. 'save' writes a game file (the
start and every move); 'load' resumes it. 'save' asks before replacing another
file; 'save!' replaces it without asking (a script must say 'save!').""",
    "scoring": """\
10 for each card that started face down and has been turned up; 15 for each pile
with no face-down cards left; 2 for each face-up card on the next higher card of
its suit; 50 for each complete suit (removed, or King to Ace in the tableau).
Winning with four or more suits still in the tableau adds 2 for each after the
third: 990 is a win with every suit removed, 1000 a win with all eight in the
tableau.""",
    "keys": """\
At the prompt:
  Tab             complete commands, piles, the runs that can move ('8-' Tab)
  Right arrow     take the grey suggestion from your earlier commands
  Up, Down        earlier commands (kept from one run to the next)
  Ctrl-C          clear the line; stop a long solve or hint
  Ctrl-D          at 'pile N turns up:', random cards for the rest of a deal
  Ctrl-D, quit    leave; the game is kept and 'spider' offers it back (asks
                  only to update a file you saved it to that is now behind)
  Ctrl-Z          (the line mode) wait in the background ('fg' in the shell
                  comes back); the time played stops meanwhile
  Enter           on an empty line, draw the tableau again
On the board (the full screen; 'spider --line' plays at a plain prompt instead):
  letters         always write a command: 'help', 'hint', 'undo 3' run whole;
                  the one-letter commands need Enter too: u undo, r redo,
                  d deal, h hint, o odds, n new deal (asks first), q quit
  Ctrl-Z, Ctrl-Y  undo, redo (at once; Ctrl-Z does not suspend the board)
  ?  !            hint (its cards are marked), play the marked move (with
                  none marked, hint's move), while the line is empty
  :               may start a command (':help' is 'help'), in either mode
  click a card    it and the cards covering it go to their obvious place
  drag a card     press on it, let go over another pile: the cards go there
  right click     select a card; a click on another pile moves it there
  click the hand  deal; a click on a complete suit removes it
  PageUp/Down     scroll the replies (the wheel too); a bar says when there is
                  more above or below; a long reply (help, games) takes the
                  screen: q or Esc gives the board back
  >               step through the line 'solve' or 'hint' found, before 'apply'
                  (the keys of the analysis view: 'help review')
Red underlined text in the line cannot be read; Enter says why. The game is
journaled after every command: if the terminal closes, 'spider' offers it back.
Every game is kept in the history: 'games' lists the last ones, 'open N' brings
game N back; 'stats' shows games, wins, streaks and best scores per variant.""",
    "solve": """\
solve GOAL [CONSTRAINTS] searches the cards you can see, from this position.
Goals:        turn up a card [in pile N]    get a space (one more than now)
              get a space in pile N (the first new space is pile N)
              remove SUIT [then SUIT]       (in that order; 'and': either order)
              free CARD (nothing on it)     win
Constraints:  no deal, keep N spaces (at the end), no remove [SUIT],
              no new space, no turn up, limit N (positions to examine),
              within N seconds
A move that would turn up an unknown card ends its line there. The answer is
a line in notation ('apply' plays it, 'apply 1' its next move); 'impossible',
at once with the reason when no search is needed, or once every reachable
position has been examined (it says how many); or 'unknown' at the limit
('no line of 8 moves or fewer exists'). Ctrl-C stops a long search.
Example: solve remove hearts, no deal (in problem-3)
'... for each reveal': for every card the next face-down card could be, can
the goal still be reached once it is turned up? ("get a space: possible if
it is a 4, 9, Jack or King")
'hint' gives the blind player's move and why ('hint deeper': a longer search).
'odds' deals the cards out of sight at random 20 times and says how many of
those deals a search that sees every card wins from here, with the interval.
From the shell: spider solve FILE GOAL, spider solve --seed N (every card
known), spider bench --seeds 0-99 --suits 1 (share of deals won).""",
    "hints": """\
hint gives the best move the blind player finds (it sees only what you see),
and why; asked again in the same position it gives the same move. 'hint next'
gives its next choice ("choice 2: ..."), 'hint deeper' the best of searches
ten times longer. The cards of the move are marked on the board: '!' plays it,
'apply' plays it too, 'apply all' its whole line, 'auto' plays hint after hint.
The reasons, in the manual's words:
  a natural move          a card onto the next higher card of its own suit
  top down                not natural, and of the moves that are not, it moves
                          the highest card: low cards stay free to go on it
  frees a King            the card left face up is a King, which can go into
                          a space
  turns up a card         the line ends turning up a face-down card
  prepares a contingency  the line's first moves make room before the card
                          turns up, so that play goes on whatever it is:
                          "then a space comes back for 80% of the cards it
                          could be, against 50% turning it up at once" compares
                          the line with the best single move that turns up
                          the same card, over every card it could be
  a weak line             nothing turns up, no space is got, no suit removed""",
    "review": """\
review looks back over the game from its start, in three parts:
  Where the deal was lost, with every card known: a search that sees every
  card looks for a win after some moves, halving the game each time, and
  finds the last move after which it still finds one. A win it finds is sure;
  'no win found' is a proof only when the review says 'proved lost'.
  The chance curve: after every move, the blind player's chance of a win from
  what you could see, drawn from left to right ('|' marks a deal).
  Marked moves: wherever the blind player would have moved otherwise (a deal
  and a removal too), both moves are played on from the same deals sampled
  from the cards out of sight, a few turns each, and scored by the chance
  where they stop. A move that gave up 5 points of the chance or more is an
  inaccuracy, 10 a mistake, 15 a blunder (lichess's drops of win chance); or,
  where the chance is small, 15%, 30% or 50% of what the blind player's move
  kept (1 point at least). A move is marked only when the 95% interval of
  what it gave up on those deals is above 0. Moves are weighed in the order
  the learned value points to, as far as the review's budget of positions
  goes; a move that is the blind player's own costs nothing.
'review N' shows the position before move N, the move played and the blind
player's own with the chance after each, its mark, and whether the deal was
lost there; the game itself is left as it is. Ctrl-C stops a review, keeping
what it found. A review kept in the history is shown as kept; 'review again'
makes it anew. From the shell: spider review FILE, spider review --game N
(from 'games'), with --json for scripts and --ascii for the curve.
On the board, 'review' opens the analysis view: the position before a move,
the move played marked, the blind player's move beside a marked one, and the
curve with a cursor under it (signs: | a deal, i m b a mark, x lost there):
  Left, Right     a move back, a move on; Home, End: the start, the end
  n, p            the next, the previous marked move
  w               where the deal was lost: step a win from before that move,
                  and w again back to the game
  Enter           play on from this position as a new game (recorded as a
                  game from a position); the game reviewed stays as it was,
                  in progress in the history ('open N' brings it back)
  q, Esc          back to the game in play, as it was
Other letters write a command, as on the board (Enter runs it, closing the
view). '>' on the board steps the line 'solve' or 'hint' found the same way.""",
}


def _commands_topic() -> str:
    """The commands by group, as :data:`WORDS` lists them, lines at most WIDTH long."""
    groups: dict[str, list[str]] = {}
    for info in WORDS.values():
        if info.group is not None:
            groups.setdefault(info.group, []).extend(info.overview)
    lines = []
    for group, items in groups.items():
        line = f"{group + ':':<12}"
        for n, item in enumerate(items):
            piece = item + ("," if n < len(items) - 1 else "")
            if n and len(line) + 1 + len(piece) > WIDTH:
                lines.append(line)
                line = " " * 12 + piece
            else:
                line += (" " if n else "") + piece
        lines.append(line)
    return "\n".join(lines)


TOPICS["commands"] = _commands_topic()


def help_text(topic: str | None = None) -> str:
    """The help for a topic, or the overview with the list of topics."""
    if topic is None:
        return (
            "New to Spider? 'help rules' tells how the game goes, 'help notation' how to\n"
            "write moves, with the manual's own examples.\n\n"
            + TOPICS["commands"]
            + "\nMore: 'help TOPIC' for a topic above; '#' starts a comment."
        )
    text = TOPICS.get(topic.lower().rstrip("s")) or TOPICS.get(topic.lower())
    if text is None:
        close = difflib.get_close_matches(topic.lower(), TOPICS, n=1, cutoff=0.75)
        if close:  # a slip: 'help notatoin'
            return f"(taken as 'help {close[0]}')\n{TOPICS[close[0]]}"
        for name, body in TOPICS.items():
            if topic.lower() in body.lower():
                return f"(from 'help {name}')\n{body}"
        return f"no help on {quoted(topic)}; topics: {', '.join(TOPICS)}"
    return text
