/**
 * Privacy noise that resists floating-point attacks (Mironov 2012).
 * <p>Gaussian and Laplace noise are drawn as exact discrete Gaussian / discrete Laplace variables (Canonne, Kamath
 * &amp; Steinke, NeurIPS 2020) on a power-of-two grid with about 2^20 points per unit of scale
 * ({@link org.dpgauss.privacy.noise.NoiseGrid}); queries are rounded to the grid and the rounding is charged to the
 * sensitivity. All randomness comes from a {@link org.dpgauss.privacy.RandomSource}. Design record:
 * {@code docs/design/discrete-noise-grid.md}.
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); mechanisms draw their noise
 * here, callers choose the random source through {@link org.dpgauss.release.ReleaseContext}.
 */
package org.dpgauss.privacy.noise;
