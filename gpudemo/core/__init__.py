"""The science of gpudemo, with no Qt, ever: the command line and the window are two thin faces on it.

Its rooms, from the ground up (pyproject.toml's import contracts keep imports going down):
- oscalls: every call whose behaviour differs by operating system (files synced and replaced, processes
  alive and ended, memory, compilers, PyTorch's DLLs on Windows), the one place that asks which runs;
- messages, errors, units, files, control, pace, busy: sentences to translate, failures for a person,
  numbers for a person, all-or-nothing writes, stop and pause, rate and ETA, a CPU figure taken while
  other processes took its cores;
- rules (what a person may type), config (the training settings, declared once);
- devices (what this machine has, and has free now), nvml, precision, optimizers, hookless;
  problems/ (each problem's data, model, loss and script) with datafile (a person's CSV);
- compiled (what a compiled step needs around it), step (one optimizer step, in any precision, eager or
  compiled whole), budget (what a run needs);
- capture (the graph step, captured in CUDA graphs);
- modes (eager, compiled, graph: one object each, what it refuses, says, prepares and takes);
- plan (the preflight: a run checked once, the Plan every face hands the loop);
- training/ (a room: records, failures, the prepared run, the read-back, the loop), checkpoint,
  prediction; runs (the app's model: runs and a session);
- script (the plain PyTorch of a run), lesson, export;
- measure/ (compare, sweep, roofline, profile, timeline, transfer, timing) and
  distributed/ (data parallel: launcher, worker, script);
- guesses (the second lesson: each measurement read as its question asks), the only room above measure/.
"""
