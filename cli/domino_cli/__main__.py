"""``python -m domino_cli``: the same as the ``domino`` command."""

from domino_cli.app import main

main()
