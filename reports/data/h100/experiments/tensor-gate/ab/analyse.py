import sys, re, csv, statistics as st, collections, os
W = sys.argv[1]
def loop(p):
    for l in open(p, errors='replace'):
        m = re.search(r'iterations in ([0-9.]+) s', l)
        if m: return float(m.group(1))
t = {}
for l in open(W + '/times.txt'):
    k, v, rc = l.split(); t[k] = float(v)
rs = sorted({int(k.rsplit('-', 1)[1]) for k in t if k.startswith('a-plain')})
lo = {p: [loop(f'{W}/{p}-{r}.log') for r in rs] for p in ('a-plain', 'b-auto', 'x-always', 'd-ncu')}
for i, r in enumerate(rs):
    a, b, x, d = (lo[p][i] for p in ('a-plain', 'b-auto', 'x-always', 'd-ncu'))
    print('round %d loop s: plain %.3f auto %.3f always %.3f ncu %.3f | ratio auto %.3f always %.3f | wall: plain %.2f auto %.2f always %.2f ncu %.2f' % (
        r, a, b, x, d, (b - a) / (d - a), (x - a) / (d - a), t[f'a-plain-{r}'], t[f'b-auto-{r}'], t[f'x-always-{r}'], t[f'd-ncu-{r}']))
m = {p: st.median(v) for p, v in lo.items()}
print('loop medians: plain %.3f auto +%.3f always +%.3f ncu +%.3f: ratio auto %.3f, always %.3f' % (
    m['a-plain'], m['b-auto'] - m['a-plain'], m['x-always'] - m['a-plain'], m['d-ncu'] - m['a-plain'],
    (m['b-auto'] - m['a-plain']) / (m['d-ncu'] - m['a-plain']), (m['x-always'] - m['a-plain']) / (m['d-ncu'] - m['a-plain'])))
w = {p: st.median(t[f'{p}-{r}'] for r in rs) for p in ('a-plain', 'b-auto', 'x-always', 'd-ncu')}
print('wall medians: plain %.2f auto +%.2f always +%.2f ncu +%.2f: ratio auto %.3f, always %.3f' % (
    w['a-plain'], w['b-auto'] - w['a-plain'], w['x-always'] - w['a-plain'], w['d-ncu'] - w['a-plain'],
    (w['b-auto'] - w['a-plain']) / (w['d-ncu'] - w['a-plain']), (w['x-always'] - w['a-plain']) / (w['d-ncu'] - w['a-plain'])))
def cost(p):
    for l in open(p):
        if l.startswith('# profiling_cost'): return l.strip()[:260]
for r in rs[:1]:
    print('auto  ', cost(f'{W}/b-{r}.csv')); print('always', cost(f'{W}/x-{r}.csv'))
# per launch: configurations of >= 10 us, launches before (index < 20) and after (> 20) the profiled one (index 20)
def per_launch(p):
    g = collections.defaultdict(list)
    for r in csv.DictReader(l for l in open(p) if not l.startswith('#')):
        if r['time_ms'] in ('NA', ''): continue
        g[(r['kernel'], r['config'])].append((int(r['correlation_id']), float(r['time_ms']), r['profiled']))
    return g
for r in (1, 2):
    s, n = per_launch(f'{W}/s-{r}.csv'), per_launch(f'{W}/n-{r}.csv')
    for k in s:
        v = sorted(s[k]); nv = sorted(n.get(k, []))
        if len(v) < 40 or st.median(x[1] for x in v) < 0.010: continue
        before = st.median(x[1] for x in v[1:20]); after = st.median(x[1] for x in v[21:])
        nb = st.median(x[1] for x in nv[1:20]); na = st.median(x[1] for x in nv[21:])
        print('run %d %-60s skip20: before %.4f after %.4f (%+.2f%%) | none: before %.4f after %.4f (%+.2f%%) | after vs none-after %+.2f%%' % (
            r, k[0][:60], before, after, 100 * (after / before - 1), nb, na, 100 * (na / nb - 1), 100 * (after / na - 1)))
