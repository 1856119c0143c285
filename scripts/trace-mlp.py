#!/usr/bin/env python3
"""trace-mlp.py - a PyTorch MLP training loop for gemmprof trace at
application scale (scripts/trace-scale.sh): about 30 kernel launches an
iteration (forward, cross-entropy, backward, Adam), so the default 44
iterations made 1334 launches of 32 launch configurations on an H200 (torch
2.11; ncu counts the same).

  trace-mlp.py [--iters N] [--compile] [--nvtx] [--layout FILE]

--compile: the step under torch.compile(mode="reduce-overhead"), which
replays it as a CUDA graph after its warm-up iterations (its kernels run
from cuGraphLaunch); --nvtx: each step inside an NVTX range "train_step"
(for gemmprof trace --nvtx-include train_step); --layout FILE: where the
memory lies at the end, as JSON (the device's free bytes, the caching
allocator's segments, the Adam state's addresses), to tell whether a
profiler's own allocations moved the program's tensors.  Prints one line:
the loop's own time (perf_counter, after a synchronize), loss, device."""
import argparse
import json
import time

import torch

p = argparse.ArgumentParser()
p.add_argument('--iters', type=int, default=44)
p.add_argument('--compile', action='store_true')
p.add_argument('--nvtx', action='store_true')
p.add_argument('--layout')
a = p.parse_args()

torch.manual_seed(0)
dev = 'cuda'
model = torch.nn.Sequential(
    torch.nn.Linear(1024, 2048), torch.nn.ReLU(),
    torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
    torch.nn.Linear(2048, 10)).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, foreach=True)
x = torch.randn(512, 1024, device=dev)
y = torch.randint(0, 10, (512,), device=dev)
loss_fn = torch.nn.CrossEntropyLoss()


def step():
    opt.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    return loss


if a.compile:
    # the forward and backward as CUDA graphs; the optimizer stays eager
    fwd = torch.compile(model, mode='reduce-overhead')

    def step():                                    # noqa: F811
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(fwd(x), y)
        loss.backward()
        opt.step()
        return loss

torch.cuda.synchronize()
t0 = time.perf_counter()
for i in range(a.iters):
    if a.nvtx:
        torch.cuda.nvtx.range_push('train_step')
    loss = step()
    if a.nvtx:
        torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
t = time.perf_counter() - t0
print(f'trace-mlp: {a.iters} iterations{" compiled" if a.compile else ""} in {t:.3f} s, '
      f'loss {loss.item():.4f}, {torch.cuda.get_device_name()}, torch {torch.__version__}')
if a.layout:
    free, total = torch.cuda.mem_get_info()
    segs = sorted((s['address'], s['total_size']) for s in torch.cuda.memory_snapshot())
    state = [[t.data_ptr() for t in st.values() if torch.is_tensor(t) and t.is_cuda]
             for st in opt.state.values()]
    with open(a.layout, 'w') as f:
        json.dump({'free': free, 'total': total, 'reserved': torch.cuda.memory_reserved(),
                   'segments': segs, 'adam_state': state}, f)
