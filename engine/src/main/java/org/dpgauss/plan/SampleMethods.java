package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.release.Statement;
import org.dpgauss.sampling.InsufficientSampleSizeException;
import org.dpgauss.sampling.KnownCovarianceSampler;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.sampling.SamplerParameters;
import org.dpgauss.sampling.UnboundedGaussianSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * The sample family's methods for the planner: the unbounded Gaussian sampler (certified recipe sizes) and the
 * known-covariance sketch. Both state a Mahalanobis accuracy (the sample's distance to the true mean, which for a
 * faithful draw from {@code N(mu, Sigma)} is chi with d degrees of freedom); the command line's defaults are used
 * (alpha = 0.05, the sound PTR).
 */
final class SampleMethods implements MethodProvider {

    /** The command line's default total-variation target. */
    static final double ALPHA = 0.05;

    @Override
    public Family family() {
        return Family.SAMPLE;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        out.add(unbounded(q));
        out.add(knownCovariance(q));
        return out;
    }

    private static String range(ApproxDp t) {
        if (!(t.epsilon() <= 1) || !(t.delta() <= t.epsilon() / 10)) {
            return "needs epsilon <= 1 and delta <= epsilon/10 (the samplers' analysis covers only that range)";
        }
        return null;
    }

    private static PlannedMethod unbounded(PlanQuery q) {
        String method = "sample";
        String when = "when no bound on the mean or covariance is public: one sample within total variation alpha of"
                + " the data's Gaussian, certified; it needs millions of rows (about 1.3e7 at d=10, eps=1)";
        List<String> needs = List.of("nothing public beyond n and d; epsilon <= 1 and delta <= epsilon/10");
        ApproxDp t = q.budget();
        String bad = range(t);
        if (bad != null) {
            return PlannedMethod.notApplicable(method, UnboundedGaussianSampler.ID, bad, -1, needs, when);
        }
        SamplerParameters p;
        try {
            p = SamplerParameters.certified(q.rows(), q.dimension(), t, ALPHA, PtrMechanism.SOUND);
        } catch (InsufficientSampleSizeException e) {
            return PlannedMethod.notApplicable(method, UnboundedGaussianSampler.ID, String.format(Locale.ROOT,
                    "n >= %d rows are needed for the certified sizes (n=%d)", e.requiredRows(), q.rows()),
                    e.requiredRows(), needs, when);
        }
        long need = SamplerParameters.requiredRows(q.dimension(), t.epsilon(), t.delta(), ALPHA, PtrMechanism.SOUND);
        Statement s = Planner.state(UnboundedGaussianSampler.of(p), q.rows(), q.dimension(), t.delta());
        String cmd = String.format(Locale.ROOT, "dpgauss sample --epsilon %s --delta %s --alpha %s",
                MeanMethods.num(t.epsilon()), MeanMethods.num(t.delta()), MeanMethods.num(ALPHA));
        return PlannedMethod.applicable(method, UnboundedGaussianSampler.ID, s.accuracy().orElse(null), need, needs,
                cmd, when);
    }

    private static PlannedMethod knownCovariance(PlanQuery q) {
        String method = "known-covariance";
        String when = "when the covariance is known exactly and far fewer rows are available: an UNCERTIFIED sketch"
                + " (no proof), whose sample is exactly N(mu, Sigma) when the data are";
        List<String> needs = List.of("the exact public covariance (--known-covariance FILE)");
        ApproxDp t = q.budget();
        String bad = range(t);
        if (bad != null) {
            return PlannedMethod.notApplicable(method, KnownCovarianceSampler.ID, bad, -1, needs, when);
        }
        DMatrixRMaj sigma;
        if (q.covariance().isPresent()) {
            sigma = new DMatrixRMaj(q.covariance().get());
        } else if (q.variances().isPresent()) {
            double[] v = q.variances().get();
            sigma = new DMatrixRMaj(v.length, v.length);
            for (int i = 0; i < v.length; i++) {
                sigma.set(i, i, v[i]);
            }
        } else {
            return PlannedMethod.notApplicable(method, KnownCovarianceSampler.ID, "needs the exact covariance"
                    + " (--known-covariance FILE)", -1, needs, when);
        }
        KnownCovarianceSampler m;
        try {
            m = KnownCovarianceSampler.of(q.rows(), q.dimension(), t, ALPHA, PtrMechanism.SOUND, sigma);
        } catch (InsufficientSampleSizeException e) {
            return PlannedMethod.notApplicable(method, KnownCovarianceSampler.ID, String.format(Locale.ROOT,
                    "n >= %d rows are needed (n=%d)", e.requiredRows(), q.rows()), e.requiredRows(), needs, when);
        } catch (IllegalArgumentException e) {
            return PlannedMethod.notApplicable(method, KnownCovarianceSampler.ID, "the covariance is not usable: "
                    + e.getMessage(), -1, needs, when);
        }
        long need = KnownCovarianceSampler.requiredRows(q.dimension(), t.epsilon(), t.delta(), ALPHA,
                PtrMechanism.SOUND);
        Statement s = Planner.state(m, q.rows(), q.dimension(), t.delta());
        String cmd = String.format(Locale.ROOT, "dpgauss sample --known-covariance COVARIANCE_FILE --epsilon %s"
                + " --delta %s --alpha %s", MeanMethods.num(t.epsilon()), MeanMethods.num(t.delta()),
                MeanMethods.num(ALPHA));
        return PlannedMethod.applicable(method, KnownCovarianceSampler.ID, s.accuracy().orElse(null), need,
                List.of("the exact public covariance (given)"), cmd, when);
    }
}
