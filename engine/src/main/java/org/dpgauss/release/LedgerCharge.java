package org.dpgauss.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.dpgauss.ledger.Charge;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.ledger.LedgerEntry;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;

/**
 * A release charged to a {@link Ledger} (docs/ledger.md): made after a release is stated and before anything reads
 * the data, by {@link PrivacySession}, the command line and the Spark session alike. Either the query repeats a
 * stored release on the same dataset (same mechanism, same public parameters, same noise security) and
 * {@link #replay()} returns it at no cost, marked {@code ledgerReplayOf} in its public parameters, or the release
 * was charged and its outcome is recorded with {@link #record} once computed (public once released). A release
 * that fails after its charge stays charged.
 */
public final class LedgerCharge {

    private final Ledger ledger;
    private final Charge charge;
    private final PrivateRelease replay;
    /** The cost charged (or, for a replay, the stored one), for {@link #release}'s check. */
    private final Release cost;

    private LedgerCharge(Ledger ledger, Charge charge, PrivateRelease replay) {
        this(ledger, charge, replay, null);
    }

    private LedgerCharge(Ledger ledger, Charge charge, PrivateRelease replay, Release cost) {
        this.ledger = ledger;
        this.charge = charge;
        this.replay = replay;
        this.cost = cost;
    }

    /**
     * Charges a query stated from public facts only, before any data are read (the command line,
     * docs/ledger.md "Order of events"): {@code query} is the canonical text of everything the release depends on
     * apart from the data (the replay key), {@code cost} what the release will cost, known from its public
     * parameters alone. Either a completed release of the same query is found (a replay, nothing charged) or
     * the cost is charged in one transaction. Then read the data, state the release on them and call
     * {@link #release}, which checks that the statement costs what was charged.
     *
     * @param ledger the ledger
     * @param dataset the dataset's name in the ledger
     * @param mechanism the mechanism's name (public)
     * @param query the replay key: the query's public parameters in a canonical text form
     * @param cost what the release costs
     * @param random the noise source the release will draw from (its security is part of the query)
     * @param fresh charge again even when a stored release repeats the query
     * @return the charge, or the replay found
     * @throws org.dpgauss.privacy.accounting.BudgetExceededException if it does not fit (nothing is charged)
     * @throws org.dpgauss.ledger.LedgerException if the ledger cannot be used or the relation differs
     */
    public static LedgerCharge chargeQuery(Ledger ledger, String dataset, String mechanism, String query,
            Release cost, RandomSource random, boolean fresh) {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(random, "random");
        Charge c = ledger.charge(dataset, mechanism, query, random.isInsecure(), cost, fresh);
        return new LedgerCharge(ledger, c, null, c.replayOf().map(LedgerEntry::cost).orElse(cost));
    }

    /** @return whether the query repeats a stored release (nothing was charged) */
    public boolean isReplay() {
        return charge.replayOf().isPresent();
    }

    /**
     * Completes a {@link #chargeQuery}: the statement made on the data (after the charge) must cost what was
     * charged, else an {@link IllegalStateException} (a programming error: a mechanism whose cost depends on more
     * than its public parameters; the charge stays). A replay returns the stored release under {@code stated},
     * marked {@code ledgerReplayOf}; otherwise {@code compute} computes the release, which is recorded.
     *
     * @param stated the statement made on the data
     * @param random the noise source (for a replay's assembly)
     * @param compute computes the release under {@code stated}
     * @return the release, or the stored one the query repeats
     */
    public PrivateRelease release(Statement stated, RandomSource random,
            java.util.function.Function<Statement, PrivateRelease> compute) {
        Objects.requireNonNull(stated, "statement");
        if (cost == null) {
            throw new IllegalStateException("release(..) completes a chargeQuery(..)");
        }
        if (!covers(cost, stated)) {
            throw new IllegalStateException("the release stated on the data costs " + costText(stated.accounting())
                    + " but " + costText(cost) + " was charged before the data were read: its cost must follow from"
                    + " its public parameters alone (a bug; the charge stays)");
        }
        if (isReplay()) {
            LedgerEntry e = charge.replayOf().get();
            Statement marked = stated.withParameters(PublicParameters.builder()
                    .put("ledgerReplayOf", e.sequence())
                    .put("ledgerReplayChargedAt", e.chargedAt()).build());
            return Releases.assemble(marked, decode(e.outcome()), random);
        }
        PrivateRelease r = compute.apply(stated);
        record(r);
        return r;
    }

    /**
     * Whether a charged cost pays for a statement: the same cost in the same form, or an {@code (epsilon, delta)}
     * cost that the statement's guarantee is within (a charge made for a choice not yet made, e.g. a method picked
     * from n, covers every choice whose guarantee fits it).
     *
     * @param charged the cost charged
     * @param stated the statement
     * @return whether it covers it
     */
    static boolean covers(Release charged, Statement stated) {
        if (costText(charged).equals(costText(stated.accounting()))) {
            return true;
        }
        if (charged.kind() != Release.Kind.APPROX_DP) {
            return false;
        }
        Optional<org.dpgauss.privacy.ApproxDp> g = stated.guarantee().approxDp();
        return g.isPresent() && g.get().epsilon() <= charged.approxDp().epsilon()
                && g.get().delta() <= charged.approxDp().delta();
    }

    /**
     * A cost's form and numbers in round-trip text (the name aside): equal texts are equal costs.
     *
     * @param r the cost
     * @return its text
     */
    static String costText(Release r) {
        switch (r.kind()) {
            case APPROX_DP:
                return "(epsilon=" + r.approxDp().epsilon() + ", delta=" + r.approxDp().delta() + ")";
            case ZCDP:
                return "rho=" + r.zcdp().rho() + " (zCDP)";
            case GAUSSIAN:
                return "tau=" + r.tau() + " (Gaussian)";
            default:
                return "Gaussian pair " + java.util.Arrays.toString(r.onDataset().mean())
                        + java.util.Arrays.deepToString(r.onDataset().covarianceArray())
                        + java.util.Arrays.toString(r.onNeighbour().mean())
                        + java.util.Arrays.deepToString(r.onNeighbour().covarianceArray());
        }
    }

    /**
     * Charges a stated release, or finds the stored release it repeats.
     *
     * @param ledger the ledger
     * @param dataset the dataset's name in the ledger
     * @param stated the statement (public)
     * @param random the noise source the release will draw from (its security is part of the query)
     * @param fresh charge again even when a stored release repeats the query
     * @return the charge
     * @throws org.dpgauss.privacy.accounting.BudgetExceededException if it does not fit (nothing is charged)
     * @throws org.dpgauss.ledger.LedgerException if the ledger cannot be used or the relation differs
     */
    public static LedgerCharge charge(Ledger ledger, String dataset, Statement stated, RandomSource random,
            boolean fresh) {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(stated, "statement");
        Objects.requireNonNull(random, "random");
        Charge c = ledger.charge(dataset, stated.mechanism(), stated.parameters().toString(), random.isInsecure(),
                stated.accounting(), fresh);
        if (c.replayOf().isEmpty()) {
            return new LedgerCharge(ledger, c, null);
        }
        LedgerEntry e = c.replayOf().get();
        Statement marked = stated.withParameters(PublicParameters.builder()
                .put("ledgerReplayOf", e.sequence())
                .put("ledgerReplayChargedAt", e.chargedAt()).build());
        return new LedgerCharge(ledger, c, Releases.assemble(marked, decode(e.outcome()), random));
    }

    /**
     * {@link Releases#run} with a ledger: state (public), charge or replay (one transaction), then validate and
     * compute; the outcome is recorded. Nothing reads the data before the charge.
     *
     * @param ledger the ledger
     * @param dataset the dataset's name in the ledger
     * @param fresh charge again even when a stored release repeats the query
     * @param mechanism the mechanism
     * @param data the dataset
     * @param delta the delta of stated conversions
     * @param context backend and noise
     * @return the release, or the stored one it repeats
     */
    public static PrivateRelease run(Ledger ledger, String dataset, boolean fresh, PrivateMechanism mechanism,
            Dataset data, double delta, ReleaseContext context) {
        return run(ledger, dataset, fresh, mechanism, data, delta, context, () -> { });
    }

    /**
     * As {@link #run(Ledger, String, boolean, PrivateMechanism, Dataset, double, ReleaseContext)}, calling
     * {@code afterCharge} between the committed charge and the computation (crash tests kill a process there).
     *
     * @param ledger the ledger
     * @param dataset the dataset's name in the ledger
     * @param fresh charge again even when a stored release repeats the query
     * @param mechanism the mechanism
     * @param data the dataset
     * @param delta the delta of stated conversions
     * @param context backend and noise
     * @param afterCharge run once the charge is committed, before the data are read
     * @return the release, or the stored one it repeats
     */
    public static PrivateRelease run(Ledger ledger, String dataset, boolean fresh, PrivateMechanism mechanism,
            Dataset data, double delta, ReleaseContext context, Runnable afterCharge) {
        Statement stated = Releases.state(mechanism, data, delta);
        LedgerCharge c = charge(ledger, dataset, stated, context.random(), fresh);
        if (c.replay != null) {
            return c.replay;
        }
        afterCharge.run();
        PrivateRelease r = Releases.compute(mechanism, data, stated, context);
        c.record(r);
        return r;
    }

    /** @return the stored release this query repeats (nothing was charged), if it does */
    public Optional<PrivateRelease> replay() {
        return Optional.ofNullable(replay);
    }

    /**
     * Records the outcome of the charged release.
     *
     * @param r the release computed under the charged statement
     */
    public void record(PrivateRelease r) {
        if (replay != null) {
            throw new IllegalStateException("a replay is not recorded: nothing was charged");
        }
        ledger.complete(charge, r.isPass() ? "PASS" : "FAIL", encode(r));
    }

    /** Text form of the released values: {@code FAIL}, or {@code PASS} then one line per value. */
    static String encode(PrivateRelease r) {
        if (!r.isPass()) {
            return "FAIL";
        }
        StringBuilder sb = new StringBuilder("PASS");
        for (Map.Entry<String, ReleasedValue> e : r.values().entrySet()) {
            ReleasedValue v = e.getValue();
            sb.append('\n').append(e.getKey()).append('\t').append(v.kind().name()).append('\t');
            switch (v.kind()) {
                case SCALAR:
                    sb.append(v.asScalar());
                    break;
                case VECTOR:
                    join(sb, v.asVector());
                    break;
                default:
                    double[][] m = v.asMatrix();
                    for (int i = 0; i < m.length; i++) {
                        if (i > 0) {
                            sb.append(';');
                        }
                        join(sb, m[i]);
                    }
                    break;
            }
        }
        return sb.toString();
    }

    private static void join(StringBuilder sb, double[] v) {
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ",").append(v[i]); // Double.toString: read back exactly
        }
    }

    static Outcome decode(String text) {
        if (text == null) {
            throw new IllegalStateException("a stored release has no outcome");
        }
        String[] lines = text.split("\n", -1);
        if (lines[0].equals("FAIL")) {
            return Outcome.fail();
        }
        Outcome.Builder b = Outcome.pass();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t", -1);
            switch (ReleasedValue.Kind.valueOf(f[1])) {
                case SCALAR:
                    b.scalar(f[0], Double.parseDouble(f[2]));
                    break;
                case VECTOR:
                    b.vector(f[0], doubles(f[2]));
                    break;
                default:
                    List<double[]> rows = new ArrayList<>();
                    for (String row : f[2].split(";", -1)) {
                        rows.add(doubles(row));
                    }
                    b.matrix(f[0], rows.toArray(new double[0][]));
                    break;
            }
        }
        return b.build();
    }

    private static double[] doubles(String csv) {
        if (csv.isEmpty()) {
            return new double[0];
        }
        String[] p = csv.split(",", -1);
        double[] v = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            v[i] = Double.parseDouble(p[i]);
        }
        return v;
    }
}
