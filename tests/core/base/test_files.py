"""Files: a kill in the middle of a write never leaves a damaged file, and every file the app reads is
untrusted (truncated, oversized, of the wrong kind, carrying code): a clear message, no code run."""

import configparser
import csv
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpudemo.core.outputs import checkpoint
from gpudemo.core.outputs.checkpoint import CheckpointError
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train

ROOT = Path(__file__).resolve().parents[3]  # the repository

# Each child writes its file again and again, a new version each time, and says so; the test kills it
# at a random moment and reads what is there.
WRITERS = {
    "checkpoint": """
        from gpudemo.core.outputs import checkpoint
        from gpudemo.core.settings.config import TrainingConfig
        from gpudemo.core.problems import PROBLEMS
        config = TrainingConfig(problem="sine", width=1024, depth=4)
        model = PROBLEMS["sine"].make_model(config)
        for version in range(1, 10**6):
            checkpoint.save(PATH, model, config, version)
            print(version, flush=True)
    """,
    "export": """
        import numpy as np
        from gpudemo.core.outputs.export import write_losses_csv
        from gpudemo.core.session.runs import Run
        from gpudemo.core.settings.config import TrainingConfig
        run = Run(1, TrainingConfig(epochs=200_000))
        run.history.extend(np.linspace(1, 0, 200_000, dtype=np.float32))
        run.count = 200_000
        for version in range(1, 10**6):
            run.number = version
            write_losses_csv(PATH, [run])
            print(version, flush=True)
    """,
    "settings": """
        from PySide6.QtCore import QSettings
        store = QSettings(PATH, QSettings.Format.IniFormat)
        for version in range(1, 10**6):
            for key in range(2000):
                store.setValue(f"form/key{key}", f"{version}-{key}")
            store.setValue("version", version)
            store.sync()
            print(version, flush=True)
    """,
}


def whole(kind: str, path: Path) -> bool:
    """The file is one complete version of what the writer writes."""
    if kind == "checkpoint":
        return checkpoint.load(path).epochs >= 1
    if kind == "export":
        rows = list(csv.reader(path.read_text().splitlines()))
        numbers = {row[0] for row in rows[1:]}
        return len(rows) == 1 + 200_000 and len(numbers) == 1 and rows[-1][9] == "200000"
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path)
    version = parser["General"]["version"]
    return all(parser["form"][f"key{key}"] == f"{version}-{key}" for key in range(2000))


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind", [pytest.param(kind, marks=[pytest.mark.gui] if kind == "settings" else []) for kind in WRITERS]
)
@pytest.mark.linux
def test_a_kill_during_a_write_never_leaves_a_damaged_file(tmp_path, kind):
    path = tmp_path / {"checkpoint": "model.pt", "export": "losses.csv", "settings": "gpudemo.ini"}[kind]
    script = f"PATH = {str(path)!r}\n" + textwrap.dedent(WRITERS[kind])
    randomly = random.Random(kind)
    for _ in range(4):
        with subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        ) as child:
            try:
                assert child.stdout.readline().strip()  # the condition: one version is whole on disk
                # Not a wait for anything: the kill lands at a random point of the writes that follow.
                time.sleep(randomly.uniform(0.0, 0.4))
            finally:
                child.send_signal(signal.SIGKILL)
                child.wait()
        assert whole(kind, path)

    # A killed write may leave its temporary file beside the target (never the target itself): ours
    # are hidden; Qt's QSaveFile, under QSettings, names its own NAME.XXXXXX (and a NAME.lock).
    def left_by_a_killed_write(p):
        return (
            p.name.startswith(".")
            or p.suffix == ".lock"
            or (kind == "settings" and re.fullmatch(re.escape(path.name) + r"\.\w{6}", p.name) is not None)
        )

    assert all(p == path or left_by_a_killed_write(p) for p in tmp_path.iterdir())


@pytest.fixture(scope="module")
def good_checkpoint(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("good") / "model.pt"
    result = train(TrainingConfig(epochs=3))
    checkpoint.save(path, result.model, result.config, 3)
    return path.read_bytes()


def test_a_checkpoint_cut_anywhere_is_refused(tmp_path, good_checkpoint):
    path = tmp_path / "cut.pt"
    for end in range(0, len(good_checkpoint), max(1, len(good_checkpoint) // 97)):
        path.write_bytes(good_checkpoint[:end])
        with pytest.raises(CheckpointError, match="damaged or cut short|not a gpudemo checkpoint"):
            checkpoint.load(path)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=4096), flips=st.lists(st.integers(min_value=0), max_size=8))
def test_random_or_damaged_bytes_are_refused_with_a_reason(tmp_path, good_checkpoint, data, flips):
    damaged = bytearray(good_checkpoint)
    for flip in flips:
        damaged[flip % len(damaged)] ^= 0xFF
    for content in (data, bytes(damaged)):
        path = tmp_path / "file.pt"
        path.write_bytes(content)
        try:
            loaded = checkpoint.load(path)
        except CheckpointError as error:
            assert str(error).startswith(str(path))
        else:
            assert content == bytes(damaged)  # a flip that only touched padding: still a valid model
            assert isinstance(loaded.config, TrainingConfig)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.pt"
    with open(path, "wb") as out:
        out.truncate(checkpoint.MAX_BYTES + 1)  # sparse: no disk used
    with pytest.raises(CheckpointError, match="larger than any gpudemo model"):
        checkpoint.load(path)


class _Exploit:
    def __reduce__(self):
        return (os.system, ("touch " + str(Path(os.environ.get("EXPLOIT_MARKER", "/nonexistent")) / "ran"),))


@pytest.mark.parametrize("payload", ["plain pickle", "torch.save", "inside a dict"])
def test_a_file_that_carries_code_runs_nothing(tmp_path, monkeypatch, payload):
    monkeypatch.setenv("EXPLOIT_MARKER", str(tmp_path))
    path = tmp_path / "evil.pt"
    if payload == "plain pickle":
        path.write_bytes(pickle.dumps(_Exploit()))
    elif payload == "torch.save":
        torch.save(_Exploit(), path)
    else:
        torch.save(
            {
                "format": "gpudemo-checkpoint",
                "version": 1,
                "config": {},
                "epochs": 1,
                "state_dict": {"weight": _Exploit()},
            },
            path,
        )
    with pytest.raises(CheckpointError):
        checkpoint.load(path)
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    "data",
    [
        {"format": "gpudemo-checkpoint", "version": 1, "config": "lr=0.1", "state_dict": {}, "epochs": 1},
        {"format": "gpudemo-checkpoint", "version": 1, "config": {"epochs": "many"}, "state_dict": {}, "epochs": 1},
        {"format": "gpudemo-checkpoint", "version": 1, "config": {}, "state_dict": [1, 2], "epochs": 1},
        {"format": "gpudemo-checkpoint", "version": 1, "config": {}, "state_dict": {}, "epochs": -5},
        {"format": "gpudemo-checkpoint", "version": "1", "config": {}, "state_dict": {}, "epochs": 1},
        {
            "format": "gpudemo-checkpoint",
            "version": 1,
            "config": {"problem": "sine", "width": 10**9},
            "state_dict": {},
            "epochs": 1,
        },
        [1, 2, 3],
        torch.zeros(3),
    ],
)
def test_a_file_of_the_wrong_kind_gets_a_reason(tmp_path, data):
    path = tmp_path / "wrong.pt"
    torch.save(data, path)
    with pytest.raises(CheckpointError) as refused:
        checkpoint.load(path)
    assert str(refused.value).startswith(str(path)) and "Traceback" not in str(refused.value)


def test_a_ctrl_c_as_the_temporary_file_is_created_leaves_nothing_behind(tmp_path, monkeypatch):
    """The signal can land between the temporary file's creation and the cleanup's reach (with mkstemp: inside
    it, or as it returned, the name never known): CI's Ctrl-C test caught one left behind."""
    from gpudemo.core.base.files import PARTIAL, write_atomically

    real_open = os.open

    def open_then_interrupted(path, flags, *args, **kwargs):
        descriptor = real_open(path, flags, *args, **kwargs)
        if PARTIAL in str(path):  # the temporary file exists now: Ctrl-C before anything else runs
            os.close(descriptor)
            raise KeyboardInterrupt
        return descriptor

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(tmp_path / "out.txt", lambda out: out.write("x"))
    assert list(tmp_path.iterdir()) == []
