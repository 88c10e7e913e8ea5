#!/usr/bin/env python3
"""Regenerates the mpmath rows of golden-values.csv (rows with provenance 'mpmath-60dps').

Independent of the Java code: closed forms of spec ndis §5.1 (Prop. 1) and §5.5 (Lemma 4) evaluated with
mpmath at 60+ significant digits, roots by bisection at that precision. Run: python3 generate_golden.py
(prints the rows; mpmath 1.3.0 was used)."""
import mpmath as mp

mp.mp.dps = 80

def gm(eps, tau):
    eps, tau = mp.mpf(eps), mp.mpf(tau)
    if tau == 0:
        return mp.mpf(0) if eps >= 0 else 1 - mp.e ** eps
    return mp.ncdf(-eps / tau + tau / 2) - mp.e ** eps * mp.ncdf(-eps / tau - tau / 2)

def rp(eps, p, r):
    eps, p = mp.mpf(eps), mp.mpf(p)
    if p == 0:
        return mp.mpf(0)
    rho = 1 / (1 - p)
    s = mp.mpf(r) / 2
    t0 = 2 * (eps + s * mp.log(rho)) / (rho - 1)
    return mp.gammainc(s, t0 / 2, mp.inf, regularized=True) - mp.e ** eps * mp.gammainc(s, rho * t0 / 2, mp.inf, regularized=True)

def bisect(f, lo, hi, feasible_low, iters=200):
    # f monotone; returns the boundary
    for _ in range(iters):
        mid = (lo + hi) / 2
        if f(mid) == feasible_low:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

def pstar(eps, delta, r):
    return bisect(lambda p: rp(eps, p, r) <= mp.mpf(delta), mp.mpf(0), mp.mpf(1) - mp.mpf('1e-15'), True)

def sigma(eps, delta, sens):
    return bisect(lambda s: gm(eps, mp.mpf(sens) / s) > mp.mpf(delta), mp.mpf('1e-6'), mp.mpf('1e6'), True)

def gm_eps(delta, tau):
    return bisect(lambda e: gm(e, tau) > mp.mpf(delta), mp.mpf(0), mp.mpf(1000), True)

def lsv(eps, delta, r):
    l = mp.log(4 / mp.mpf(delta))
    return mp.mpf(eps) / (4 * (mp.sqrt(2 * r * l) + l))

def row(kind, a, b, c, val, tol):
    args = " ".join(str(x) for x in (a, b, c) if x != "")
    print(f"{kind};{args};{mp.nstr(val, 20)};{tol};0;mpmath 1.3.0 at 80 (curves) / 40 (roots) digits, generate_golden.py")

if __name__ == "__main__":
    for eps, tau in [(0, 1), (0.5, 1), (1, 1), (2, 1), (-2, 1), (-1, 1), (3, 2), (0.3, 0.01), (1, 0.05),
                     (1e-8, 1e-4), (1e-3, 0.01), (400, 30), (1000, 40), (5, 0.5), (0.1, 5), (0, 1e-6),
                     (20, 1), (50, 2), (2e-5, 1e-3), (0.2, 0.02), (1, 0.1)]:
        row("gm_delta", eps, tau, "", gm(eps, tau), "1e-12")
    for eps, p, r in [(2, 0.01, 100), (1, 0.01, 100), (0.5, 0.01, 100), (0.01, 1e-4, 10), (0.001, 1e-5, 50),
                      (0.05, 0.001, 500), (0, 0.2, 4), (0, 1e-6, 20), (10, 0.3, 1), (1, 0.5, 2), (5, 0.9, 3),
                      (1, 0.0787987, 100), (0.2, 0.001, 50)]:
        row("rp_delta", eps, p, r, rp(eps, p, r), "1e-11")
    for eps, delta, r in [(1, 1e-6, 100), (0.1, 1e-6, 50), (5, 1e-6, 500), (1, 1e-10, 20), (0.5, 1e-3, 1),
                          (2.90048, 1e-5, 100)]:
        mp.mp.dps = 40
        row("rp_pstar", eps, delta, r, pstar(eps, delta, r), "1e-11")
        mp.mp.dps = 80
    for eps, delta, sens in [(1, 1e-5, 1), (0.01, 1e-10, 2), (8, 1e-9, 1), (0, 1e-3, 1)]:
        mp.mp.dps = 40
        row("ag_sigma", eps, delta, sens, sigma(eps, delta, sens), "1e-11")
        mp.mp.dps = 80
    for delta, tau in [(1e-6 / 3, 0.2), (1e-5, 1), (1e-12, 0.5)]:
        mp.mp.dps = 40
        row("gm_eps", delta, tau, "", gm_eps(delta, tau), "1e-11")
        mp.mp.dps = 80
