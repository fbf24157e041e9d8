"""Builds the compiled search core (csrc/, C with the CPython API) beside the Python package.

The core is optional: where no C compiler (or no Python headers) is found, the build of the
extension is skipped with a warning, the install still succeeds, and every search runs on
the Python path (spider_cli.analysis.native says so once)."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = [
    "module.c",
    "module_judge.c",
    "convert.c",
    "specs.c",
    "checks.c",
    "run.c",
    "state.c",
    "ceiling.c",
    "moves.c",
    "value.c",
    "beam.c",
    "blind.c",
    "goal.c",
    "goal_steps.c",
    "goal_search.c",
    "rollout.c",
    "chance.c",
    "judge.c",
    "orders.c",
]
HEADERS = ["core.h", "search.h", "goal.h", "glue.h"]


class BuildCore(build_ext):
    """Warning-free C: -Wall -Wextra with GCC and Clang (MSVC keeps its defaults)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = ["-O3", "-Wall", "-Wextra", "-std=c99"]
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "spider_cli.analysis._core",
            sources=[f"csrc/{name}" for name in SOURCES],
            depends=[f"csrc/{name}" for name in HEADERS],
            libraries=["m"],  # exp() of chance.c's logistic value
            optional=True,
        )
    ],
    cmdclass={"build_ext": BuildCore},
)
