"""`python -m arbiter`: the `arbiter` command."""

import sys

from arbiter.cli import main

sys.exit(main())
