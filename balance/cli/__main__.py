"""``python -m balance.cli``: the ``balance`` command."""

from balance.cli import main

main()
