import csv, sys, collections
G='sm__inst_executed_pipe_tensor.sum'; H='sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum'
OPS=['sm__ops_path_tensor_src_fp64.sum','sm__ops_path_tensor_src_tf32_dst_fp32.sum','sm__ops_path_tensor_src_bf16_dst_fp32.sum','sm__ops_path_tensor_src_fp16.sum','sm__ops_path_tensor_src_fp8.sum']
for f in sys.argv[1:]:
    k = collections.OrderedDict()
    try: rows = list(csv.DictReader(l for l in open(f) if l.startswith('"')))
    except OSError as e: print(f, e); continue
    for r in rows:
        d = k.setdefault(r['ID'], {'name': r['Kernel Name']})
        try: d[r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
        except ValueError: d[r['Metric Name']] = float('nan')
    bad = 0; hf = 0; gated = 0
    print('==', f, len(k), 'kernels')
    for i, d in k.items():
        g, h = d.get(G, -1), d.get(H, -1); ops = [d.get(o, -1) for o in OPS]
        if g == 0 and any(o != 0 for o in ops): bad += 1; print('VIOLATION gate 0, ops', ops, d['name'][:80])
        if g > 0: gated += 1
        if g > 0 and g == h: hf += 1
        print('%4s gate %-10.6g hfma2 %-10.6g ops %s  %s' % (i, g, h, ' '.join('%.4g' % o for o in ops), d['name'][:90]))
    print('summary %s: %d kernels, %d with gate > 0 (%d of them only HFMA2.MMA), %d violations of gate==0 => ops==0' % (f.split('/')[-1], len(k), gated, hf, bad))
