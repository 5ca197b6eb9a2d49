"""Data parallel: the launcher that starts and owns the worker processes, the worker that trains its
shard with DistributedDataParallel (also under torchrun), and the plain script that does the same.
Leaves of the core: only the command line and the window import them."""
