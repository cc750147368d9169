"""What a conformance check found: one line per check, passed or failed, gathered in a report."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CheckResult:
    """One check: its name, whether it passed, and what was seen (why it failed, or what was covered)."""

    name: str
    passed: bool
    detail: str = ""

    def line(self) -> str:
        """``ok    name: detail`` or ``FAIL  name: detail``."""
        return f"{'ok  ' if self.passed else 'FAIL'}  {self.name}" + (f": {self.detail}" if self.detail else "")


@dataclass
class ConformanceReport:
    """Every check run on one game or bot, in the order they ran."""

    subject: str
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[CheckResult]:
        """The checks that failed."""
        return [check for check in self.checks if not check.passed]

    def passed(self, name: str, detail: str = "") -> None:
        """Record a check that passed."""
        self.checks.append(CheckResult(name, True, detail))

    def failed(self, name: str, detail: str) -> None:
        """Record a check that failed, saying what was expected and what happened."""
        self.checks.append(CheckResult(name, False, detail))

    def lines(self) -> list[str]:
        """One line per check."""
        return [check.line() for check in self.checks]

    def assert_ok(self) -> None:
        """Raise ``AssertionError`` listing every failed check, if any failed (for a plugin's own tests)."""
        if not self.ok:
            raise AssertionError(f"{self.subject}: {len(self.failures)} check(s) failed\n"
                                 + "\n".join(check.line() for check in self.failures))

    def __str__(self) -> str:
        return "\n".join([self.subject, *self.lines()])
