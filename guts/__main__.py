import sys

from guts.cli import main

sys.exit(main())
