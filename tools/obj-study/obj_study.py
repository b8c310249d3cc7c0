#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""Placement-policy study for GBA OBJ VRAM (research tool, not part of the build).

Replays the OBJ arena of vramsim traces against placement policies written
here in a few lines each, so that ideas can be measured on hundreds of traces
before one is written in freestanding C. The model is vramsim's: tiles
0-1023 (512-1023 in bitmap modes), 8bpp sprites on even tiles, fragmentation
1 - largest free run / free tiles after every event, its peak per trace.
`ends` here places exactly as src/alloc/gba_obj_ends.c: --check compares it
with vramsim's own gba-obj-ends rows, trace by trace.

  obj_study.py [--rivals CSV] [--check] [-j N] POLICY TRACE|DIR...

CSV is `vramsim compare ... --no-timing -f csv` over the same traces with the
four rivals (gba-obj-map, -first-fit, -best-fit, -buddy): the study then
counts the traces where POLICY meets the per-trace bar (no more
failures than each rival and a strictly lower peak) and checks the aggregate
one (fewer failures in all and a lower mean peak than each rival).

Policies (docs/gba.md, "Study on 400 fresh traces"):
  ends[:S]           two-ended best fit, small = at most S tiles (default 4)
  oracle:T           ends, but "small" = dies within T events (knows the future)
  capacity:S:M:F     requests of at least M tiles take the run whose cut loses
                     the least sum over size classes c of p(c) * F(runs' room
                     for c); F = log or cap4; smaller ones as ends:S
  aligned[:high]     every request at a multiple of its own size, in the
                     smallest free aligned block that holds it (buddy without
                     split history); small ones highest with :high
"""
import bisect, csv, glob, math, multiprocessing, os, sys

SHAPES = {(8, 8): 1, (16, 16): 4, (32, 32): 16, (64, 64): 64, (16, 8): 2, (32, 8): 4,
          (32, 16): 8, (64, 32): 32, (8, 16): 2, (8, 32): 4, (16, 32): 8, (32, 64): 32}
RIVALS = ['gba-obj-map', 'gba-obj-first-fit', 'gba-obj-best-fit-end', 'gba-obj-buddy']


def load(path):
    """The OBJ events of a trace: ('a', id, tiles, align) / ('f', id) / ('t',)."""
    events, lo = [], None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            if w[0] == 'arena' and len(w) > 2 and w[2] == 'gba-obj':
                lo = 512 if any(x in ('mode=3', 'mode=4', 'mode=5') for x in w) else 0
            elif w[0] == 'alloc' and len(w) > 4 and w[2] == 'sprite':
                width, height = map(int, w[3].split('x'))
                bpp8 = w[4] == '8bpp'
                events.append(('a', int(w[1]), SHAPES[(width, height)] << bpp8, 2 if bpp8 else 1))
            elif w[0] == 'free':
                events.append(('f', int(w[1])))
            elif w[0] == 'frame':
                events.append(('t',))
    if lo is None:
        return None  # no OBJ arena: not part of the study
    death = {e[1]: i for i, e in enumerate(events) if e[0] == 'f'}
    return lo, events, death


def up(x, a):
    return (x + a - 1) // a * a


def fits(r, n, a):
    return up(r[0], a) + n <= r[1]


def low(r, n, a):
    return up(r[0], a)


def high(r, n, a):
    return (r[1] - n) // a * a


class Runs:
    """Free tiles as sorted [start, end) runs."""
    def __init__(self, lo):
        self.runs, self.free = [[lo, 1024]], 1024 - lo

    def take(self, s, n):
        for i, r in enumerate(self.runs):
            if r[0] <= s and s + n <= r[1]:
                self.runs[i:i + 1] = [x for x in ([r[0], s], [s + n, r[1]]) if x[0] < x[1]]
                self.free -= n
                return
        raise ValueError('placement %d+%d is not free' % (s, n))

    def give(self, s, n):
        i = bisect.bisect([r[0] for r in self.runs], s)
        self.runs.insert(i, [s, s + n])
        self.free += n
        if i + 1 < len(self.runs) and self.runs[i][1] == self.runs[i + 1][0]:
            self.runs[i][1] = self.runs.pop(i + 1)[1]
        if i > 0 and self.runs[i - 1][1] == self.runs[i][0]:
            self.runs[i - 1][1] = self.runs.pop(i)[1]

    def frag(self):
        return 0.0 if not self.free else 1.0 - max(r[1] - r[0] for r in self.runs) / self.free


def replay(path, policy):
    trace = load(path)
    if trace is None:
        return None
    lo, events, death = trace
    free, live, fails, peak = Runs(lo), {}, 0, 0.0
    ctx = {'death': death, 'count': [0] * 8}
    for i, e in enumerate(events):
        if e[0] == 'a':
            ctx['now'], ctx['id'] = i, e[1]
            s = policy(free.runs, e[2], e[3], ctx)
            if s is None:
                fails += 1
            else:
                free.take(s, e[2])
                live[e[1]] = (s, e[2])
        elif e[0] == 'f' and e[1] in live:
            free.give(*live.pop(e[1]))
        peak = max(peak, free.frag())
    return fails, peak


def two_ended(runs, n, a, small):
    """Smallest run that holds the request; small ones at its high end (highest
    run on ties), others at its low end (lowest run on ties)."""
    best = None
    for r in runs:
        if fits(r, n, a) and (best is None or r[1] - r[0] < best[1] - best[0]
                              or (small and r[1] - r[0] == best[1] - best[0])):
            best = r
    if best is None:
        return None
    return high(best, n, a) if small else low(best, n, a)


def p_ends(small=4):
    return lambda runs, n, a, ctx: two_ended(runs, n, a, n <= small)


def p_oracle(t):
    return lambda runs, n, a, ctx: two_ended(runs, n, a, ctx['death'].get(ctx['id'], 1 << 30) - ctx['now'] < t)


CLASSES = [1, 2, 4, 8, 16, 32, 64, 128]


def p_capacity(small=8, least=2, fn='cap4'):
    f = math.log1p if fn == 'log' else (lambda x: min(x, 4))

    def policy(runs, n, a, ctx):
        count = ctx['count']
        count[n.bit_length() - 1] += 1
        if n < least:
            return two_ended(runs, n, a, n <= small)
        total = sum(count)
        room = [sum((r[1] - r[0]) // c for r in runs) for c in CLASSES]
        best = None
        for r in runs:
            if not fits(r, n, a):
                continue
            length = r[1] - r[0]
            loss = sum(count[i] / total * (f(room[i]) - f(room[i] - length // c + (length - n) // c))
                       for i, c in enumerate(CLASSES) if count[i])
            key = (round(loss, 9), length, -r[0] if n <= small else r[0])
            if best is None or key < best[0]:
                best = (key, r)
        if best is None:
            return None
        return high(best[1], n, a) if n <= small else low(best[1], n, a)
    return policy


def enclosing(r, s, n):
    """Size of the largest naturally aligned block around [s, s+n) inside run r."""
    b = n
    while b < 1024:
        base = s // (2 * b) * (2 * b)
        if base < r[0] or base + 2 * b > r[1]:
            break
        b *= 2
    return b


def p_aligned(side=''):
    def policy(runs, n, a, ctx):
        best = None
        for r in runs:
            s = up(r[0], n)
            while s + n <= r[1]:
                key = (enclosing(r, s, n), r[1] - r[0], -s if side == 'high' and n <= 4 else s)
                if best is None or key < best[0]:
                    best = (key, s)
                s += n
        return best[1] if best else two_ended(runs, n, a, n <= 4)
    return policy


def make(spec):
    name, *args = spec.split(':')
    table = {'ends': lambda: p_ends(*map(int, args)),
             'oracle': lambda: p_oracle(*map(int, args)),
             'capacity': lambda: p_capacity(*(int(x) if x.isdigit() else x for x in args)),
             'aligned': lambda: p_aligned(*args)}
    if name not in table:
        sys.exit('obj_study: unknown policy %r' % spec)
    return table[name]()


def work(job):
    spec, path = job
    return path, replay(path, make(spec))


def main(argv):
    rivals_csv, check, jobs, rest = None, False, os.cpu_count() or 1, []
    it = iter(argv)
    for x in it:
        if x == '--rivals':
            rivals_csv = next(it)
        elif x == '--check':
            check = True
        elif x == '-j':
            jobs = int(next(it))
        else:
            rest.append(x)
    if len(rest) < 2:
        sys.exit(__doc__)
    spec, paths = rest[0], []
    make(spec)
    for p in rest[1:]:
        paths += sorted(glob.glob(os.path.join(p, '*.trace'))) if os.path.isdir(p) else [p]
    with multiprocessing.Pool(jobs) as pool:
        res = {p: r for p, r in pool.map(work, [(spec, p) for p in paths], chunksize=4) if r}
    if not res:
        sys.exit('obj_study: no trace with a gba-obj arena')
    rows = {}
    if rivals_csv:
        with open(rivals_csv) as f:
            for r in csv.DictReader(f):
                if r['arena'] == 'obj':
                    rows.setdefault(os.path.basename(r['trace']), {})[r['strategy']] = (
                        int(r['failures']), float(r['peak_frag']))
    groups, wins, bad = {}, 0, 0
    for p, (fails, peak) in res.items():
        t = os.path.basename(p)
        g = groups.setdefault(t.rsplit('-', 1)[0], [0, 0.0, 0])
        peak = round(peak, 6)  # as the CSV prints the rivals'
        g[0] += fails; g[1] += peak; g[2] += 1
        theirs = rows.get(t, {})
        if all(r in theirs for r in RIVALS):
            wins += all(fails <= theirs[r][0] and peak < theirs[r][1] for r in RIVALS)
        if check:
            want = theirs.get('gba-obj-ends')
            if want is None or want[0] != fails or abs(want[1] - peak) > 5e-7:
                print('MISMATCH %s: study %d / %.6f, vramsim %s' % (t, fails, peak, want))
                bad += 1
    n = len(res)
    fails = sum(g[0] for g in groups.values())
    mean = sum(g[1] for g in groups.values()) / n
    print('%s on %d traces: %d failures, mean peak fragmentation %.4f' % (spec, n, fails, mean))
    for name, g in sorted(groups.items()):
        print('  %-22s %3d traces  %4d failures  mean peak %.4f' % (name, g[2], g[0], g[1] / g[2]))
    if rows:
        print('per-trace bar met on %d of %d traces' % (wins, n))
        for r in RIVALS:
            mine = [rows[os.path.basename(p)][r] for p in res if r in rows.get(os.path.basename(p), {})]
            if len(mine) == n:
                rf, rp = sum(x[0] for x in mine), sum(x[1] for x in mine) / n
                print('  vs %-18s %5d failures  mean peak %.4f  -> %s' % (
                    r, rf, rp, 'beaten' if fails < rf and mean < rp else 'NOT beaten'))
    if check:
        print('check against gba-obj-ends: %s' % ('%d mismatches' % bad if bad else 'identical'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
