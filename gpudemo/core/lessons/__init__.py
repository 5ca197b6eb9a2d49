"""The lesson files, what a lesson step computes, and the second lesson's guesses read against measurements.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
