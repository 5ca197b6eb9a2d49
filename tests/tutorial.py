"""The tutorial's own code, as it stands on the page, to hold gpudemo's numbers against."""

import torch


def tutorial_run(seed: int, epochs: int = 100, lr: float = 0.1, device: str = "cpu", x_test: float = 4.0):
    torch.manual_seed(seed)

    class Net(torch.nn.Module):
        def __init__(self):
            super(Net, self).__init__()  # noqa: UP008 (the tutorial's own words)
            self.fc = torch.nn.Linear(1, 1)

        def forward(self, x):
            return self.fc(x)

    net = Net().to(device)
    x_train = torch.tensor([[1.0], [2.0], [3.0]], device=device)
    y_train = torch.tensor([[2.0], [4.0], [6.0]], device=device)
    criterion = torch.nn.MSELoss().to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    losses = []
    path = [(net.fc.weight.item(), net.fc.bias.item())]  # (w, b) at the start and after every step
    for epoch in range(epochs):  # noqa: B007 (the tutorial's own words)
        optimizer.zero_grad()
        outputs = net(x_train)
        loss = criterion(outputs, y_train)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        path.append((net.fc.weight.item(), net.fc.bias.item()))
    net = net.to("cpu")
    y_test = net(torch.tensor([[x_test]], device="cpu"))
    return {
        "losses": losses,
        "weight": net.fc.weight.item(),
        "bias": net.fc.bias.item(),
        "prediction": y_test.item(),
        "path": path,
    }


def drain(run):
    """Every batch a run_training generator yields, and the result it returns."""
    batches = []
    while True:
        try:
            batches.append(next(run))
        except StopIteration as done:
            return batches, done.value
