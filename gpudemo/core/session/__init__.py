"""The runs of a session, with no Qt (the app's model), and their smoothed losses.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
