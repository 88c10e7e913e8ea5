#!/usr/bin/env python3
"""Independent reference for `dpgauss ndis delta` and `dpgauss gx2 cdf`.

Shares no code with dpgauss: numpy/scipy for the matrix steps (generalized symmetric eigenproblem of the
pencil (Sigma1, Sigma2), not the Cholesky whitening dpgauss uses) and mpmath for the generalized chi-square
CDF by the Gil-Pelaez/Imhof integral at 30 digits with mpmath.quadosc (oscillatory tail). Spec ndis §2-§4.

  independent_ndis.py ndis PAIR.json e1,e2,...
  independent_ndis.py gx2 w1,w2,.. k1,k2,.. nc1,nc2,.. sigma x1,x2,..
"""
import json
import sys

import mpmath as mp
import numpy as np
import scipy.linalg

mp.mp.dps = 30


def gx2_cdf(w, k, nc, sigma, x):
    """P[sum w_j chi2'(k_j, nc_j) + sigma Z <= x] by Imhof (1961) eq. (3.2) with the normal term."""
    w = [mp.mpf(v) for v in w]
    k = [mp.mpf(v) for v in k]
    nc = [mp.mpf(v) for v in nc]
    s2 = mp.mpf(sigma) ** 2
    x = mp.mpf(x)

    def theta(u):
        return sum(kj * mp.atan(wj * u) + ncj * wj * u / (1 + (wj * u) ** 2) for wj, kj, ncj in zip(w, k, nc)) / 2 - x * u / 2

    def rho(u):
        r = mp.mpf(1)
        e = mp.mpf(0)
        for wj, kj, ncj in zip(w, k, nc):
            r *= (1 + (wj * u) ** 2) ** (kj / 4)
            e += ncj * (wj * u) ** 2 / (1 + (wj * u) ** 2)
        return r * mp.exp(e / 2 + s2 * u * u / 8)

    def f(u):
        if u == 0:
            return (sum(wj * (kj + ncj) for wj, kj, ncj in zip(w, k, nc)) - x) / 2
        return mp.sin(theta(u)) / (u * rho(u))

    omega = abs(x) / 2
    if s2 == 0 and omega > 1e-3:
        integral = mp.quadosc(f, [0, mp.inf], omega=omega)   # oscillatory tail ~ sin(c - x u/2) u^(-1-k/2)
    else:
        # no oscillation to speak of (x near 0) or Gaussian decay (normal term): plain quadrature over decades
        integral = mp.quad(f, [0] + [mp.mpf(10) ** e for e in range(-2, 9)] + [mp.inf])
    return 1 - (mp.mpf(1) / 2 + integral / mp.pi)


def ndis_delta(mean1, cov1, mean2, cov2, eps):
    """delta_{N(mean1,cov1), N(mean2,cov2)}(eps), spec ndis §2 Lemma 1 + §3 Theorem 4.1."""
    mean1, mean2 = np.asarray(mean1, float), np.asarray(mean2, float)
    cov1, cov2 = np.asarray(cov1, float), np.asarray(cov2, float)
    tau, v = scipy.linalg.eigh(cov1, cov2)          # cov1 v = tau cov2 v, v^T cov2 v = I
    # whitened by Y: m = coordinates of (mean1-mean2) in the basis where cov2 = I and cov1 = diag(tau)
    m = v.T @ (mean1 - mean2)
    a = 1 - tau
    b = -np.sqrt(tau) * m
    out = []
    for e in eps:
        c = e + 0.5 * np.sum(np.log(tau)) - 0.5 * np.dot(m, m)
        lin = np.abs(a) <= 1e-9 * max(1.0, np.max(np.abs(a)))
        q = ~lin
        s = np.sum(b[q] ** 2 / (2 * a[q]))
        sig = float(np.sqrt(np.sum(b[lin] ** 2)))
        b0 = float(np.sum(b[lin] ** 2))
        if not q.any():
            p0 = mp.ncdf(-(c - s) / sig) if sig > 0 else mp.mpf(c <= 0)
            p1 = mp.ncdf(-(c - s + b0) / sig) if sig > 0 else mp.mpf(c <= 0)
        else:
            p0 = gx2_cdf(a[q] / 2, [1] * q.sum(), (b[q] / a[q]) ** 2, sig, -(c - s))
            p1 = gx2_cdf(a[q] / (2 * tau[q]), [1] * q.sum(), (b[q] / (a[q] * np.sqrt(tau[q]))) ** 2, sig, -(c - s + b0))
        d = p0 - mp.exp(e) * p1
        out.append(float(min(max(d, 0), 1)))
    return out


def main(argv):
    if argv[1] == "ndis":
        p = json.load(open(argv[2]))
        eps = [float(t) for t in argv[3].split(",")]
        print(json.dumps({"epsilon": eps, "delta": ndis_delta(p["mean1"], p["cov1"], p["mean2"], p["cov2"], eps)}))
    elif argv[1] == "gx2":
        w = [float(t) for t in argv[2].split(",")]
        k = [int(t) for t in argv[3].split(",")]
        nc = [float(t) for t in argv[4].split(",")]
        xs = [float(t) for t in argv[6].split(",")]
        print(json.dumps({"x": xs, "cdf": [float(gx2_cdf(w, k, nc, float(argv[5]), x)) for x in xs]}))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
