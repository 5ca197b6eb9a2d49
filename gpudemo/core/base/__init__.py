"""The ground every room stands on: sentences for a person, failures, numbers, all-or-nothing writes, stop and
pause, pace, and the one seam of OS-specific calls.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
