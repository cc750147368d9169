"""Calling hooks through pluggy so that one broken plugin is reported in one line and never stops the others.

Pluggy stops a hook call at the first implementation that raises. Every implementation a plugin
registers is therefore guarded when the plugin is registered (:func:`guard_plugin`): inside
:func:`call_hook` an exception is recorded against the plugin and the call goes on with the next
implementation. Pluggy still orders the calls (``tryfirst``, ``trylast``) and runs wrappers around them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import pluggy

_failures: ContextVar[list[HookFailure] | None] = ContextVar("arena_hook_failures", default=None)
_calling_plugin: ContextVar[str] = ContextVar("arena_calling_plugin", default="")


@dataclass(frozen=True)
class HookFailure:
    """An exception raised inside a hook call: by one plugin's implementation, or (``plugin`` empty) a wrapper."""

    hook: str
    plugin: str
    error: str

    def __str__(self) -> str:
        return f"plugin {self.plugin}: {self.error}" if self.plugin else f"hook {self.hook}: {self.error}"


@dataclass
class HookCall:
    """What one hook call returned, and each exception its implementations raised."""

    results: list[Any] = field(default_factory=list)
    failures: list[HookFailure] = field(default_factory=list)


def calling_plugin() -> str:
    """The name of the plugin whose implementation is running (for callbacks a hook passes to plugins)."""
    return _calling_plugin.get()


def guard_plugin(manager: pluggy.PluginManager, plugin: object) -> None:
    """Wrap each of ``plugin``'s registered implementations so that :func:`call_hook` can report its errors.

    Wrappers (``wrapper=True`` or ``hookwrapper=True``) are left as they are: pluggy drives them as
    generators. An error a wrapper raises ends the call and is reported against the hook.
    """
    for caller in manager.get_hookcallers(plugin) or []:
        for impl in caller.get_hookimpls():
            if impl.plugin is plugin and not (impl.wrapper or impl.hookwrapper):
                # pluggy declares the attribute Final; replacing it is how errors are caught per plugin.
                impl.function = _guarded(impl.function, caller.name, impl.plugin_name)  # type: ignore[misc]


def _guarded(function: Callable[..., Any], hook_name: str, plugin_name: str) -> Callable[..., Any]:
    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        failures = _failures.get()
        token = _calling_plugin.set(plugin_name)
        try:
            return function(*args, **kwargs)
        except Exception as exc:
            if failures is None:
                raise
            failures.append(HookFailure(hook_name, plugin_name, f"{type(exc).__name__}: {exc}"))
            return None
        finally:
            _calling_plugin.reset(token)

    return guarded


@contextmanager
def _collecting(failures: list[HookFailure]) -> Iterator[None]:
    token = _failures.set(failures)
    try:
        yield
    finally:
        _failures.reset(token)


def call_hook(manager: pluggy.PluginManager, name: str, **kwargs: Any) -> HookCall:
    """Call hook ``name`` with ``kwargs`` through pluggy, collecting each plugin's error instead of raising."""
    call = HookCall()
    with _collecting(call.failures):
        try:
            call.results = list(getattr(manager.hook, name)(**kwargs))
        except Exception as exc:  # raised by a wrapper, which is not guarded
            call.failures.append(HookFailure(name, "", f"{type(exc).__name__}: {exc}"))
    return call
