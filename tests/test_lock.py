"""The lock: every dependency of every extra is pinned in constraints.txt, within pyproject's bounds, and the
README's set-up commands and .ci/run install through it."""

import re
import tomllib

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.helpers import REPO


def declared_requirements():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    requirements = [Requirement(text) for text in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        requirements += [Requirement(text) for text in extra]
    return [requirement for requirement in requirements if canonicalize_name(requirement.name) != "bot-arena"]


def locked_versions(python_version):
    """The version constraints.txt pins for each package on a Linux machine with that Python."""
    environment = {**default_environment(), "python_version": python_version,
                   "python_full_version": f"{python_version}.0", "sys_platform": "linux"}
    pins = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        if not line or line.startswith(("#", " ")):
            continue
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            (pin,) = requirement.specifier
            assert pin.operator == "==", line
            pins[canonicalize_name(requirement.name)] = pin.version
    return pins


def test_every_declared_dependency_is_locked_within_its_bounds_on_each_supported_python():
    for python_version in ("3.11", "3.12", "3.13"):
        pins = locked_versions(python_version)
        for requirement in declared_requirements():
            name = canonicalize_name(requirement.name)
            assert name in pins, f"{name} is not in constraints.txt: regenerate the lock"
            assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])


def readme_setup_commands():
    return re.findall(r"```sh\n(pip install[^\n]*)\n```", (REPO / "README.md").read_text())[:2]


def test_the_readme_set_up_commands_install_the_lock():
    main_job, tests = readme_setup_commands()
    assert main_job == "pip install -c constraints.txt -e . && arena tournament maps/center_block.txt"
    assert tests == "pip install -c constraints.txt -e '.[test]' && pytest"


def test_ci_runs_the_readme_test_command_exactly():
    _, tests = readme_setup_commands()
    ci_lines = (REPO / ".ci" / "run").read_text().splitlines()
    assert tests in ci_lines
