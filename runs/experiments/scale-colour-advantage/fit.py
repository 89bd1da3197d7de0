"""Does a first-move advantage explain a scale's residuals? A check, not package code.

Fits every game of a scale's pairs by maximum likelihood twice: the plain Elo model
(a draw half a win, as the scale's own fit, without its virtual draws), and the same
with one more parameter, an advantage in Elo for the side that moves first in the
record (BayesElo's "advantage"). For each fit it counts the pairs whose observed score
falls outside the 95% interval of the predicted one (per-game variances, so the
colour split is counted), and prints the twenty worst pairs and the top ratings.

    python fit.py FOLDER_WITH_PAIR_FILES SCALE-residuals.csv
"""
import csv, glob, math, sys
import numpy as np
from scipy.optimize import minimize
csv.field_size_limit(10**7)
folder = sys.argv[1]; resid = sys.argv[2]
pairs = set()
for row in csv.DictReader(open(resid)):
    pairs.add(frozenset((row["first"], row["second"])))
games = []
seen_files = 0
for path in sorted(glob.glob(folder + "/pair--*.csv")):
    rows = list(csv.DictReader(open(path)))
    if not rows: continue
    key = frozenset((rows[0]["black"], rows[0]["white"]))
    if key not in pairs: continue
    seen_files += 1
    for r in rows:
        s = 1.0 if r["winner"] == r["black"] else 0.0 if r["winner"] == r["white"] else 0.5
        games.append((r["black"], r["white"], s))
names = sorted({g[0] for g in games} | {g[1] for g in games})
idx = {n: k for k, n in enumerate(names)}
B = np.array([idx[g[0]] for g in games]); W = np.array([idx[g[1]] for g in games]); S = np.array([g[2] for g in games])
print(len(games), "games", seen_files, "files", len(names), "players", len(pairs), "pairs")
anchor = idx["random"]
k = math.log(10) / 400
def unpack(x, colour):
    r = np.insert(x[: len(names) - 1], anchor, 0.0)
    a = x[-1] if colour else 0.0
    return r, a
def nll(x, colour):
    r, a = unpack(x, colour)
    d = (r[B] - r[W] + a) * k
    e = 1 / (1 + np.exp(-d))
    e = np.clip(e, 1e-12, 1 - 1e-12)
    ll = S * np.log(e) + (1 - S) * np.log(1 - e)
    return -ll.sum()
def grad(x, colour):
    r, a = unpack(x, colour)
    d = (r[B] - r[W] + a) * k
    e = 1 / (1 + np.exp(-d))
    g = (S - e) * k
    gr = np.zeros(len(names)); np.add.at(gr, B, g); np.add.at(gr, W, -g)
    out = -np.delete(gr, anchor)
    if colour: out = np.append(out, -g.sum())
    return out
for colour in (False, True):
    x0 = np.zeros(len(names) - 1 + (1 if colour else 0))
    res = minimize(nll, x0, args=(colour,), jac=grad, method="L-BFGS-B")
    r, a = unpack(res.x, colour)
    e_all = 1 / (1 + np.exp(-(r[B] - r[W] + a) * k))
    outside = 0; rows = []
    by = {}
    for n_b, n_w, s, e in zip(B, W, S, e_all):
        key = tuple(sorted((n_b, n_w)))
        first = key[0]
        # score of 'first'
        sf = s if n_b == first else 1 - s
        ef = e if n_b == first else 1 - e
        by.setdefault(key, []).append((sf, ef))
    for key, lst in by.items():
        sf = np.array([t[0] for t in lst]); ef = np.array([t[1] for t in lst])
        n = len(lst); obs = sf.mean(); pred = ef.mean()
        dr = (sf == 0.5).mean()
        var = (ef * (1 - ef)).sum() / n**2 - dr / 4 / n
        var0 = pred * (1 - pred) / n - dr / 4 / n
        z = 1.959964
        out = abs(obs - pred) > z * math.sqrt(max(var, 0)); out0 = abs(obs - pred) > z * math.sqrt(max(var0, 0))
        outside += out
        rows.append((abs(obs-pred)/math.sqrt(max(var,1e-12)), names[key[0]], names[key[1]], n, obs, pred, out, out0))
    print("colour" if colour else "plain", "advantage %.0f" % a, "nll %.1f" % res.fun, "outside", outside, "of", len(by), "(plain-variance test:", sum(r_[7] for r_ in rows), ")")
    for row in sorted(rows, reverse=True)[:20]:
        print("  %.1f %-45s %-45s %4d obs %.3f pred %.3f %s" % row[:7])
    top = sorted(zip(r, names), reverse=True)[:6]
    print("  top", [(n, round(v)) for v, n in top])
