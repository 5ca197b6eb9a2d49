"""The science of gpudemo: devices, problems, training, prediction. No Qt here, ever.

The command line and the window are two thin faces on these functions.
"""
