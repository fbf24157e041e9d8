"""The value types (spider_cli/rules/values.py) behave as frozen dataclasses do."""

from __future__ import annotations

from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spider_cli.rules.values import FrozenError, Value, replace


class Point(Value):
    """Two fields, one with a default."""

    x: int
    y: int = 0
    unit: ClassVar[str] = "pile"


class Labelled(Point):
    label: str = ""


class Other(Value):
    x: int
    y: int = 0


class Checked(Value):
    count: int

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("a count is never negative")


def test_fields_defaults_and_class_variables() -> None:
    assert Point.__match_args__ == ("x", "y")
    assert Labelled.__match_args__ == ("x", "y", "label")
    assert Point(3) == Point(3, 0) == Point(x=3) == Point(y=0, x=3)
    assert Labelled(1, 2, "a").label == "a" and Labelled(1).label == ""
    assert Point.unit == "pile" and "unit" not in Point.__match_args__


def test_equality_is_by_type_and_values() -> None:
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != Other(1, 2)  # same values, another type: not equal (unlike tuples)
    assert Point(1, 2) != Labelled(1, 2)
    assert Point(1, 2) != (1, 2)
    assert len({Point(1, 2), Point(1, 2), Other(1, 2)}) == 2


def test_repr_names_the_fields() -> None:
    assert repr(Labelled(1, label="x")) == "Labelled(x=1, y=0, label='x')"


def test_values_never_change() -> None:
    point = Point(1)
    with pytest.raises(FrozenError, match="'x'"):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenError):
        del point.y
    assert replace(point, y=5) == Point(1, 5) and point == Point(1)
    assert type(replace(Labelled(1), label="b")) is Labelled


def test_wrong_arguments_are_refused_as_by_a_dataclass() -> None:
    with pytest.raises(TypeError, match="missing"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unknown"):
        Point(1, z=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="repeated"):
        Point(1, x=2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="takes 2"):
        Point(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no default"):

        class _Bad(Value):
            first: int = 0
            second: int  # type: ignore[misc]


def test_post_init_checks_the_values() -> None:
    assert Checked(2).count == 2
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)


def test_a_value_matches_by_position_and_keyword() -> None:
    match Labelled(1, 2, "z"):
        case Labelled(1, y, label=label):
            assert (y, label) == (2, "z")
        case _:
            pytest.fail("no match")


@given(st.integers(), st.integers(), st.integers(), st.integers())
def test_equal_values_hash_alike(a: int, b: int, c: int, d: int) -> None:
    first, second = Point(a, b), Point(c, d)
    assert (first == second) == ((a, b) == (c, d))
    if first == second:
        assert hash(first) == hash(second)
