"""A fuzz loop of scripts stopped by Ctrl-C at random moments (issue 62), in CI.

Short scripts drawn from a fixed seed (a deal, legal moves, ``auto``, ``save!``, ``review``,
``set autoremove on|off``) are each run once to the end in this process, the reference,
and then as real ``spider run`` processes sent SIGINT at seeded moments, from the moment
spider's package has loaded (Python's own start, before it, is not spider's) to four
fifths of the time the reference took. Each interrupted run must:

- end with 130 (Ctrl-C), or 0 when it finished first: never 70, never a traceback, never
  death by the signal;
- leave every file the script saves either as it was before (absent, or the game planted
  there) or exactly as the script run to the end wrote it at that ``save!`` (so never half
  written, never replaced by a game the script did not finish), with no temporary file left
  beside it; run to the end (0), every file as the reference wrote it.
"""

from __future__ import annotations

import io
import random
import signal
import time
from pathlib import Path

from spider_cli.app.session import Session
from spider_cli.cli.main import run_scripts
from spider_cli.rules.deals import DealSource
from spider_cli.rules.engine import Game
from spider_cli.rules.text import move_text
from tests.e2e.test_ctrl_c import SPIDER, TWENTY_MOVES, _start, _wait_for_package

SEED = 62
SCRIPTS = 3
MOMENTS_EACH = 3
LATEST = 0.8
"""The latest Ctrl-C, as a share of the time the script took in this process (after the
package loaded): the moments follow the machine's speed, so most runs are stopped midway
on a fast machine as on a loaded one."""


def _script(rng: random.Random, n: int) -> tuple[str, list[str]]:
    """A script's text, and the files it saves (``save!`` of each, in order)."""
    deal, suits = rng.randrange(1_000), rng.choice((1, 2, 4))
    mirror: Game | None = DealSource.parse(str(deal), suits).game()
    lines, saved = [f"new {deal} suits {suits}"], []
    reviewed = False
    for _ in range(rng.randint(3, 7)):
        kind = rng.choice(("move", "move", "auto", "save", "set", "review"))
        if kind == "move" and mirror is not None and mirror.legal_moves():
            action = rng.choice(mirror.legal_moves())
            lines.append(move_text(mirror, action))
            mirror.push(action)
        elif kind == "auto":
            lines.append(f"auto {rng.randint(1, 4)}")
            mirror = None  # (its moves are the hints': the script's moves end here)
        elif kind == "save":
            saved.append(f"s{n}-{len(saved)}.spider")
            lines.append(f"save! {saved[-1]}")
        elif kind == "set":
            on = rng.random() < 0.5
            lines.append(f"set autoremove {'on' if on else 'off'}")
            if mirror is not None:
                mirror.autoremove = on
        elif kind == "review" and not reviewed and len(lines) > 1:
            lines.append("review")
            reviewed = True
    saved.append(f"s{n}-{len(saved)}.spider")
    lines.append(f"save! {saved[-1]}")
    return "\n".join(lines) + "\n", saved


def _reference(text: str, where: Path) -> None:
    """Run the script to the end in this process, in ``where``."""
    where.mkdir()
    (where / "play.txt").write_text(text)
    out, err = io.StringIO(), io.StringIO()
    assert run_scripts([str(where / "play.txt")], out, err) == 0, (text, err.getvalue())


def test_scripts_stopped_by_ctrl_c_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    statuses = []
    for n in range(SCRIPTS):
        text, saved = _script(rng, n)
        began = time.perf_counter()
        _reference(text, tmp_path / f"reference-{n}")
        took = time.perf_counter() - began
        wanted = {name: (tmp_path / f"reference-{n}" / name).read_text() for name in saved}
        for name in saved[:1]:  # the reference's files are whole games
            loaded = Session.new_game(seed=0).load(str(tmp_path / f"reference-{n}" / name))
            assert loaded.game_file
        for k in range(MOMENTS_EACH):
            moment = rng.uniform(0, LATEST) * took
            where = tmp_path / f"run-{n}-{k}"
            where.mkdir()
            (where / "play.txt").write_text(text)
            planted = {name: TWENTY_MOVES for name in saved if rng.random() < 0.5}
            for name, game in planted.items():
                (where / name).write_text(game)
            spider = _start([*SPIDER, "run", "play.txt"], where)
            try:
                assert spider.stderr is not None
                _wait_for_package(spider.stderr)
                time.sleep(moment)
                spider.send_signal(signal.SIGINT)
                _out, err = spider.communicate(timeout=120)
            finally:
                if spider.poll() is None:
                    spider.kill()
            said = "".join(
                line for line in err.splitlines(True) if not line.startswith("import time:")
            )
            case = (text, round(moment, 3), spider.returncode, said)
            statuses.append(spider.returncode)
            assert spider.returncode in (0, 130), case
            assert "Traceback" not in said and "internal error" not in said, case
            assert not list(where.glob(".*.tmp")), case
            for name in saved:
                path = where / name
                found = path.read_text() if path.exists() else None
                if spider.returncode == 0:
                    assert found == wanted[name], (name, case)
                else:
                    assert found in (planted.get(name), wanted[name]), (name, case)
    assert statuses.count(130) >= len(statuses) // 2, statuses  # most were stopped midway
