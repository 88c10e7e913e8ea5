package org.dpgauss.rows;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The row map {@code x_i -> clip_R(x_i - c)}, by the one scale-safe clipping routine {@link L2Clip#clipDifference}
 * (finite for every finite row and centre). The centre c and the radius R are public or released values, so the map
 * may travel to a cluster's executors. Shared by the releases that clip centred rows (the private covariance, PCA).
 */
public final class CentreAndClip implements BlockMap {
    private static final long serialVersionUID = 1L;
    private final double[] centre;
    private final double radius;

    /**
     * @param centre the centre c (copied)
     * @param radius the clipping radius R
     */
    public CentreAndClip(double[] centre, double radius) {
        this.centre = centre.clone();
        this.radius = radius;
    }

    @Override
    public RowBlockMatrix apply(RowBlockMatrix x, ComputeEngine engine) {
        int n = x.rows();
        int d = x.cols();
        RowBlockMatrix out = RowBlockMatrix.zeros(n, d, Math.max(1, n));
        double[] row = new double[d];
        double[] clipped = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            L2Clip.clipDifference(row, 0, centre, clipped, radius);
            out.setRow(i, clipped);
        }
        return out;
    }
}
