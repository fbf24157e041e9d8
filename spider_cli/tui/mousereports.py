"""Mouse reports that prompt_toolkit can read, and nothing else.

prompt_toolkit's input parser takes any ``ESC [ digits m`` for a mouse report, so a colour
code typed or pasted at the prompt (``ESC[31m``) reaches its mouse handler, which unpacks the
numbers without checking them and raises: the screen shows a traceback and waits for Enter
(prompt_toolkit 3.0). These bindings, added to a front end's own (which take priority over
prompt_toolkit's), pass well-formed reports on to its handler and drop the rest."""

from __future__ import annotations

import re

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings, typical_mouse_events
from prompt_toolkit.keys import Keys

_NUMBERED = re.compile(r"\x1b\[<?\d+;\d+;\d+[mM]\Z")
"""An SGR (``ESC[<0;12;5M``) or urxvt (``ESC[32;12;5M``) report: three numbers."""


def well_formed(data: str) -> bool:
    """Whether ``data`` is a mouse report prompt_toolkit's handler can read: the X10 form
    (``ESC[M`` and three bytes, the first a known event) or three numbers."""
    if data.startswith("\x1b[M"):
        return len(data) == 6 and ord(data[3]) in typical_mouse_events
    return bool(_NUMBERED.match(data))


def guarded() -> KeyBindings:
    """A binding for mouse reports that hands the well-formed ones to prompt_toolkit's own
    handler and ignores the others."""
    mouse = load_mouse_bindings()
    handler = next(b.handler for b in mouse.bindings if b.keys == (Keys.Vt100MouseEvent,))
    keys = KeyBindings()

    @keys.add(Keys.Vt100MouseEvent)
    def _report(event: KeyPressEvent) -> object:
        if well_formed(event.data):
            return handler(event)
        return None  # an escape sequence that is not a mouse report: nothing to do

    return keys
