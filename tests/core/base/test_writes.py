"""Every file the app writes: all or nothing, the target respected (symlinks, permissions, devices and
FIFOs), checked before any work, no temporary file left behind, and no traceback when the disk says no."""

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from gpudemo.cli import outputs
from gpudemo.core.base.files import PARTIAL, CannotWrite, check_writable, leftovers, write_atomically
from tests.commands import gpudemo

OLD = "epoch,loss\n1,0.5\n"


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old")
    link.symlink_to(real)
    write_atomically(link, lambda out: out.write("new"))
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.linux
def test_an_existing_file_keeps_its_permissions_and_a_new_one_gets_the_umasks(tmp_path):
    kept = tmp_path / "kept.csv"
    kept.write_text("old")
    kept.chmod(0o640)
    write_atomically(kept, lambda out: out.write("new"))
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
    mask = os.umask(0o027)
    try:
        new = tmp_path / "new.csv"
        write_atomically(new, lambda out: out.write("new"))
        assert stat.S_IMODE(new.stat().st_mode) == 0o640  # 0666 less the umask, not mkstemp's 0600
    finally:
        os.umask(mask)


@pytest.mark.linux
def test_a_fifo_is_written_to_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    write_atomically(fifo, lambda out: out.write("through the pipe"))
    reader.join(timeout=10)
    assert received == ["through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.linux
def test_the_temporary_files_of_interrupted_writes_are_named_and_removed_by_the_next(tmp_path):
    target = tmp_path / "m.pt"
    left = tmp_path / f".m.pt{PARTIAL}k1ll3d.pt"  # what a SIGKILL mid-write leaves
    left.write_bytes(b"half")
    assert leftovers(target) == [left]

    def interrupted(out):
        out.write("half")
        raise KeyboardInterrupt  # Ctrl-C in the middle: the temporary file goes, the target is untouched

    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, interrupted)
    assert leftovers(target) == [] and not target.exists()
    write_atomically(target, lambda out: out.write("whole"))
    assert target.read_text() == "whole" and sorted(p.name for p in tmp_path.iterdir()) == ["m.pt"]


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda d: "", "no file given"),
        (lambda d: d, "Is a directory"),
        (lambda d: d / "missing" / "f.csv", "No such file or directory"),
        (lambda d: _loop(d), "Too many levels of symbolic links"),
        (lambda d: d / ("x" * 300), "File name too long"),
    ],
)
def test_a_path_that_cannot_be_written_is_refused_with_its_reason(tmp_path, make, says):
    with pytest.raises(CannotWrite, match=says):
        check_writable(make(tmp_path))


def _loop(folder: Path) -> Path:
    (folder / "a").symlink_to(folder / "b")
    (folder / "b").symlink_to(folder / "a")
    return folder / "a"


def test_a_bad_output_path_is_refused_before_training_and_leaves_the_old_losses(tmp_path):
    losses = tmp_path / "losses.csv"
    losses.write_text(OLD)
    out = gpudemo("train", "--device", "cpu", "--epochs", "5", "--loss-csv", str(losses),
                  "--save", "/nonexistent/dir/m.pt")  # fmt: skip
    assert out.returncode == 2 and "argument --save: cannot write /nonexistent/dir/m.pt" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == "" and losses.read_text() == OLD
    for option in ("--save", "--loss-csv"):
        refused = gpudemo("train", "--device", "cpu", "--epochs", "5", option, "")
        assert refused.returncode == 2 and "no file given" in refused.stderr
        folder = gpudemo("train", "--device", "cpu", "--epochs", "5", option, str(tmp_path))
        assert folder.returncode == 2 and "Is a directory" in folder.stderr
    no_file = gpudemo("train", "--device", "cpu", "--data", "")
    assert no_file.returncode == 2 and "argument --data: no file given" in no_file.stderr
    script = gpudemo("code", "--device", "cpu", "-o", str(tmp_path / "nowhere" / "s.py"))
    assert script.returncode == 2 and "argument --output" in script.stderr


def test_a_full_disk_is_one_line_and_the_old_file_stays_whole(tmp_path, monkeypatch):
    losses, model = tmp_path / "losses.csv", tmp_path / "m.pt"
    losses.write_text(OLD)

    def full(path, write, binary=False):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(outputs, "write_atomically", full)
    out = gpudemo("train", "--device", "cpu", "--epochs", "3", "--loss-csv", str(losses), "--save", str(model))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.strip() == (
        f"gpudemo: cannot write the loss CSV {str(losses)!r}: No space left on device; what was there is as it was"
    )
    assert losses.read_text() == OLD and model.exists()  # the CSV failed: the model is saved all the same


def test_the_losses_and_the_script_are_written_whole(tmp_path):
    losses, script = tmp_path / "losses.csv", tmp_path / "run.py"
    losses.write_text(OLD)
    assert gpudemo("train", "--device", "cpu", "--epochs", "4", "--loss-csv", str(losses)).returncode == 0
    assert losses.read_text().splitlines()[0] == "epoch,loss" and len(losses.read_text().splitlines()) == 5
    assert gpudemo("code", "--device", "cpu", "-o", str(script)).returncode == 0
    assert "import torch" in script.read_text() and leftovers(losses) == leftovers(script) == []


def test_a_data_file_in_a_symlink_loop_is_refused_without_a_traceback(tmp_path):
    out = gpudemo("train", "--device", "cpu", "--data", str(_loop(tmp_path)))
    assert out.returncode == 2 and "Too many levels of symbolic links" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_model_of_your_own_data_predicts_from_any_folder_and_says_when_the_data_changed(tmp_path, monkeypatch):
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    (here / "points.csv").write_text("x,y\n" + "".join(f"{x},{2 * x + 1}\n" for x in range(-5, 6)))
    monkeypatch.chdir(here)
    trained = gpudemo("train", "--device", "cpu", "--data", "points.csv", "--epochs", "30", "--save", "m.pt")
    assert trained.returncode == 0, trained.stderr
    monkeypatch.chdir(elsewhere)  # the CSV was named relative to `here`
    out = gpudemo("predict", "--model", str(here / "m.pt"), "4")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    with (here / "points.csv").open("a") as data:
        data.write("6,13\n")
    changed = gpudemo("predict", "--model", str(here / "m.pt"), "4")
    assert changed.returncode == 0 and "points.csv has changed since this model was trained" in changed.stderr


def test_nonsense_is_refused_with_exact_words(tmp_path):
    import torch

    from gpudemo.core.outputs import checkpoint
    from gpudemo.core.problems import PROBLEMS
    from gpudemo.core.settings.config import TrainingConfig

    for typed in ("--epochs=١٢", "--epochs=１２", "--lr=1_0", "--lr=٠.١"):
        out = gpudemo("train", "--device", "cpu", typed)
        assert out.returncode == 2 and "must be" in out.stderr, typed
    assert gpudemo("predict", "--model", str(tmp_path), "4").stderr.strip().endswith("is a folder, not a checkpoint")
    config = TrainingConfig()
    model = PROBLEMS["tutorial"].make_model(config)
    path = tmp_path / "nan.pt"
    with torch.no_grad():
        next(model.parameters()).fill_(float("nan"))
    checkpoint.save(path, model, config, 3)
    with pytest.raises(checkpoint.CheckpointError, match="not all finite numbers"):
        checkpoint.load(path)
    data = torch.load(path, weights_only=True)
    data["epochs"], data["state_dict"] = True, PROBLEMS["tutorial"].make_model(config).state_dict()
    torch.save(data, path)
    with pytest.raises(checkpoint.CheckpointError, match="missing its settings, weights or epochs"):
        checkpoint.load(path)
    mac = tmp_path / "mac.csv"
    mac.write_bytes(b"x,y\r1,2\r2,4\r3,6\r")
    assert "CR alone (old Mac)" in gpudemo("train", "--device", "cpu", "--data", str(mac)).stderr
    wide = tmp_path / "utf16.csv"
    wide.write_text("x,y\n1,2\n2,4\n3,6\n", encoding="utf-16")
    assert "is UTF-16 text" in gpudemo("train", "--device", "cpu", "--data", str(wide)).stderr
