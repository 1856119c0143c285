#!/usr/bin/env python3
"""dist-torch.py - the anchor for `gemmprof dist`: SUMMA in PyTorch with
torch.distributed (NCCL), FP32 with TF32 off, at the shapes dist-check.sh
runs, on the same GPUs.

Each rank of a PR x PC grid holds one contiguous block of A (M/PR x K/PC),
of B (K/PR x N/PC) and of C.  For every K panel of width W the owning
process column broadcasts its A panel along the process row, the owning
process row its B panel along the column, and every rank adds
A_panel @ B_panel into its C block.  The next panel's broadcasts are issued
(async_op) before this panel's matmul, into the other of two buffers:
the same look-ahead gemmprof dist does, in the framework's own terms.

  torchrun --standalone --nproc_per_node P scripts/dist-torch.py \
      --size N [--grid PRxPC] [--panel W] [--reps 5] [--out FILE.csv]

With one process it times torch.mm on the whole product (the 1-GPU
baseline).  Prints one line per run and appends a CSV row (with '#'
provenance lines when the file is new).  Verification: 64x64 sampled
entries of every rank's C block against an FP64 product on the GPU."""
import argparse
import datetime
import os
import socket
import statistics
import subprocess
import sys

import torch
import torch.distributed as dist


def parse():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--grid", default=None, help="PRxPC (default: most square)")
    p.add_argument("--panel", type=int, default=1024)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--out", default=None)
    return p.parse_args()


def grid_of(spec, world):
    if spec:
        pr, pc = (int(x) for x in spec.split("x"))
        if pr * pc != world:
            sys.exit(f"dist-torch: --grid {spec} is {pr * pc} processes, {world} started")
        return pr, pc
    pr = max(d for d in range(1, int(world ** 0.5) + 1) if world % d == 0)
    return pr, world // pr


def full_inputs(n, dev):
    g = torch.Generator(device=dev).manual_seed(1234)
    a = torch.rand((n, n), generator=g, device=dev) * 2 - 1
    b = torch.rand((n, n), generator=g, device=dev) * 2 - 1
    return a, b


def summa(a_loc, b_loc, c_loc, grid, panel, groups):
    """One multiply; returns after every GPU op of this rank is done."""
    pr, pc, myrow, mycol = grid
    row_group, col_group, row_ranks, col_ranks = groups
    k = a_loc.shape[1] * pc
    ka, kb = a_loc.shape[1], b_loc.shape[0]
    bufs = [(torch.empty((a_loc.shape[0], panel), device=a_loc.device),
             torch.empty((panel, b_loc.shape[1]), device=a_loc.device)) for _ in range(2)]

    def post(p, slot):
        k0 = p * panel
        owner_c, owner_r = k0 // ka, k0 // kb
        ap, bp = bufs[slot]
        if mycol == owner_c:
            ap.copy_(a_loc[:, k0 - owner_c * ka:k0 - owner_c * ka + panel])
        if myrow == owner_r:
            bp.copy_(b_loc[k0 - owner_r * kb:k0 - owner_r * kb + panel, :])
        works = []
        if pc > 1:
            works.append(dist.broadcast(ap, src=row_ranks[owner_c], group=row_group, async_op=True))
        if pr > 1:
            works.append(dist.broadcast(bp, src=col_ranks[owner_r], group=col_group, async_op=True))
        return works

    npanels = k // panel
    pending = post(0, 0)
    for p in range(npanels):
        for w in pending:
            w.wait()                        # orders the stream after the panel
        pending = post(p + 1, (p + 1) & 1) if p + 1 < npanels else []
        ap, bp = bufs[p & 1]
        c_loc.addmm_(ap, bp)
    torch.cuda.synchronize()


def main():
    o = parse()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    n = o.size
    if world > 1:
        dist.init_process_group("nccl", device_id=dev)
    pr, pc = grid_of(o.grid, world)
    if n % pr or n % pc or (n // pc) % o.panel or (n // pr) % o.panel:
        sys.exit(f"dist-torch: {n} must split evenly into {pr}x{pc} blocks of whole {o.panel}-panels")
    myrow, mycol = rank // pc, rank % pc
    a, b = full_inputs(n, dev)
    mb, nb, ka, kb = n // pr, n // pc, n // pc, n // pr
    a_loc = a[myrow * mb:(myrow + 1) * mb, mycol * ka:(mycol + 1) * ka].contiguous()
    b_loc = b[myrow * kb:(myrow + 1) * kb, mycol * nb:(mycol + 1) * nb].contiguous()
    c_loc = torch.zeros((mb, nb), device=dev)
    groups = (None, None, [], [])
    if world > 1:
        rows = [dist.new_group([r * pc + c for c in range(pc)]) for r in range(pr)]
        cols = [dist.new_group([r * pc + c for r in range(pr)]) for c in range(pc)]
        groups = (rows[myrow], cols[mycol], [myrow * pc + c for c in range(pc)],
                  [r * pc + mycol for r in range(pr)])

    def one():
        c_loc.zero_()
        torch.cuda.synchronize()
        if world > 1:
            dist.barrier(device_ids=[local])
        t0 = torch.cuda.Event(enable_timing=True)
        t1 = torch.cuda.Event(enable_timing=True)
        t0.record()
        if world == 1:
            torch.mm(a, b, out=c_loc)
        else:
            summa(a_loc, b_loc, c_loc, (pr, pc, myrow, mycol), o.panel, groups)
        t1.record()
        torch.cuda.synchronize()
        return t0.elapsed_time(t1)

    for _ in range(o.warmup):
        one()
    times = []
    for _ in range(o.reps):
        t = torch.tensor([one()], device=dev)
        if world > 1:
            dist.all_reduce(t, op=dist.ReduceOp.MAX)   # a rep lasts as long as its slowest rank
        times.append(t.item())
    # Verify 64x64 sampled entries of this rank's C block in FP64.
    g = torch.Generator(device=dev).manual_seed(99 + rank)
    ri = torch.randint(0, mb, (64,), generator=g, device=dev)
    ci = torch.randint(0, nb, (64,), generator=g, device=dev)
    want = a[myrow * mb + ri].double() @ b[:, mycol * nb + ci].double()
    got = c_loc[ri][:, ci].double()
    err = ((got - want).norm() / want.norm()).item()
    ok = torch.tensor([1.0 if err < 8 * 1.2e-7 * n ** 0.5 else 0.0], device=dev)
    if world > 1:
        dist.all_reduce(ok, op=dist.ReduceOp.MIN)
    med = statistics.median(times)
    gflops = 2.0 * n ** 3 / (med * 1e6)
    if rank == 0:
        line = (f"torch {n}^3 grid {pr}x{pc} panel {o.panel if world > 1 else n}: "
                f"{med:.3f} ms (min {min(times):.3f} max {max(times):.3f}, {o.reps} reps), "
                f"{gflops:.0f} GFLOP/s, verified {'yes' if ok.item() == 1 else 'NO'} "
                f"(rank 0 rel err {err:.2e})")
        print(line, flush=True)
        if o.out:
            new = not os.path.exists(o.out)
            with open(o.out, "a") as f:
                if new:
                    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"],
                                            capture_output=True, text=True).stdout.strip()
                    f.write(f"# device: {torch.cuda.get_device_name(dev)} x{torch.cuda.device_count()}\n"
                            f"# date: {datetime.datetime.utcnow():%Y-%m-%dT%H:%M:%SZ}\n"
                            f"# host: {socket.gethostname()}\n"
                            f"# command: torchrun --nproc_per_node P scripts/dist-torch.py --size N "
                            f"--grid G --panel W --reps {o.reps}\n"
                            f"# commit: {commit or os.environ.get('GIT_COMMIT', 'unknown')}\n"
                            f"# torch: {torch.__version__}, nccl {'.'.join(map(str, torch.cuda.nccl.version()))}, "
                            f"TF32 off\n"
                            "size,grid,ranks,panel,time_ms,time_min_ms,time_max_ms,gflops,verified\n")
                f.write(f"{n},{pr}x{pc},{world},{o.panel if world > 1 else n},{med:.4f},"
                        f"{min(times):.4f},{max(times):.4f},{gflops:.1f},{int(ok.item())}\n")
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
