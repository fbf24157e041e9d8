"""Small immutable value types, declared like frozen dataclasses but cheap to define.

A command, a session's result or a game file's record is a :class:`Value`: its fields are its
annotations, in order, with defaults as class attributes. It gets ``__init__`` (which runs a
``__post_init__``), ``__eq__``, ``__hash__`` and ``__repr__`` as a frozen dataclass does, and
mypy reads it as one (``dataclass_transform``).

Why not :mod:`dataclasses`: under Python 3.11 each frozen dataclass compiles six methods when
its module is imported, and importing :mod:`dataclasses` pulls in :mod:`inspect` and
:mod:`ast`. With about sixty such classes on the way to the first command, that was a third
of ``spider run``'s start (see BENCHMARKS.md); here a class costs a few microseconds and its
methods are shared. Mutable working records off that path (the searches', the journal's)
stay dataclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar, dataclass_transform

V = TypeVar("V", bound="Value")


class FrozenError(AttributeError):
    """A field of a value was assigned: values never change (make a new one with
    :func:`replace`)."""


class _Signature:
    """``inspect.signature`` of a value class: its fields, with their types and defaults
    (rather than the shared ``(*args, **kwargs)``). Built when asked for, so that defining
    a class does not import :mod:`inspect`."""

    def __get__(self, instance: object, owner: type[Value]) -> Any:
        import inspect
        import typing

        try:
            hints = typing.get_type_hints(owner)
        except NameError:  # a type named only for type checkers: keep the annotation's text
            hints = {}
            for klass in reversed(owner.__mro__):
                hints.update(getattr(klass, "__annotations__", {}))
        parameter = inspect.Parameter
        return inspect.Signature(
            [
                parameter(
                    name,
                    parameter.POSITIONAL_OR_KEYWORD,
                    default=owner._defaults.get(name, parameter.empty),
                    annotation=hints.get(name, parameter.empty),
                )
                for name in owner.__match_args__
            ],
            return_annotation=None,
        )


@dataclass_transform(frozen_default=True)
class Value:
    """Base of the value types: subclass it and annotate the fields (see the module)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _checked: ClassVar[bool] = False
    __signature__: ClassVar[Any] = _Signature()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls.__match_args__)
        defaults = dict(cls._defaults)
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (inspect costs the start)
        for name, kind in own.items():
            if str(kind).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in fields:
                fields.append(name)
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            elif defaults:
                raise TypeError(f"{cls.__name__}: {name!r} has no default but follows a default")
        cls.__match_args__ = tuple(fields)  # type: ignore[misc]  # set once, per class
        cls._defaults = defaults
        cls._checked = hasattr(cls, "__post_init__")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self.__match_args__
        if not kwargs and len(args) == len(fields):  # every field, in order: the quick way
            self.__dict__.update(zip(fields, args, strict=True))
            if self._checked:
                self.__post_init__()  # type: ignore[attr-defined]  # _checked says it is there
            return
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} values, not {len(args)}")
        values = dict(zip(fields, args, strict=False))
        for name, value in kwargs.items():
            if name not in fields or name in values:
                problem = "an unknown" if name not in fields else "a repeated"
                raise TypeError(f"{type(self).__name__}: {problem} field {name!r}")
            values[name] = value
        if len(values) < len(fields):
            for name in fields:
                if name not in values:
                    if name not in self._defaults:
                        raise TypeError(f"{type(self).__name__}: field {name!r} is missing")
                    values[name] = self._defaults[name]
        self.__dict__.update(values)  # past __setattr__, which refuses every change
        if self._checked:  # a class's own check of its values, as in a dataclass
            self.__post_init__()  # type: ignore[attr-defined]  # _checked says it is there

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")


def replace(value: V, **changes: Any) -> V:
    """A copy of ``value`` with some fields changed, as :func:`dataclasses.replace` makes."""
    fields = {name: getattr(value, name) for name in value.__match_args__}
    return type(value)(**{**fields, **changes})
