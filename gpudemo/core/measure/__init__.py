"""The measurements: the same run on each device (compare), the step by size (sweep) against the
device's limits (roofline), where a step's time goes (profile, timeline), what moving data costs
(transfer), and the one timer they share (timing); whether the machine was busy when a figure was
taken is core/hardware/busy.py, which a run's own loop asks too. Leaves of the core: only the command line and
the window import them."""
