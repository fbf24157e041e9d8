"""The settings a player changes with ``set`` (and keeps between games): their values, the
words each takes, and what a ``set`` command means."""

from __future__ import annotations

from spider_cli.language.commands import Set
from spider_cli.rules.errors import Part, SpiderError, quoted
from spider_cli.rules.values import Value, replace


class Settings(Value):
    """The settings ``set NAME VALUE`` changes: remove complete suits at once, which four
    piles get a sixth card in a new deal ("left" or "spread"), the suits of a new game
    when none is named (``spider`` with no ``--suits``), and how hard the player that
    ``hint``, ``apply`` and ``auto`` follow thinks (the bench's ``--level``)."""

    autoremove: bool = False
    sixth: str = "left"
    suits: int = 4
    level: str = "quick"

    def changed(self, name: str, value: bool | str) -> Settings:
        """These settings with one changed (a name and value from :func:`setting_value`)."""
        if name == "autoremove":
            return replace(self, autoremove=bool(value))
        if name == "suits":
            return replace(self, suits=int(value))
        if name == "level":
            return replace(self, level=str(value))
        return replace(self, sixth=str(value))


SETTING_VALUES: dict[str, dict[str, bool | str]] = {
    "autoremove": {
        "on": True,
        "off": False,
        "true": True,
        "false": False,
        "yes": True,
        "no": False,
        "1": True,
        "0": False,
    },
    "sixth": {"left": "left", "spread": "spread", "1,4,7,10": "spread"},
    "suits": {"1": "1", "2": "2", "4": "4"},
    "level": {name: name for name in ("plain", "quick", "strong", "expert", "judge")},
}
"""Each setting's name, and the words it takes with the value each one means."""


def setting_value(command: Set) -> tuple[str, bool | str]:
    """The setting a ``set`` command names and the value it means; SpiderError if none."""
    name = command.name.lower()
    values = SETTING_VALUES.get(name)
    if values is None:
        raise SpiderError(
            f"no setting called {quoted(name)} (settings: {', '.join(SETTING_VALUES)})",
            part=Part.NAME,
        )
    value = values.get(str(command.value).lower())
    if value is None:
        choices = ", ".join(sorted(set(map(str, values))))
        raise SpiderError(f"{name} can be {choices}", part=Part.VALUE)
    return name, value
