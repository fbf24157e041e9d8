"""``spider bench``'s progress on standard error, drawn from the run's events
(:data:`spider_cli.analysis.bench.full.Event`) in the words of
:mod:`spider_cli.app.words.bench`: at a terminal one line redrawn in place, in a log a line
every tenth of the way."""

from __future__ import annotations

from typing import TextIO

from spider_cli.analysis.bench.full import Began, Ended, Event, Fewer, Finished
from spider_cli.app.words.bench import fewer_note, in_play, progress_bar


class ProgressBar:
    """Told each event of a run (a :data:`~spider_cli.analysis.bench.full.Listener`), writes
    how far it is on ``err``."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.live = err.isatty()
        self.shown = 0
        """The width of the line drawn last (a shorter one covers it with spaces)."""

    def __call__(self, event: Event) -> None:
        err = self.err
        match event:
            case Fewer():
                err.write(fewer_note(event) + "\n")
            case Began(done=done, total=total, won=won, in_play=deals):
                if self.live:  # at once, with the deals in play, not only when the first ends
                    first = in_play(progress_bar(done, total, won, 0.0), deals)
                    err.write("\r" + first)
                    err.flush()
                    self.shown = len(first)
            case Finished(done=done, total=total, won=won, elapsed=elapsed):
                bar = progress_bar(done, total, won, elapsed)
                if self.live:  # one line redrawn in place
                    err.write("\r" + bar.ljust(self.shown))
                    self.shown = len(bar)
                elif done * 10 // total != (done - 1) * 10 // total:
                    err.write(bar + "\n")  # a log: a line every tenth of the way
                err.flush()
            case Ended():
                if self.live:
                    err.write("\n")
