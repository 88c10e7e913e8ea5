package org.dpgauss.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineContractTest;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.engine.EngineParityTest;
import org.dpgauss.kernels.CudaDevice;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.Philox4x32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/** GPU vs CPU parity (see {@link EngineParityTest}); skipped, with the reason, without a usable GPU. */
@Tag("gpu")
@EnabledIf(value = "org.dpgauss.gpu.GpuTestSupport#gpuUsable",
        disabledReason = "GPU-only: no usable CUDA device and compiled kernels on this machine")
class GpuParityTest extends EngineParityTest {

    @Override
    protected ComputeEngine candidate() {
        return GpuTestSupport.engine();
    }

    @AfterEach
    void noCallFellBackToTheCpu() {
        GpuTestSupport.assertNoFallbacks(GpuTestSupport.engine());
    }

    @Test
    void deviceNormalsMatchTheJavaGenerators() {
        // same words and uniforms; normals differ only by CUDA's vs Java's log/sin/cos (a few ulps)
        int n = 100_001;
        ChaCha20 c = ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 5L);
        Philox4x32 p = Philox4x32.withKey(42L, 9L);
        double[] jc = new double[n];
        double[] jp = new double[n];
        c.fillNormals(3, jc, 0, n);
        p.fillNormals(3, jp, 0, n);
        double[] gc = CudaDevice.shared().normals(c.keyCopy(), 0, 5L, 3, n);
        double[] gp = CudaDevice.shared().normals(null, 42L, 9L, 3, n);
        for (int i = 0; i < n; i++) {
            assertEquals(jc[i], gc[i], 1e-14 * Math.max(1, Math.abs(jc[i])), "ChaCha20 normal " + i);
            assertEquals(jp[i], gp[i], 1e-14 * Math.max(1, Math.abs(jp[i])), "Philox normal " + i);
        }
    }

    @Test
    void largeFactorizationsAgreeWhicheverPathRuns() {
        // d = 150 is above the cuSOLVER threshold: dpotrf / dsyevd where JCusolver loads, EJML otherwise
        int d = 150;
        org.ejml.data.DMatrixRMaj a = ComputeEngineContractTest.spd(d, 3);
        ComputeEngine cpu = CpuEngine.instance();
        GpuEngine g = GpuTestSupport.engine();
        assertRelative(cpu.cholesky(a).lower().data, g.cholesky(a).lower().data, 1e-10, "Cholesky factor");
        org.dpgauss.linalg.SymmetricEigen ec = cpu.symmetricEigen(a);
        org.dpgauss.linalg.SymmetricEigen eg = g.symmetricEigen(a);
        assertRelative(ec.values(), eg.values(), 1e-10, "eigenvalues");
        // distinct eigenvalues (random SPD): vectors are unique up to sign, and both fix the sign the same way
        assertRelative(ec.vectors().data, eg.vectors().data, 1e-8, "eigenvectors");
        org.ejml.data.DMatrixRMaj singular = new org.ejml.data.DMatrixRMaj(d, d);
        assertEquals(cpu.cholesky(singular).verdict(), g.cholesky(singular).verdict(), "zero matrix verdict");
        System.out.println("factorizations: " + g.factorizationDetail());
    }

    @Test
    void engineReportsWhatRuns() {
        GpuEngine g = GpuTestSupport.engine();
        assertTrue(g.description().contains("d x d factorizations: " + g.factorizationPath()), g.description());
        assertTrue(g.description().contains("products: " + g.blasPath()), g.description());
        System.out.println("[dpgauss GPU] " + g.description() + "\n[dpgauss GPU] " + g.vendorDetail()
                + "\n[dpgauss GPU] paths so far: " + g.paths());
        assertTrue(g.fallbacks().isEmpty(), "no call fell back to the CPU: " + g.fallbacks());
        if (Boolean.getBoolean(GpuTestSupport.REQUIRE_VENDOR_PROPERTY)) {
            assertEquals("cublas-ffm", g.blasPath(), g.vendorDetail());
            assertEquals("cusolver-ffm", g.factorizationPath(), g.vendorDetail());
        }
    }

    @Test
    void vendorPathsRunWhereCublasLoadsAndAgreeWithTheKernels() {
        GpuEngine g = GpuTestSupport.engine();
        org.dpgauss.linalg.RowBlockMatrix x = data(20_000, 24, 3_001, 21);
        ComputeEngine cpu = CpuEngine.instance();
        org.ejml.data.DMatrixRMaj gram = cpu.weightedGram(x, null, null, x.rows());
        org.ejml.data.DMatrixRMaj l = cpu.cholesky(gram).lower();
        java.util.Map<String, Integer> before = g.paths();
        assertRelative(gram.data, g.weightedGram(x, null, null, x.rows()).data, 1e-10, "Gram");
        assertRelative(cpu.mahalanobisNorms(x, l, null), g.mahalanobisNorms(x, l, null), 1e-10, "norms");
        assertRelative(cpu.whiten(x, l).block(2), g.whiten(x, l).block(2), 1e-10, "whitened block 2");
        Philox4x32 p = Philox4x32.withKey(7L, 2L);
        assertRelative(cpu.gaussianProjection(x, 9, p, 5).data, g.gaussianProjection(x, 9, p, 5).data, 1e-12,
                "projection");
        java.util.Map<String, Integer> after = g.paths();
        String path = g.blasPath();
        System.out.println("[dpgauss GPU] products through " + path + ": " + after);
        if ("cublas-ffm".equals(path)) {
            for (String k : new String[] {"weightedGram:cublas-syrk", "mahalanobisNorms:cublas-trsm", "whiten:cublas-trsm",
                "gaussianProjection:cublas-gemm"}) {
                assertTrue(after.getOrDefault(k, 0) > before.getOrDefault(k, 0), k + " ran: " + after);
            }
        }
    }
}
