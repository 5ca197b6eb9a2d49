"""What this machine has: its devices and their memory, NVIDIA's metrics, energy counters, a CPU another program
keeps busy.

No re-exports: each module is imported by its own name (the rooms load no torch until one does).
"""
