"""The measurements: the same run on each device (compare), the step by size (sweep) against the
device's limits (roofline), where a step's time goes (profile, timeline), what moving data costs
(transfer), whether the machine was busy when a figure was taken (busy), and the one timer they
share (timing). Leaves of the core: only the command line and the window import them."""
