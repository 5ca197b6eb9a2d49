import sys

from gpudemo.cli import main

sys.exit(main())
