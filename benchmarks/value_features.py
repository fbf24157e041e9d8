"""Would a richer view make a better learned value? Self-play games recorded view by view,
then the value's features compared with a larger set on the same games:

    python benchmarks/value_features.py play --first 1100000 --games 3000 --data views4.jsonl
    python benchmarks/value_features.py compare --data views4.jsonl

``play`` plays our 4-suit deals from ``--first`` on by the self-play policy of
``fit_value.py`` (the blind player's three searches at 2,000 positions, no card weighed),
on the Python rollout (the reference, its searches on the core), and appends one JSON line a
game: the deal, whether it was won, and at the start of each turn the player's view (the
piles, each face-down card masked), the suits removed, the rows left and the value's
:data:`~spider_cli.analysis.blind.rollouts.FEATURES`. It resumes from the file.

``compare`` fits "this game is won" on every turn of the first 80% of the games (by deal)
with the value's features, then with the richer set of :func:`richer` added, by logistic
regression and by gradient-boosted trees, and prints the log-loss and AUC of each on the
last 20%. It needs numpy and scikit-learn, which spider does not: this is an experiment,
not part of the program (``pip install numpy scikit-learn``).
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

from spider_cli.analysis import native
from spider_cli.analysis.blind import player as blindplayer
from spider_cli.analysis.blind import rollouts
from spider_cli.analysis.blind.rollouts import Playout
from spider_cli.analysis.compact import FACE_DOWN, State, encode
from spider_cli.rules.cards import KING
from spider_cli.rules.deals import DealSource, Source

POLICY = rollouts.Policy(2_000, blindplayer.SEARCHES)


def play(args: argparse.Namespace) -> None:
    path = Path(args.data)
    done = (
        {json.loads(line)["deal"] for line in path.read_text().splitlines()}
        if path.exists()
        else set()
    )
    seen: list[object] = []
    features = rollouts.features

    def recording(piles: State, removed: int, rows: int) -> tuple[int, ...]:
        found = features(piles, removed, rows)
        seen.append(([rollouts.masked(p).hex() for p in piles], removed, rows, found))
        return found

    rollouts.features = recording  # the rollout calls it at the start of each turn
    search = native.backend().blind_search
    with path.open("a") as out:
        for number in range(args.first, args.first + args.games):
            if number in done:
                continue
            seen.clear()
            start = encode(DealSource(Source.OURS, number, 4).game())
            outcome = rollouts.rollout(search, Playout(start.piles, start.rows, 0, POLICY, True))
            out.write(json.dumps({"deal": number, "won": outcome.won, "views": seen}) + "\n")
            out.flush()


def richer(piles: list[str], removed: int) -> list[int]:
    """More of what a player sees: the unseen cards of each rank; the unseen cards that
    could go on a pile's top card; moves of a pile's movable run onto another top (in suit,
    any suit); runs (any suit), runs in suit and the longest; the most face-down cards in a
    pile, their sum of squares, piles with one; Kings on face-down cards; face-up cards."""
    up, down = [], []
    for text in piles:
        pile = bytes.fromhex(text)
        d = 0
        while d < len(pile) and pile[d] >= FACE_DOWN:
            d += 1
        down.append(d)
        up.append(pile[d:])
    unseen = [0] + [8 - removed] * 13  # two decks: 8 cards of each rank
    for seq in up:
        for card in seq:
            unseen[card & 15] -= 1
    tops = [seq[-1] for seq in up if seq]
    heads = []
    for seq in up:
        if seq:
            k = len(seq) - 1
            while k and seq[k - 1] == seq[k] + 1:
                k -= 1
            heads.append(seq[k])
    runs = suited = longest = 0
    for seq in up:
        if seq:
            runs, suited, length = runs + 1, suited + 1, 1
            for a, b in itertools.pairwise(seq):
                runs += (a & 15) != (b & 15) + 1
                length = length + 1 if a == b + 1 else 1
                suited += length == 1
                longest = max(longest, length)
    return [
        *unseen[1:],
        sum(unseen[(t & 15) - 1] for t in tops if t & 15 > 1),
        sum((h & 15) + 1 == t & 15 and h >> 4 == t >> 4 for t in tops for h in heads),
        sum((h & 15) + 1 == t & 15 for t in tops for h in heads),
        runs,
        suited,
        longest,
        max(down),
        sum(d * d for d in down),
        down.count(1),
        sum(bool(seq) and d > 0 and seq[0] & 15 == KING for seq, d in zip(up, down, strict=True)),
        sum(map(len, up)),
    ]


def compare(args: argparse.Namespace) -> None:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss, roc_auc_score
    from sklearn.preprocessing import StandardScaler

    games = sorted(
        (json.loads(line) for line in Path(args.data).read_text().splitlines()),
        key=lambda g: g["deal"],
    )
    base, more, won, game = [], [], [], []
    for k, record in enumerate(games):
        for piles, removed, _rows, features in record["views"]:
            base.append(features)
            more.append(features + richer(piles, removed))
            won.append(int(record["won"]))
            game.append(k)
    y, g = np.array(won), np.array(game)
    fit, held = g < len(games) * 4 // 5, g >= len(games) * 4 // 5
    share = np.full(held.sum(), y[fit].mean())
    print(f"{len(games)} games, {len(y)} turns; held out: the last {int(held.sum())} turns")
    print(f"the share of turns won alone: log-loss {log_loss(y[held], share):.4f}")
    for name, rows in (("the value's features", base), ("with the richer set", more)):
        x = np.array(rows, float)
        scale = StandardScaler().fit(x[fit])
        linear = LogisticRegression(max_iter=5000).fit(scale.transform(x[fit]), y[fit])
        trees = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, random_state=0)
        trees.fit(x[fit], y[fit])
        for how, p in (
            ("logistic", linear.predict_proba(scale.transform(x[held]))[:, 1]),
            ("boosted trees", trees.predict_proba(x[held])[:, 1]),
        ):
            loss, auc = log_loss(y[held], p), roc_auc_score(y[held], p)
            print(f"{name}, {how}: log-loss {loss:.4f}, AUC {auc:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("play", help="self-play games, each turn's view recorded")
    p.add_argument("--first", type=int, default=1_100_000)
    p.add_argument("--games", type=int, default=3000)
    p.add_argument("--data", required=True)
    c = sub.add_parser("compare", help="the value's features against a richer set")
    c.add_argument("--data", required=True)
    args = parser.parse_args()
    play(args) if args.what == "play" else compare(args)


if __name__ == "__main__":
    main()
