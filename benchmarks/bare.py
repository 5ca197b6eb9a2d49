"""The tutorial's loop as it stands on the page: the baseline every figure is held against."""

import time

import torch


def _bare_run(net, x_train, y_train, epochs: int, lr: float) -> float:
    criterion = torch.nn.MSELoss().to(x_train.device)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    start = time.perf_counter()
    for _epoch in range(epochs):
        optimizer.zero_grad()
        outputs = net(x_train)
        loss = criterion(outputs, y_train)
        loss.backward()
        optimizer.step()
    loss.item()  # wait for the device
    return epochs / (time.perf_counter() - start)


def bare_loop(epochs: int, device: str = "cpu", seed: int = 0, lr: float = 0.1) -> float:
    """Train the tutorial's model; returns epochs per second (with a device sync at the end)."""
    torch.manual_seed(seed)
    net = torch.nn.Linear(1, 1).to(device)
    x_train = torch.tensor([[1.0], [2.0], [3.0]], device=device)
    y_train = torch.tensor([[2.0], [4.0], [6.0]], device=device)
    return _bare_run(net, x_train, y_train, epochs, lr)


def bare_line_loop(samples: int, epochs: int, device: str = "cpu", seed: int = 0, lr: float = 0.1) -> float:
    """The same loop on the line problem's data (y = 2x + noise at `samples` points); epochs per second."""
    torch.manual_seed(seed)
    net = torch.nn.Linear(1, 1).to(device)
    x_train = torch.rand(samples, 1, device=device) * 6.0 - 3.0
    y_train = 2 * x_train + 0.5 * torch.randn(samples, 1, device=device)
    return _bare_run(net, x_train, y_train, epochs, lr)
