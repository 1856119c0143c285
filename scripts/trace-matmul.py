#!/usr/bin/env python3
"""trace-matmul.py - a 4096^3 PyTorch matmul for gemmprof trace to find
(scripts/trace-check.sh): the outside client.

  trace-matmul.py fp32|tf32|bf16 [N [REPS]]

REPS matmuls (default 1) of the same operands: with 2, gemmprof trace's
default --tensor-counters auto takes a tensor GEMM's tensor-path counters
from the second launch (the first counts its tensor-core instructions).

fp32: FP32 inputs, TF32 off (torch.backends.cuda.matmul.allow_tf32 = False),
so cuBLAS runs an FFMA kernel; tf32: the same inputs with TF32 on; bf16:
BF16 inputs.  One matmul between two synchronisations; prints one line."""
import os
import sys

import torch

mode = sys.argv[1] if len(sys.argv) > 1 else ''
n = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 1
if mode not in ('fp32', 'tf32', 'bf16'):
    print(__doc__, file=sys.stderr)
    sys.exit(2)
os.environ.pop('NVIDIA_TF32_OVERRIDE', None)      # cuBLAS would obey it
torch.backends.cuda.matmul.allow_tf32 = mode == 'tf32'
torch.backends.cudnn.allow_tf32 = False
dtype = torch.bfloat16 if mode == 'bf16' else torch.float32
a = torch.randn(n, n, device='cuda', dtype=dtype)
b = torch.randn(n, n, device='cuda', dtype=dtype)
torch.cuda.synchronize()
for _ in range(reps):
    c = a @ b
torch.cuda.synchronize()
print(f'trace-matmul: {reps} x {mode} {n}^3 on {torch.cuda.get_device_name()}, torch {torch.__version__}'
      f' (CUDA {torch.version.cuda}), c[0,0] = {c[0, 0].float().item():.4f}')
