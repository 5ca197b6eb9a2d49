import os
import tempfile

# Qt runs headless in the tests; set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app's remembered settings (QSettings) go to a folder of the tests' own, never the person's.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gpudemo-test-config-")

import pytest  # noqa: E402
import torch  # noqa: E402


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU; torch sees none here")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def no_training_thread_left_running():
    """Fail a test that leaves a training QThread running (and stop it, for the next test)."""
    yield
    import sys

    worker = sys.modules.get("gpudemo.ui.worker")
    if worker is None:
        return
    running = [c for c in list(worker.LIVE_CONTROLLERS) if _alive(c) and c.is_running()]
    for controller in running:
        controller.shutdown()
    if running:
        pytest.fail(f"{len(running)} training thread(s) still running after the test")


def _alive(qobject) -> bool:
    import shiboken6

    return shiboken6.isValid(qobject)
