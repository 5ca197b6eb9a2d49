"""What a run leaves on the disk: nothing a failed, diverged or empty run did replaces what the person had;
two outputs (or an output and the input) on one file, a file the person may not write and names near the
length limit are dealt with before any training; Ctrl-C is acknowledged at once and never a traceback."""

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from gpudemo.cli import output, outputs
from gpudemo.cli import train as train_command
from gpudemo.core.base.files import PARTIAL, leftovers, replaced_when_done, write_atomically
from tests.commands import gpudemo

ROOT = Path(__file__).resolve().parents[2]  # the repository
TRAIN = ("train", "--device", "cpu")


def _trained(tmp_path: Path) -> tuple[Path, Path, bytes, bytes]:
    model, losses = tmp_path / "tut.pt", tmp_path / "tut.csv"
    out = gpudemo(*TRAIN, "--epochs", "100", "--save", str(model), "--loss-csv", str(losses))
    assert out.returncode == 0, out.stderr
    return model, losses, model.read_bytes(), losses.read_bytes()


def test_a_diverged_run_keeps_a_good_checkpoint_and_its_losses(tmp_path):
    model, losses, good_model, good_losses = _trained(tmp_path)
    out = gpudemo(*TRAIN, "--lr", "1000", "--epochs", "100", "--save", str(model), "--loss-csv", str(losses))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert model.read_bytes() == good_model and losses.read_bytes() == good_losses
    assert f"nothing is saved to {str(model)!r} (what was there is as it was)" in out.stderr
    assert f"its losses are not written over {str(losses)!r}" in out.stderr
    assert gpudemo("predict", "--model", str(model), "4").returncode == 0
    fresh = tmp_path / "diverged.csv"  # a new file: the diverged losses go there, said so
    out = gpudemo(*TRAIN, "--lr", "1000", "--epochs", "100", "--loss-csv", str(fresh))
    assert out.returncode == 1 and fresh.read_text().splitlines()[-1].endswith(("inf", "nan"))
    assert "the diverged run's losses are in" in out.stderr


class _StopAfter:
    """A Ctrl-C event already set, or set after `checks` looks (the loop looks once per epoch)."""

    def __init__(self, checks: int):
        self.checks = checks

    def is_set(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def _stopping(monkeypatch, checks: int) -> None:
    @contextlib.contextmanager
    def stop_on_ctrl_c(waiting_for=None):
        yield _StopAfter(checks)

    monkeypatch.setattr(train_command, "stop_on_ctrl_c", stop_on_ctrl_c)


def test_a_run_stopped_before_its_first_epoch_writes_nothing(tmp_path, monkeypatch):
    model, losses, good_model, good_losses = _trained(tmp_path)
    _stopping(monkeypatch, 0)
    out = gpudemo(*TRAIN, "--epochs", "50", "--save", str(model), "--loss-csv", str(losses))
    assert out.returncode == 130 and model.read_bytes() == good_model and losses.read_bytes() == good_losses
    assert "stopped before the first epoch: nothing written" in out.stderr


def test_a_compiled_run_stopped_during_its_compile_writes_nothing_and_compiles_no_more(tmp_path, monkeypatch):
    model, _, good_model, _ = _trained(tmp_path)
    _stopping(monkeypatch, 0)
    out = gpudemo(*TRAIN, "--step", "compiled", "--epochs", "50", "--save", str(model), "--json")
    assert out.returncode == 130 and model.read_bytes() == good_model
    assert '"epochs_run": 0' in out.stdout and '"recompiles": 0' in out.stdout


def test_a_stopped_run_with_epochs_saves_them_and_says_so(tmp_path, monkeypatch):
    model, losses, good_model, _ = _trained(tmp_path)
    _stopping(monkeypatch, 7)
    out = gpudemo(*TRAIN, "--epochs", "50", "--save", str(model), "--loss-csv", str(losses))
    assert out.returncode == 130 and model.read_bytes() != good_model
    assert len(losses.read_text().splitlines()) == 1 + 7
    assert f"stopped at epoch 7: the model of those epochs is saved to {str(model)!r}" in out.stderr


@pytest.mark.linux
def test_the_checkpoint_is_saved_and_the_summary_printed_when_the_loss_csv_fails(tmp_path):
    model = tmp_path / "m.pt"
    out = gpudemo(*TRAIN, "--epochs", "30", "--loss-csv", "/dev/full", "--save", str(model))
    assert out.returncode == 1 and model.exists() and "final loss" in out.stdout
    assert "cannot write the loss CSV '/dev/full': No space left on device" in out.stderr


def test_a_name_of_up_to_255_bytes_is_written_and_its_temporary_name_fits(tmp_path):
    for length in (229, 240, 255):
        name = tmp_path / ("b" * (length - 3) + ".pt")
        out = gpudemo(*TRAIN, "--epochs", "5", "--save", str(name))
        assert out.returncode == 0 and name.exists(), (length, out.stderr)
        script = tmp_path / ("c" * (length - 3) + ".py")
        assert gpudemo("code", "--device", "cpu", "-o", str(script)).returncode == 0 and script.exists()
    long = tmp_path / ("é" * 126 + ".csv")  # 256 bytes in UTF-8: the name is cut at a character
    with replaced_when_done(tmp_path / ("é" * 125 + ".csv"), empty_ok=True) as temporary:
        assert len(os.fsencode(Path(temporary).name)) <= 255 and PARTIAL in temporary
    assert gpudemo(*TRAIN, "--save", str(long)).returncode == 2  # over the limit: refused before training


def test_two_outputs_or_an_output_on_the_data_are_refused_before_training(tmp_path):
    same = tmp_path / "same.out"
    out = gpudemo(*TRAIN, "--epochs", "5", "--save", str(same), "--loss-csv", str(same))
    assert out.returncode == 2 and "argument --save" in out.stderr and "the same file as --loss-csv" in out.stderr
    assert not same.exists()
    data = tmp_path / "mydata.csv"
    data.write_text("x,y\n1,2\n2,4\n3,6\n4,8\n")
    for alias in (data, tmp_path / "." / "mydata.csv", tmp_path / "hard.csv"):
        if alias.name == "hard.csv":
            os.link(data, alias)
        out = gpudemo(*TRAIN, "--data", str(data), "--epochs", "5", "--loss-csv", str(alias))
        assert out.returncode == 2 and "is the file read by --data" in out.stderr, alias
    assert data.read_text() == "x,y\n1,2\n2,4\n3,6\n4,8\n"
    apart = gpudemo(*TRAIN, "--epochs", "3", "--save", str(tmp_path / "a.pt"), "--loss-csv", str(tmp_path / "a.csv"))
    assert apart.returncode == 0


def _as_nobody(code: str, folder: Path) -> subprocess.CompletedProcess | None:
    """`code` in a child Python as the unprivileged user (root may write anything): this Python, or the
    system's where the user may not run this one (a venv on root's own interpreter); None where neither runs.
    core/base/files.py needs nothing but the standard library."""

    def demote() -> None:
        os.setgid(65534)
        os.setgroups([])
        os.setuid(65534)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            done = subprocess.run([python, "-c", code], cwd=folder, env=env, capture_output=True, text=True,
                                  preexec_fn=demote, timeout=60)  # fmt: skip
        except OSError:
            continue
        if "ModuleNotFoundError" not in done.stderr and "PermissionError" not in done.stderr:
            return done
    return None


@pytest.mark.linux
@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_a_file_the_person_may_not_write_is_refused_not_replaced():
    folder = Path(tempfile.mkdtemp(prefix="gpudemo-perm-"))
    try:
        folder.chmod(0o777)  # a folder anyone may write in, with no sticky bit
        readonly, others = folder / "ro.py", folder / "theirs.py"
        readonly.write_text("keep")
        readonly.chmod(0o444)
        others.write_text("keep")
        others.chmod(0o644)
        if os.geteuid() != 0:
            pytest.skip("needs root to make another user's file")
        probe = _as_nobody("import gpudemo.core.base.files", folder)
        if probe is None or probe.returncode != 0:
            pytest.skip("the unprivileged user can run no Python that imports gpudemo here")
        for target in (readonly, others):
            done = _as_nobody(
                "import sys\nfrom gpudemo.core.base.files import CannotWrite, check_writable, write_atomically\n"
                f"try:\n    check_writable({str(target)!r})\nexcept CannotWrite as e:\n    print('check:', e)\n"
                f"try:\n    write_atomically({str(target)!r}, lambda out: out.write('new'))\n"
                "except OSError as e:\n    print('write:', e)\n",
                folder,
            )
            assert f"check: cannot write {target}: Permission denied" in done.stdout, done.stderr
            assert f"write: cannot write {target}: Permission denied" in done.stdout, done.stderr
            assert target.read_text() == "keep" and target.stat().st_uid == 0
        assert sorted(p.name for p in folder.iterdir()) == ["ro.py", "theirs.py"]
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


@pytest.mark.linux
def test_standard_output_as_an_output_keeps_the_commands_own_output(tmp_path):
    file = tmp_path / "out.txt"
    with file.open("w") as stdout:
        done = subprocess.run([sys.executable, "-m", "gpudemo", *TRAIN, "--epochs", "3", "--loss-csv", "/dev/stdout"],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)  # fmt: skip
    text = file.read_text()
    assert done.returncode == 0 and "epoch,loss\n1," in text and "final loss" in text, done.stderr
    piped = subprocess.run([sys.executable, "-m", "gpudemo", *TRAIN, "--epochs", "3", "--loss-csv", "/dev/stdout",
                            "--json"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert piped.returncode == 0 and '"status": "completed"' in piped.stdout and "epoch,loss" in piped.stdout
    script = subprocess.run([sys.executable, "-m", "gpudemo", "code", "--device", "cpu", "-o", "/dev/fd/1"],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert script.returncode == 0 and "import torch" in script.stdout
    dash = gpudemo("code", "--device", "cpu", "-o", "-")  # "-" is standard output, not a file named "-"
    assert dash.returncode == 0 and "import torch" in dash.stdout and not Path("-").exists()


def test_a_hard_linked_target_is_replaced_whole_and_its_other_names_keep_the_old_bytes(tmp_path):
    first, second = tmp_path / "h1.py", tmp_path / "h2.py"
    first.write_text("old")
    os.link(first, second)
    note = write_atomically(first, lambda out: out.write("new"))
    assert first.read_text() == "new" and second.read_text() == "old" and leftovers(first) == []
    assert (
        str(note)
        == f"{first} had 1 other hard link(s): they keep the old content, and {first} is now a file of its own"
    )
    assert write_atomically(first, lambda out: out.write("newer")) is None  # a file of its own now: nothing to say


@pytest.mark.linux
def test_a_hard_linked_checkpoint_on_a_full_disk_stays_whole_under_both_names(small_disk):
    from tests.disks import fill

    good, link = small_disk / "m.pt", small_disk / "m-link.pt"
    assert gpudemo(*TRAIN, "--epochs", "100", "--save", str(good)).returncode == 0
    os.link(good, link)
    before = good.read_bytes()
    fill(small_disk, leave=16384)
    out = gpudemo(*TRAIN, "--problem", "sine", "--width", "160", "--epochs", "3", "--save", str(good))
    assert out.returncode == 1 and "No space left on device; what was there is as it was" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and good.read_bytes() == before == link.read_bytes()
    assert gpudemo("predict", "--model", str(link), "4").returncode == 0


@pytest.mark.slow
def test_a_kill_while_a_hard_linked_checkpoint_is_written_leaves_it_whole(tmp_path):
    good, link = tmp_path / "big.pt", tmp_path / "big-link.pt"
    assert gpudemo(*TRAIN, "--epochs", "100", "--save", str(good)).returncode == 0
    os.link(good, link)
    before = good.read_bytes()
    child = subprocess.Popen(
        [sys.executable, "-m", "gpudemo", *TRAIN, "--problem", "sine", "--samples", "3", "--width", "2048",
         "--depth", "6", "--epochs", "1", "--save", str(good)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 100
        while child.poll() is None and good.stat().st_size == len(before) and time.monotonic() < deadline:
            pass  # the kill lands as soon as the target changes: in place, that is in the middle of a copy
        child.kill()
    finally:
        child.wait()
    assert link.read_bytes() == before  # the other name keeps the good checkpoint, whatever the kill cut
    whole = good.read_bytes()
    assert whole == before or gpudemo("predict", "--model", str(good), "0.5").returncode == 0


def test_a_live_writers_temporary_file_is_not_removed_by_another_write(tmp_path):
    target = tmp_path / "big.pt"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".big.pt{PARTIAL}{sleeper.pid}-abcdefgh.pt"
        live.write_bytes(b"still being written")
        dead = tmp_path / f".big.pt{PARTIAL}999999999-abcdefgh.pt"
        dead.write_bytes(b"left by a killed writer")
        write_atomically(target, lambda out: out.write("mine"))
        assert live.exists() and not dead.exists() and target.read_text() == "mine"
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.linux
def test_ctrl_c_is_acknowledged_at_once_and_a_second_one_quits(capsys):
    with output.stop_on_ctrl_c(lambda: "the compile") as stop:
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.is_set()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert "gpudemo: stopping after the compile… (Ctrl-C again to quit at once, writing nothing)" in (
        capsys.readouterr().err
    )


def test_ctrl_c_while_a_checkpoint_is_written_is_interrupted_not_a_traceback(tmp_path, monkeypatch, capsys):
    def torch_like(path):  # torch's zip writer turns a KeyboardInterrupt into a RuntimeError as it closes
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("[enforce fail at inline_container.cc:672] . unexpected pos 35200 vs 35152") from None

    with pytest.raises(KeyboardInterrupt):
        outputs.written(str(tmp_path / "m.pt"), "the checkpoint", torch_like)
    assert "interrupted while writing the checkpoint" in capsys.readouterr().err
    from gpudemo.core.outputs import checkpoint

    monkeypatch.setattr(checkpoint, "save", lambda *a: torch_like(None))
    out = gpudemo(*TRAIN, "--epochs", "3", "--save", str(tmp_path / "m.pt"))
    assert out.returncode == 130 and "Traceback" not in out.stderr and "gpudemo: interrupted" in out.stderr


@pytest.mark.linux
@pytest.mark.slow
def test_ctrl_c_during_a_real_save_ends_as_interrupted(tmp_path):
    target = tmp_path / "big.pt"
    child = subprocess.Popen(
        [sys.executable, "-m", "gpudemo", *TRAIN, "--problem", "sine", "--width", "4096", "--depth", "6",
         "--epochs", "1", "--save", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    seen = threading.Event()

    def watch() -> None:  # Ctrl-C once the temporary file exists, i.e. during the write (of ~400 MB: ms apart is
        while child.poll() is None and not seen.is_set():  # soon enough, and leaves the child its core)
            if list(tmp_path.glob(f".big.pt{PARTIAL}*")):
                child.send_signal(signal.SIGINT)
                seen.set()
            time.sleep(0.002)

    watcher = threading.Thread(target=watch)
    watcher.start()
    out, err = child.communicate(timeout=300)
    watcher.join()
    assert "Traceback" not in err
    if seen.is_set() and child.returncode != 0:  # the write was still going when Ctrl-C came
        assert child.returncode == 130 and "interrupted" in err, (child.returncode, err[-3000:])
        assert not list(tmp_path.glob(f"*{PARTIAL}*"))


@pytest.mark.linux
def test_a_real_full_disk_during_a_checkpoint_write_is_one_line(small_disk):
    model = small_disk / "m.pt"  # 266 KB of weights onto a disk of 200 KiB: torch's zip writer fails mid-write
    out = gpudemo(*TRAIN, "--problem", "sine", "--width", "256", "--epochs", "3", "--save", str(model))
    assert out.returncode == 1 and "Traceback" not in out.stderr and "RuntimeError" not in out.stderr
    assert (
        f"gpudemo: cannot write the checkpoint {str(model)!r}: No space left on device; what was there is as it was"
    ) in out.stderr.splitlines()
    assert not model.exists() and leftovers(model) == []


def test_a_name_whose_bytes_are_not_utf8_is_written(tmp_path):
    latin1 = os.fsdecode(b"caf\xe9.pt")  # a Latin-1 terminal's cafe.pt: the byte 0xe9 alone is no UTF-8
    model, losses, script = tmp_path / latin1, tmp_path / os.fsdecode(b"bad\xff.csv"), tmp_path / "code\udcff.py"
    out = gpudemo(*TRAIN, "--epochs", "5", "--save", str(model), "--loss-csv", str(losses))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert gpudemo("predict", "--model", str(model), "4").returncode == 0 and len(losses.read_text().splitlines()) == 6
    assert gpudemo("code", "--device", "cpu", "-o", str(script)).returncode == 0
    assert "# Run it with only torch installed: python code\\xff.py" in script.read_text()
    assert sorted(os.listdir(os.fsencode(tmp_path))) == [b"bad\xff.csv", b"caf\xe9.pt", b"code\xff.py"]
