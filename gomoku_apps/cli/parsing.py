"""The ``gomoku`` command's parsers: one help style, and errors that point at the verb.

Left alone, argparse reports an option that a verb does not know with the top-level
usage line (``usage: gomoku [-h] [--version] COMMAND ...``) and suggests nothing, and
``ArgumentDefaultsHelpFormatter`` prints "(default: None)" after help texts that
already name their default. Here:

* every verb's parser (:class:`VerbParser`) uses :class:`HelpFormatter`, which adds
  "(default: X)" only where the help text does not already speak of a default and X
  means something, shows the default of an option without help text too, and turns
  reStructuredText markup (``` ``x`` ```, ``:class:`~a.B` ``) into plain words, since
  verb descriptions are often module docstrings;
* an option's first long spelling is its name; further long spellings are older
  aliases that still work: help shows ``--board-size N`` and says "(also --size)";
* :class:`CommandParser` reports an unknown option with the verb's own usage line and
  the nearest option it knows ("did you mean --board-size?"), and an unknown verb
  with the nearest verb;
* a verb with routes (``gomoku train alphazero|ppo``) names its ``default_route``,
  taken when the command names none (``gomoku train --cpu-hours 1``).
"""

from __future__ import annotations

import argparse
import copy
import difflib
import re
import sys
from collections.abc import Sequence

_ROLE = re.compile(r":[a-z]+:`(~?)([^`<]+?)`")
_LITERAL = re.compile(r"``([^`]+)``")
_INTERPRETED = re.compile(r"`([^`]+)`")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def plain_text(text: str) -> str:
    """``text`` without reStructuredText markup: roles, literals and ``::``.

    >>> plain_text("run ``gomoku train`` on :class:`~gomoku_env.Rule`::")
    'run gomoku train on Rule:'
    """
    text = _ROLE.sub(
        lambda match: match[2].rsplit(".", 1)[-1] if match[1] else match[2], text
    )
    text = _INTERPRETED.sub(r"\1", _LITERAL.sub(r"\1", text))
    return re.sub(r"::(\s|$)", r":\1", text)


def long_options(action: argparse.Action) -> list[str]:
    """The ``--`` spellings of ``action``: its name first, then its aliases."""
    return [option for option in action.option_strings if option.startswith("--")]


def _aliases(action: argparse.Action) -> list[str]:
    """The older spellings of ``action``: its long options after the name, but not
    the ``--no-X`` of an on/off flag, which is its other half, not an alias."""
    negations = (
        action.option_strings[1::2]
        if isinstance(action, argparse.BooleanOptionalAction)
        else []
    )
    return [option for option in long_options(action)[1:] if option not in negations]


def _shows_default(action: argparse.Action) -> bool:
    """True when help should add "(default: X)": X is informative and not said yet."""
    uninformative = action.default is None or action.default is False
    if not action.option_strings or uninformative:
        return False
    if action.default == argparse.SUPPRESS:
        return False
    if isinstance(action, argparse._HelpAction | argparse._VersionAction):
        return False
    return "default" not in (action.help or "").lower()


def _default_text(action: argparse.Action) -> str:
    """ " (default: X)", X the value, or for an on/off flag the spelling in effect."""
    if isinstance(action, argparse.BooleanOptionalAction):
        return f" (default: {long_options(action)[0]})"
    return " (default: %(default)s)"


class HelpFormatter(argparse.HelpFormatter):
    """Help in one style for every verb (see the module docstring)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = _PARAGRAPH_BREAK.split(plain_text(text).strip())
        return "\n\n".join(
            super(HelpFormatter, self)._fill_text(paragraph, width, indent)
            for paragraph in paragraphs
        )

    def _expand_help(self, action: argparse.Action) -> str:
        return plain_text(super()._expand_help(action))

    def _get_help_string(self, action: argparse.Action) -> str:
        help_text = action.help or ""
        aliases = _aliases(action)
        if aliases:
            help_text += f" (also {', '.join(aliases)})"
        if _shows_default(action):
            help_text += _default_text(action)
        return help_text.strip()

    def _format_action(self, action: argparse.Action) -> str:
        if not action.help and (_shows_default(action) or _aliases(action)):
            action = copy.copy(action)  # argparse skips an option without help
            action.help = self._get_help_string(action)
        return super()._format_action(action)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        aliases = _aliases(action)
        if aliases:
            action = copy.copy(action)
            action.option_strings = [
                option for option in action.option_strings if option not in aliases
            ]
        return super()._format_action_invocation(action)


class VerbParser(argparse.ArgumentParser):
    """The parser of one ``gomoku`` verb, always with the shared :class:`HelpFormatter`.

    A ``formatter_class`` that a verb passes is replaced, so that every verb's help
    reads alike.
    """

    default_route: str | None = None
    """The route taken when the command names none (a verb with routes only)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["formatter_class"] = HelpFormatter
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate spelled most like ``word``, or None when none is close."""
    matches = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return matches[0] if matches else None


def unknown_option_message(
    extras: Sequence[str], parser: argparse.ArgumentParser
) -> str:
    """The "unrecognized arguments" message, naming the nearest known option."""
    names = {
        option: long_options(action)[0] if long_options(action) else option
        for action in parser._actions
        for option in action.option_strings
    }
    hints = []
    for extra in extras:
        if not extra.startswith("-"):
            continue
        guess = nearest(extra.split("=", 1)[0], list(names))
        if guess is not None and names[guess] not in hints:
            hints.append(names[guess])
    message = f"unrecognized arguments: {' '.join(extras)}"
    if hints:
        message += f"; did you mean {' or '.join(hints)}?"
    return message


class CommandParser(argparse.ArgumentParser):
    """The top-level ``gomoku`` parser: verbs are :class:`VerbParser`, errors helpful."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.verbs: dict[str, argparse.ArgumentParser] = {}

    def add_subparsers(self, **kwargs: object) -> argparse._SubParsersAction:
        kwargs.setdefault("parser_class", VerbParser)
        kwargs.setdefault("dest", "command")
        action = super().add_subparsers(**kwargs)  # type: ignore[arg-type]
        self.verbs = action.choices
        return action

    def parse_args(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> argparse.Namespace:
        args = list(sys.argv[1:] if args is None else args)
        self._check_verb(args)
        args = self._with_default_route(args)
        arguments, extras = self.parse_known_args(args, namespace)
        if extras:
            verb = self.verbs.get(getattr(arguments, "command", None) or "", self)
            verb = _route_parser(verb, getattr(arguments, "route", None))
            verb.error(unknown_option_message(extras, verb))
        return arguments

    def _with_default_route(self, args: list[str]) -> list[str]:
        """``args`` with the verb's default route put in when they name none (help
        asked of the verb itself stays the verb's help, listing its routes)."""
        verb = self.verbs.get(args[0]) if args else None
        route = getattr(verb, "default_route", None)
        if route is None:
            return args
        following = args[1] if len(args) > 1 else None
        if following in ("-h", "--help") or following in _route_names(verb):
            return args
        return [args[0], route, *args[1:]]

    def _check_verb(self, args: Sequence[str]) -> None:
        """An unknown verb is an error naming the nearest verb and all of them."""
        words = [arg for arg in args if not arg.startswith("-")]
        if not words or not self.verbs or words[0] in self.verbs:
            return
        guess = nearest(words[0], list(self.verbs))
        hint = f"; did you mean {guess!r}?" if guess else ""
        self.error(
            f"unknown command {words[0]!r}{hint} (commands: {', '.join(self.verbs)})"
        )


def _route_parser(
    verb: argparse.ArgumentParser, route: str | None
) -> argparse.ArgumentParser:
    """The parser of the verb's ``route`` (``gomoku train ppo``), else the verb's."""
    for action in verb._actions:
        if route is not None and isinstance(action, argparse._SubParsersAction):
            return action.choices.get(route, verb)
    return verb


def _route_names(verb: argparse.ArgumentParser) -> list[str]:
    return [
        name
        for action in verb._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    ]
