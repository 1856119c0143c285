# kernels of every tensor-core precision the default set counts, and elementwise half kernels (HFMA2.MMA candidates)
import torch, torch.nn.functional as Fn
torch.backends.cudnn.allow_tf32 = True
dev = 'cuda'
def mm(dt, tf32=False, n=1024):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device=dev).to(dt); b = torch.randn(n, n, device=dev).to(dt)
    return a @ b
for _ in range(2):
    mm(torch.float32); mm(torch.float32, True); mm(torch.bfloat16); mm(torch.float16); mm(torch.float64)
    try:
        a = torch.randn(1024, 1024, device=dev).to(torch.float8_e4m3fn); b = torch.randn(1024, 1024, device=dev).to(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device=dev)
        torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    except Exception as e: print('fp8:', e)
    try:
        torch._int_mm(torch.randint(-8, 8, (1024, 1024), device=dev, dtype=torch.int8), torch.randint(-8, 8, (1024, 1024), device=dev, dtype=torch.int8))
    except Exception as e: print('int8:', e)
    x = torch.randn(8, 64, 56, 56, device=dev); w = torch.randn(64, 64, 3, 3, device=dev)
    Fn.conv2d(x, w, padding=1); Fn.conv2d(x.half(), w.half(), padding=1)
    q = torch.randn(4, 8, 512, 64, device=dev, dtype=torch.float16)
    Fn.scaled_dot_product_attention(q, q, q)
    h = torch.randn(1 << 20, device=dev, dtype=torch.float16); g = h.bfloat16()
    (h * 1.5 + h).relu(); Fn.gelu(h); Fn.layer_norm(h.view(1024, 1024), (1024,)); Fn.gelu(g); (g * g).sum(); h.float()
torch.cuda.synchronize()
print('prec done')
