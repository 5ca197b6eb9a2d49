"""The tutorial's loop as it stands on the page: the baseline every figure is held against."""

import time

import torch


def bare_loop(epochs: int, device: str = "cpu", seed: int = 0, lr: float = 0.1) -> float:
    """Train the tutorial's model; returns epochs per second (with a device sync at the end)."""
    torch.manual_seed(seed)
    net = torch.nn.Linear(1, 1).to(device)
    x_train = torch.tensor([[1.0], [2.0], [3.0]], device=device)
    y_train = torch.tensor([[2.0], [4.0], [6.0]], device=device)
    criterion = torch.nn.MSELoss().to(device)
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
