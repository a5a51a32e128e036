"""``python -m judgestats.cli``: the ``judgestats`` command."""

import sys

from .main import main

sys.exit(main())
