"""What a person may type (rules) and the training settings, each declared once (config).

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
