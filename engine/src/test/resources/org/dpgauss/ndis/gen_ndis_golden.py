#!/usr/bin/env python3
"""Independent golden values of the Gaussian hockey-stick divergence delta_{X,Y}(eps) (X first) in
dimension 3-6 with mixed-sign generalized chi-square weights, for org.dpgauss.ndis.HockeyStickGoldenTest.

Method (no Monte Carlo in the values, no code shared with the Java implementation):
  * all linear algebra in mpmath at 40 significant digits (mp.cholesky, mp.lu_solve / triangular solves,
    mp.eigsy for the symmetric eigendecomposition of R = L^{-1} S1 L^{-T}), giving tau, a = 1 - tau,
    b = -sqrt(tau) U^T m, c(eps) = eps + 1/2 sum log tau - 1/2 |m|^2 (spec ndis §2.1);
  * Theorem 4.1 (spec §3): delta = p0 - e^eps p1 with both terms generalized chi-squares;
  * each probability by Imhof's (1961) Gil-Pelaez inversion,
        P[Q > x] = 1/2 + (1/pi) int_0^inf sin(theta(u)) / (u rho(u)) du,
    integrated with mpmath.quadosc (period 4 pi / |x| of the asymptotically linear phase) or mpmath.quad
    when x = 0, at mp.dps = 40.
  * self-check: the same Imhof routine reproduces the Davies (1980) table values in
    docs/references/reference-values.md §1.1 (15 digits, including mixed-sign weights) before any case is written,
    and each case is compared with a 4e6-sample numpy Monte Carlo of Lemma 1 (sanity only, |diff| < 5 sigma).

Tools: Python 3, mpmath 1.3.0, numpy (Monte Carlo sanity check only). Run:
    python3 gen_ndis_golden.py > hockey-stick-mpmath.txt
"""
import sys
import mpmath as mp
import numpy as np

mp.mp.dps = 40


def imhof_sf(weights, dof, nc, x):
    """P[sum_j w_j chi2'(dof_j, nc_j) > x] by Imhof's formula."""
    w = [mp.mpf(v) for v in weights]
    x = mp.mpf(x)

    def integrand(u):
        if u == 0:
            return (sum(wj * (kj + dj) for wj, kj, dj in zip(w, dof, nc)) - x) / 2
        theta = -x * u / 2
        logrho = mp.mpf(0)
        for wj, kj, dj in zip(w, dof, nc):
            wu = wj * u
            q = 1 + wu * wu
            theta += (kj * mp.atan(wu) + dj * wu / q) / 2
            logrho += kj * mp.log(q) / 4 + dj * wu * wu / (2 * q)
        return mp.sin(theta) / (u * mp.exp(logrho))

    if x != 0:
        val = mp.quadosc(integrand, [0, mp.inf], period=4 * mp.pi / abs(x))
    else:
        val = mp.quad(integrand, [0, 1, 10, 100, mp.inf])
    return mp.mpf(1) / 2 + val / mp.pi


def imhof_cdf(weights, dof, nc, x):
    return 1 - imhof_sf(weights, dof, nc, x)


def self_check():
    # Davies (1980) Table 3 via CompQuadForm, as listed in docs/references/reference-values.md §1.1 (P[Q <= q])
    table = [
        ((6, 3, 1), (1, 1, 1), (0, 0, 0), 1, 0.0542138460670465),
        ((6, 3, 1), (1, 1, 1), (0, 0, 0), 20, 0.876040925837674),
        ((7, 3), (1, 1), (6, 2), 10, 0.0451271898976126),
        ((7, 3, -7, -3), (6, 2, 1, 1), (6, 2, 6, 2), -40, 0.0782079509588576),
        ((7, 3, -7, -3), (6, 2, 1, 1), (6, 2, 6, 2), 40, 0.52210669202666),
    ]
    for w, k, nc, q, ref in table:
        got = imhof_cdf(w, k, nc, q)
        if abs(got - ref) > 2e-14:
            raise SystemExit("self-check failed: %s %s %s %s -> %s vs %s" % (w, k, nc, q, got, ref))


def delta(mu1, s1, mu2, s2, eps):
    d = len(mu1)
    S1 = mp.matrix(s1)
    S2 = mp.matrix(s2)
    L = mp.cholesky(S2)
    Linv = mp.inverse(L)  # exact-enough at 40 digits for these small well-conditioned cases
    m = Linv * (mp.matrix(mu1) - mp.matrix(mu2))
    R = Linv * S1 * Linv.T
    R = (R + R.T) / 2
    tau, U = mp.eigsy(R)
    tau = [tau[i] for i in range(d)]
    a = [1 - t for t in tau]
    um = U.T * m
    b = [-mp.sqrt(tau[i]) * um[i] for i in range(d)]
    m2 = sum(m[i] ** 2 for i in range(d))
    c = mp.mpf(eps) + sum(mp.log(t) for t in tau) / 2 - m2 / 2
    S = sum(b[i] ** 2 / (2 * a[i]) for i in range(d))
    w0 = [ai / 2 for ai in a]
    nc0 = [(b[i] / a[i]) ** 2 for i in range(d)]
    w1 = [a[i] / (2 * tau[i]) for i in range(d)]
    nc1 = [(b[i] / (a[i] * mp.sqrt(tau[i]))) ** 2 for i in range(d)]
    ones = [1] * d
    p0 = imhof_cdf(w0, ones, nc0, -(c - S))
    p1 = imhof_cdf(w1, ones, nc1, -(c - S))
    val = p0 - mp.e ** mp.mpf(eps) * p1
    return max(mp.mpf(0), val), tau, (float(p0), float(p1))


def monte_carlo(mu1, s1, mu2, s2, eps, n=4_000_000, seed=7):
    rng = np.random.default_rng(seed)
    mu1 = np.array(mu1, float); mu2 = np.array(mu2, float)
    s1 = np.array(s1, float); s2 = np.array(s2, float)
    L1 = np.linalg.cholesky(s1)
    x = mu1 + rng.standard_normal((n, len(mu1))) @ L1.T
    def logpdf(x, mu, s):
        L = np.linalg.cholesky(s)
        z = np.linalg.solve(L, (x - mu).T)
        return -0.5 * np.sum(z * z, axis=0) - np.sum(np.log(np.diag(L)))
    g = eps + logpdf(x, mu2, s2) - logpdf(x, mu1, s1)
    v = np.maximum(0.0, -np.expm1(g))
    return v.mean(), v.std() / np.sqrt(n)


def fmt_vec(v):
    return ",".join(repr(float(t)) for t in v)


def fmt_mat(m):
    return ";".join(fmt_vec(row) for row in m)


def random_case(rng, d, spread):
    """Random SPD pair with entries rounded to 3 decimals (exact in the text file)."""
    def spd(scale):
        a = rng.standard_normal((d, d))
        s = a @ a.T / d + scale * np.eye(d)
        s = np.round(s, 3)
        return s
    s1 = spd(spread)
    s2 = spd(1.0)
    mu1 = np.round(rng.standard_normal(d) * 0.7, 3)
    mu2 = np.round(rng.standard_normal(d) * 0.7, 3)
    return mu1.tolist(), s1.tolist(), mu2.tolist(), s2.tolist()


def tail_cases():
    """Hard-direction pairs (S1 >= S2, all weights negative) with a mean shift at large eps: small delta, upper
    tails. Reference precision is relative (1e-9 of the value) since these exercise the tail target."""
    rng = np.random.default_rng(777)
    print("# --- tail cases (hard direction, small delta): python3 gen_ndis_golden.py --tail")
    for d, eps_list in ((3, (4.0, 8.0)), (4, (5.0, 10.0)), (5, (6.0, 12.0))):
        a = rng.standard_normal((d, d))
        s2 = np.round(a @ a.T / d + 0.5 * np.eye(d), 3)
        b = rng.standard_normal((d, d))
        s1 = np.round(s2 + 0.6 * (b @ b.T) / d + 0.2 * np.eye(d), 3)
        mu1 = np.round(rng.standard_normal(d) * 0.3, 3)
        mu2 = np.zeros(d)
        for eps in eps_list:
            val, tau, (p0, p1) = delta(mu1.tolist(), s1.tolist(), mu2.tolist(), s2.tolist(), eps)
            name = "mp-tail-d%d-e%s" % (d, repr(eps))
            prec = float(val) * 1e-9
            print("%s | %s | %s | %s | %s | %s | %s | %.3g | mpmath Imhof, hard direction, p0=%.6g p1=%.6g"
                  % (name, fmt_vec(mu1), fmt_mat(s1.tolist()), fmt_vec(mu2), fmt_mat(s2.tolist()), repr(eps),
                     mp.nstr(val, 20), prec, p0, p1))
            sys.stdout.flush()


def main():
    self_check()
    if len(sys.argv) > 1 and sys.argv[1] == "--tail":
        tail_cases()
        return
    rng = np.random.default_rng(20240611)
    print("# Independent golden values for delta_{X,Y}(eps) in dimension 3-6 with mixed-sign generalized chi-square")
    print("# weights (a_i = 1 - tau_i of both signs), generated by gen_ndis_golden.py in this folder:")
    print("# Python %s, mpmath %s (40 digits: Cholesky, eigsy, Imhof/Gil-Pelaez inversion by quadosc),"
          % (sys.version.split()[0], mp.__version__))
    print("# numpy %s (Monte Carlo sanity check of Lemma 1, 4e6 samples, only to catch gross errors)."
          % np.__version__)
    print("# The script first reproduces the Davies (1980) table of docs/references/reference-values.md §1.1 to 2e-14.")
    print("# Format as hockey-stick-golden.txt; 'reference precision' 1e-13 (quadrature accuracy at 40 digits is")
    print("# far better; 1e-13 covers double rounding of the printed inputs).")
    cases = [(3, 0.6), (3, 1.0), (4, 0.8), (5, 0.5), (6, 1.2)]
    for idx, (d, spread) in enumerate(cases):
        mu1, s1, mu2, s2 = random_case(rng, d, spread)
        for eps in (0.0, 0.5, 1.5, 3.0):
            for order in ("xy", "yx"):
                a1, b1, a2, b2 = (mu1, s1, mu2, s2) if order == "xy" else (mu2, s2, mu1, s1)
                val, tau, (p0, p1) = delta(a1, b1, a2, b2, eps)
                if eps in (0.5,):
                    mc, se = monte_carlo(a1, b1, a2, b2, eps)
                    if abs(mc - float(val)) > 5 * se + 1e-12:
                        raise SystemExit("Monte Carlo disagrees: %s vs %s +- %s" % (val, mc, se))
                signs = "".join("+" if t < 1 else "-" for t in tau)
                name = "mp-d%d-c%d-%s-e%s" % (d, idx, order, repr(eps))
                print("%s | %s | %s | %s | %s | %s | %s | 1e-13 | mpmath Imhof, a-signs %s, p0=%.6g p1=%.6g"
                      % (name, fmt_vec(a1), fmt_mat(b1), fmt_vec(a2), fmt_mat(b2), repr(eps),
                         mp.nstr(val, 20), signs, p0, p1))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
