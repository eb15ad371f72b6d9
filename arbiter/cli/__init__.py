"""The `arbiter` command: one sub-command a module (`arbiter/cmd_<name>.py`), imported lazily.

Each command module exposes `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`.
Every command takes `--lang` (the language of what it says; `arbiter.i18n`). Errors of our
own (`ArbiterError`) become one clear line on stderr, in that language where the catalogue
has the message, and exit status 2; no traceback reaches a user.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from typing import NoReturn

from rules.errors import ArbiterError

#: command name -> module; the module is imported only when that command runs
COMMANDS: dict[str, str] = {
    "demo": "arbiter.cli.demo",
    "play": "arbiter.cli.play",
    "resume": "arbiter.cli.resume",
    "replay": "arbiter.cli.replay",
    "simulate": "arbiter.cli.simulate",
    "pgn": "arbiter.cli.pgn",
    "position": "arbiter.cli.position",
    "decode": "arbiter.cli.decode",
    "calibrate": "arbiter.cli.calibrate",
    "snapshot": "arbiter.cli.snapshot",
    "hall": "arbiter.cli.hall",
    "boards": "arbiter.cli.boards",
    "teach": "arbiter.cli.teach",
}


def _available() -> dict[str, str]:
    out = {}
    for name, module in COMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            out[name] = module
    return out


def build_parser(commands: dict[str, str]) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    parser = argparse.ArgumentParser(
        prog="arbiter",
        description="An arbiter and clock for a physical chess set (FIDE Laws of Chess 2023).",
    )
    parser.add_argument(
        "--version", action=_Version, help="show the program's version and exit"
    )
    add_lang_argument(parser, dest="lang_before_command")  # `arbiter --lang sr demo`
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, object] = {}
    for name, module_name in commands.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        with contextlib.suppress(argparse.ArgumentError):  # a command's own `--lang` stays
            add_lang_argument(p)
    return parser, modules


class _Version(argparse.Action):
    """`arbiter --version`: the installed package's version, looked up only when asked (the
    package metadata is not read at every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(
            option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("otb-arbiter")
        except PackageNotFoundError:
            number = "(not installed as a package)"
        parser.exit(message=f"arbiter {number}\n")


def add_lang_argument(parser: argparse.ArgumentParser, dest: str = "lang") -> None:
    """`--lang`, which every command takes (and `arbiter` itself, before the command)."""
    from rules.i18n import LANGUAGES

    parser.add_argument(
        "--lang",
        dest=dest,
        metavar="LANG",
        help=f"the language of the rulings and messages: {', '.join(LANGUAGES)} (default: from"
        " LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else the rule profile's, else en)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = _available()
    # Import only the command asked for, so `arbiter replay` never loads OpenCV or GPIO code.
    chosen = _command_of(argv)
    if chosen in commands:
        commands = {chosen: commands[chosen]}
    from arbiter.cli.localize import language_of_argv, translate_parser, use_language

    words = language_of_argv(argv)  # `--help` is printed while parsing: decided before
    use_language(words)
    parser, modules = build_parser(commands)
    translate_parser(parser, words)
    args, extras = parser.parse_known_args(argv)
    if extras:
        _unrecognized(parser, args.command, extras)
    if args.command is None:
        parser.print_help()
        return 2
    from arbiter import i18n

    try:
        i18n.request(getattr(args, "lang", None) or getattr(args, "lang_before_command", None))
        return int(modules[args.command].run(args) or 0)  # type: ignore[attr-defined]
    except ArbiterError as exc:
        text = i18n.error_text(exc, i18n.language_for())
        print(f"arbiter {args.command}: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        interrupted = i18n.gettext(i18n.INTERRUPTED, i18n.language_for())
        print(f"arbiter {args.command}: {interrupted}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        from rules.library_reasons import reason_of

        language = i18n.language_for()
        template = i18n.FILE_ERRORS.get(exc.errno or -1) if exc.filename else None
        if template is not None:
            text = i18n.gettext(template, language).format(path=exc.filename)
        else:  # the system's reason in our words where its number is in the table
            text = f"{exc.filename or ''}: {reason_of(exc).say(language)}".lstrip(": ")
        print(f"arbiter {args.command}: {text}", file=sys.stderr)
        return 2


def _unrecognized(
    parser: argparse.ArgumentParser, command: str | None, extras: list[str]
) -> NoReturn:
    """Refuse options the command does not have, with the command's own usage line.

    `parse_args` refuses them from the top-level parser, which prints `usage: arbiter [-h]
    [--lang LANG] COMMAND ...`: a user who mistyped an option of `arbiter play` (`--time
    300`) is not shown the options `play` has (the newcomer's trial, row 21). The message
    is argparse's own, in the user's language (`arbiter.cli.localize`).
    """
    target = parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            target = action.choices[command]
    message = argparse._("unrecognized arguments: %s")  # type: ignore[attr-defined]
    target.error(message % " ".join(extras))


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named in `argv`: its first word that is no option nor `--lang`'s value."""
    after_lang = False
    for arg in argv:
        if after_lang:
            after_lang = False
        elif arg == "--lang":
            after_lang = True
        elif not arg.startswith("-"):
            return arg
    return None


if __name__ == "__main__":
    sys.exit(main())
