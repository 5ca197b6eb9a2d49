"""What a person takes home: the PyTorch script of a run, the model file, the losses as CSV.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
