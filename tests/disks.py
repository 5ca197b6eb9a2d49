"""A disk filled for real, for the tests of what a write does when no byte more fits."""

import os


def fill(folder, leave: int = 8192) -> None:
    """Fill the disk of `folder` until at most `leave` bytes are free."""
    filler = os.path.join(folder, "filler")
    with open(filler, "ab") as out:
        while True:
            free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
            if free <= leave:
                return
            try:
                out.write(b"\0" * min(free - leave, 4096))
                out.flush()
            except OSError:
                return
