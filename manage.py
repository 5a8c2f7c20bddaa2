#!/usr/bin/env python
"""Django's command-line utility for Dubium."""

import os
import sys
from pathlib import Path


def main() -> None:
    # The site apps live in platform/ (see README "Layout"); an editable install
    # maps them too, this line makes a bare checkout work the same way.
    sys.path.insert(1, str(Path(__file__).resolve().parent / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
