"""`python -m companion` runs the `purser` command line."""

import sys

from companion.cli import main

sys.exit(main())
