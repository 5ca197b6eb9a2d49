"""A model in a file: saved with its settings, loaded only as weights, any other file refused clearly."""

import json
import os

import pytest
import torch

from gpudemo.core.outputs.checkpoint import CheckpointError, load, save
from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.training import train
from gpudemo.core.training.prediction import predict
from tests.commands import gpudemo


class _Payload:
    """A pickled object that would create a file when unpickled, if any code in the file ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


@pytest.mark.parametrize(
    "config",
    [
        TrainingConfig(epochs=30),
        TrainingConfig(problem="line", samples=100, epochs=5),
        TrainingConfig(problem="sine", samples=50, epochs=5, width=8, depth=3),
    ],
)
def test_a_saved_model_predicts_the_same_after_loading(tmp_path, config):
    result = train(config)
    save(tmp_path / "model.pt", result.model, config, result.epochs_run)
    loaded = load(tmp_path / "model.pt")
    assert loaded.config == config and loaded.epochs == result.epochs_run
    assert predict(loaded.model, [4.0, -1.5]) == predict(result.model, [4.0, -1.5])
    assert [p.name for p in tmp_path.iterdir()] == ["model.pt"]  # no temporary file left


def write(path, data):
    torch.save(data, path)
    return path


def test_files_that_are_not_checkpoints_get_a_reason_and_run_nothing(tmp_path):
    good = tmp_path / "good.pt"
    result = train(TrainingConfig(epochs=3))
    save(good, result.model, result.config, 3)
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(good.read_bytes()[:300])
    text = tmp_path / "notes.pt"
    text.write_text("not a model")
    marker = tmp_path / "ran"
    cases = {
        truncated: "damaged or cut short",
        text: "damaged or cut short",
        write(
            tmp_path / "code.pt", {"format": "gpudemo-checkpoint", "x": _Payload(str(marker))}
        ): "nothing in it was run",
        write(tmp_path / "foreign.pt", {"weights": torch.zeros(2)}): "not a gpudemo checkpoint",
        write(tmp_path / "future.pt", {"format": "gpudemo-checkpoint", "version": 99}): "version 99",
        write(
            tmp_path / "bad-setting.pt",
            {"format": "gpudemo-checkpoint", "version": 1, "epochs": 1, "config": {"lr": -1.0}, "state_dict": {}},
        ): "learning rate",
        write(
            tmp_path / "bad-weights.pt",
            {
                "format": "gpudemo-checkpoint",
                "version": 1,
                "epochs": 1,
                "config": {"problem": "tutorial"},
                "state_dict": {"weight": torch.zeros(3, 3)},
            },
        ): "do not fit",
        tmp_path / "missing.pt": "No such file",
    }
    for path, reason in cases.items():
        with pytest.raises(CheckpointError, match=reason):
            load(path)
    assert not marker.exists()


def test_a_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "model.pt"
    result = train(TrainingConfig(epochs=3))
    save(path, result.model, result.config, 3)
    before = path.read_bytes()

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(torch, "save", broken)
    with pytest.raises(OSError):
        save(path, result.model, result.config, 3)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["model.pt"]


def test_the_command_saves_and_predicts_as_train_does(tmp_path):
    path = tmp_path / "m.pt"
    trained = gpudemo(
        "train", "--device", "cpu", "--epochs", "40", "--save", str(path), "--predict", "4", "-2", "--json"
    )
    assert trained.returncode == 0, trained.stderr
    out = gpudemo("predict", "--model", str(path), "4", "-2", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["predictions"] == json.loads(trained.stdout)["predictions"]
    bad = gpudemo("predict", "--model", str(tmp_path / "nothing.pt"), "4")
    assert bad.returncode == 1 and "cannot read" in bad.stderr and "Traceback" not in bad.stderr


def test_a_flipped_bit_in_a_weight_is_refused_by_the_zips_checksum(tmp_path):
    good, flipped = tmp_path / "good.pt", tmp_path / "flipped.pt"
    result = train(TrainingConfig(epochs=100))
    save(good, result.model, result.config, 100)
    content = bytearray(good.read_bytes())
    at = bytes(content).find(result.model.weight.detach().numpy().tobytes())
    assert at > 0
    content[at + 3] ^= 0x02  # one bit of the weight's exponent: torch alone loads it and predicts 2.06, not 7.92
    flipped.write_bytes(bytes(content))
    with pytest.raises(CheckpointError) as refused:
        load(flipped)
    assert str(refused.value) == (
        f"{flipped} is damaged: its part archive/data/0 is not what was written (its checksum differs)"
    )


def test_a_model_of_a_csv_predicts_after_the_csv_is_moved(tmp_path):
    regression, classes = tmp_path / "dd.csv", tmp_path / "cls.csv"
    regression.write_text("x,y\n1,2\n2,4\n3,6\n")
    classes.write_text("".join(f"{i % 7},{i % 5},{i % 3}\n" for i in range(30)))
    for data, values in ((regression, ["4"]), (classes, ["1,2"])):
        model = tmp_path / f"{data.stem}.pt"
        trained = gpudemo(*("train", "--device", "cpu", "--data", str(data), "--depth", "0", "--epochs", "50"),
                          "--save", str(model), "--predict", *values, "--json")  # fmt: skip
        assert trained.returncode == 0, trained.stderr
        data.rename(tmp_path / f"moved-{data.name}")
        out = gpudemo("predict", "--model", str(model), *values, "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["predictions"] == json.loads(trained.stdout)["predictions"]
        assert out.stderr == (
            f"gpudemo: note: its data file {data} cannot be read now (cannot read {data.name}: No such file or"
            " directory); the model predicts as trained\n"
        )
        refused = gpudemo("train", "--device", "cpu", "--data", str(data))
        assert refused.returncode == 2 and "Traceback" not in refused.stderr


def test_weights_that_do_not_fit_say_what_does_not_fit(tmp_path):
    path = write(tmp_path / "w.pt", {"format": "gpudemo-checkpoint", "version": 1, "epochs": 1,
                 "config": {"problem": "tutorial"}, "state_dict": {"weight": torch.zeros(3, 3)}})  # fmt: skip
    with pytest.raises(CheckpointError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}'s weights do not fit the tutorial model its settings describe:")
    assert 'Missing key(s) in state_dict: "bias"' in str(refused.value)


def test_a_bare_pickle_is_refused_before_torch_reads_it_and_without_its_warning(tmp_path, recwarn):
    import pickle

    path = tmp_path / "p4.pt"
    path.write_bytes(pickle.dumps({"weights": [1.0]}, protocol=4))
    out = gpudemo("predict", "--model", str(path), "4")
    assert (
        out.returncode == 1
        and out.stderr == f"gpudemo: {path} is not a gpudemo checkpoint, or it is damaged or cut short\n"
    )
    assert not recwarn.list
