"""The science of gpudemo, with no Qt, ever: the command line and the window are two thin faces on it.

Nothing is loose at its root. Its rooms, from the ground up (pyproject.toml's import contracts keep
imports going down, between the rooms and inside each):
- base/: sentences to translate, failures for a person, numbers for a person, all-or-nothing writes,
  stop and pause, rate and ETA, and at the very ground oscalls, every call whose behaviour differs by
  operating system;
- settings/: rules (what a person may type), config (the training settings, declared once);
- problems/ (each problem's data, model, loss and script; datafile, a person's CSV) and hardware/
  (the devices described and found, nvml, energy counters, a busy CPU);
- step/: optimizers, precision, hookless, compiled, fullgraph, step (one optimizer step, in any
  precision, eager or compiled whole), capture (the graph step), modes (one object per step mode);
- training/: a run, from its plan and budget through the prepared run, the loop and the read-back to
  its records, history, landscape and prediction;
- session/: the runs of a session (the app's model) and their smoothing;
- measure/ (compare, sweep, roofline, profile, timeline, transfer, timing) and outputs/ (the script, the
  checkpoint, the losses' CSV);
- lessons/ (the lesson files, their figures, the second lesson's guesses) and distributed/ (data
  parallel: launcher, worker, script), at the top.
"""
