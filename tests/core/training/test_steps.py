import torch
from torch.optim.optimizer import register_optimizer_step_pre_hook

from gpudemo.core.settings.config import TrainingConfig
from gpudemo.core.step.hookless import direct_call, step_function, zero_grad_function
from gpudemo.core.training import train
from tests.tutorial import tutorial_run


def make():
    model = torch.nn.Linear(1, 1)
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def test_without_hooks_the_bookkeeping_is_skipped():
    model, optimizer = make()
    assert direct_call(model) == model.forward
    assert step_function(optimizer) != optimizer.step


def test_a_module_hook_is_honoured():
    model, _ = make()
    calls = []
    model.register_forward_hook(lambda *args: calls.append(1))
    call = direct_call(model)
    call(torch.ones(1, 1))
    assert call is model and calls == [1]


def test_a_step_hook_is_honoured():
    model, optimizer = make()
    calls = []
    optimizer.register_step_post_hook(lambda *args: calls.append(1))
    model(torch.ones(1, 1)).sum().backward()
    step_function(optimizer)()
    assert calls == [1]


def test_a_global_step_hook_is_honoured():
    model, optimizer = make()
    calls = []
    handle = register_optimizer_step_pre_hook(lambda *args: calls.append(1))
    try:
        model(torch.ones(1, 1)).sum().backward()
        step_function(optimizer)()
    finally:
        handle.remove()
    assert calls == [1]


def test_the_fast_step_computes_what_the_public_one_does():
    results = []
    for fast in (False, True):
        torch.manual_seed(0)
        model, optimizer = make()
        zero, step = (
            (zero_grad_function(optimizer), step_function(optimizer)) if fast else (optimizer.zero_grad, optimizer.step)
        )
        for _ in range(50):
            zero()
            torch.nn.functional.mse_loss(model(torch.tensor([[1.0], [2.0]])), torch.tensor([[2.0], [4.0]])).backward()
            step()
        results.append((model.weight.item(), model.bias.item()))
    assert results[0] == results[1]


def test_zero_grad_sets_grads_to_none():
    model, optimizer = make()
    model(torch.ones(1, 1)).sum().backward()
    zero_grad_function(optimizer)()
    assert all(p.grad is None for p in model.parameters())


def test_training_with_a_hook_still_matches_the_tutorial():
    handle = register_optimizer_step_pre_hook(lambda *args: None)
    try:
        result = train(TrainingConfig(epochs=100, seed=9))
    finally:
        handle.remove()
    assert abs(result.final_loss - tutorial_run(9)["losses"][-1]) <= 1e-6


def test_an_mlps_layers_are_chained_directly_with_the_same_result():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    x = torch.randn(5, 2)
    call = direct_call(model)
    assert call is not model and call != model.forward
    assert torch.equal(call(x), model(x))


def test_a_hook_on_one_layer_of_an_mlp_is_honoured():
    model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    calls = []
    model[2].register_forward_hook(lambda *args: calls.append(1))
    call = direct_call(model)
    call(torch.ones(1, 2))
    assert call is model and calls == [1]
