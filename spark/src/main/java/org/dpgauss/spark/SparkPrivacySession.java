package org.dpgauss.spark;

import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.accounting.AccountingReport;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.ClusterBackend;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;

/**
 * A Spark table opened with a total privacy budget and a neighbouring relation: the release contract of
 * {@link org.dpgauss.release.PrivacySession} on a {@code Dataset<Row>}. Opening the session orders the rows by the
 * id column, checks every value and caches the rows as dense blocks ({@link SparkRows}). Each release is then, on
 * the driver: stated from public facts; refused if it would exceed the budget, before any Spark job runs; charged
 * (before anything reads a row: a failure afterwards stays charged); computed, with the
 * executors running the row passes and the driver doing the d x d work and drawing every noise value from the
 * context's random source; and assembled into an immutable {@link PrivateRelease}, so nothing is ever
 * re-evaluated with fresh noise. Mechanisms that run here implement {@link RowSourceMechanism}: every mean, sampler,
 * second-moment method and random projection, and the learners built on them, private PCA
 * ({@link org.dpgauss.learn.PrivatePca}), private regression ({@link org.dpgauss.learn.PrivateLinearRegression}) and
 * the private covariance ({@link org.dpgauss.covariance.PrivateCovariance}), each charged once for its composed
 * guarantee. Thread-safe.
 *
 * <pre>{@code
 * try (SparkPrivacySession s = SparkPrivacySession.builder(table)
 *         .valueColumns(List.of("x1", "x2", "x3")).idColumn("id")
 *         .relation(NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(1.0, 1e-6)).open()) {
 *     PrivateRelease mean = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.1).build(3));
 * }
 * }</pre>
 */
public final class SparkPrivacySession implements AutoCloseable {

    private final SparkRows rows;
    private final PrivacyAccountant accountant;
    private final ReleaseContext context;
    private final org.dpgauss.ledger.Ledger ledger; // null: the budget lives in this session only
    private final String ledgerDataset;
    private final List<String> valueColumns;

    private SparkPrivacySession(SparkRows rows, List<String> valueColumns, PrivacyAccountant accountant,
            ReleaseContext context, org.dpgauss.ledger.Ledger ledger, String ledgerDataset) {
        this.rows = rows;
        this.valueColumns = valueColumns;
        this.accountant = accountant;
        this.context = context;
        this.ledger = ledger;
        this.ledgerDataset = ledgerDataset;
    }

    /**
     * @param data the table
     * @return a builder; value columns, id column, relation and budget are required
     */
    public static Builder builder(Dataset<Row> data) {
        return new Builder(data);
    }

    /**
     * States, charges (refused over budget, before any Spark job), computes and assembles one release.
     *
     * @param mechanism a {@link RowSourceMechanism} under the session's relation
     * @return the release (PASS with its values, or FAIL with none)
     * @throws BudgetExceededException if it would exceed the budget (no Spark job has run, nothing is charged)
     * @throws IllegalArgumentException if the mechanism does not run on Spark, its relation or public parameters
     *         do not suit the session (raised while stating, before the charge)
     */
    public synchronized PrivateRelease release(PrivateMechanism mechanism) {
        Objects.requireNonNull(mechanism, "mechanism");
        if (!(mechanism instanceof RowSourceMechanism)) {
            throw new IllegalArgumentException(mechanism.getClass().getSimpleName() + " does not run on Spark:"
                    + " its data passes are not written as row passes (see docs/spark.md for the mechanisms that are)");
        }
        if (mechanism.relation() != accountant.relation()) {
            throw new IllegalArgumentException("the mechanism is stated under " + mechanism.relation().description()
                    + " but this session under " + accountant.relation().description()
                    + ": open a session with the mechanism's relation");
        }
        RowSourceMechanism m = (RowSourceMechanism) mechanism;
        // state (public facts) -> charge (refused over budget before any Spark job) -> compute; a failure after the
        // charge stays charged, and no data-dependent check runs before it (issue 24, item 6)
        Statement stated = state(m);
        // the durable charge (docs/ledger.md), one transaction before any Spark job: or the stored release, free
        org.dpgauss.release.LedgerCharge charged = ledger == null ? null
                : org.dpgauss.release.LedgerCharge.charge(ledger, ledgerDataset, stated, context.random(), false);
        if (charged != null && charged.replay().isPresent()) {
            return charged.replay().get();
        }
        accountant.requireFits(stated.accounting()); // before any Spark job runs
        accountant.spend(stated.accounting());
        Outcome outcome = Objects.requireNonNull(m.compute(rows, stated, context), "outcome");
        // the executors' engine is a public choice: the release says where it was computed
        PrivateRelease released = Releases.assemble(stated.withParameters(ClusterBackend.where(rows.engine())),
                outcome, context.random());
        if (charged != null) {
            charged.record(released);
        }
        return released;
    }

    private Statement state(PrivateMechanism mechanism) {
        if (rows.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the mechanisms state their parameters for at most 2^31-1 rows");
        }
        PublicContext pc = PublicContext.forPlanning((int) rows.rows(), rows.cols(), accountant.relation(),
                accountant.budget().delta());
        return Releases.state(mechanism, pc);
    }

    /**
     * What a release would cost, without charging or running it (no Spark job).
     *
     * @param mechanism the mechanism
     * @return the report as if it were released
     */
    public synchronized AccountingReport preview(PrivateMechanism mechanism) {
        return accountant.preview(state(mechanism).accounting());
    }

    /** @return the total spent so far */
    public ApproxDp spent() {
        return accountant.report().spent();
    }

    /** @return the total budget */
    public ApproxDp budget() {
        return accountant.budget();
    }

    /** @return the releases recorded and how they compose */
    public AccountingReport report() {
        return accountant.report();
    }

    /** @return the neighbouring relation */
    public NeighbouringRelation relation() {
        return accountant.relation();
    }

    /** @return d, the number of value columns (public: the schema) */
    public int dimension() {
        return rows.cols();
    }

    /**
     * The 0-based index of a value column among the rows' columns (the public schema), e.g. a regression's target:
     * {@code PrivateLinearRegression.builder().target(s.column("y"))}.
     *
     * @param name a value column
     * @return its index in {@link Builder#valueColumns} order
     * @throws IllegalArgumentException if it is not a value column of this session
     */
    public int column(String name) {
        int i = valueColumns.indexOf(Objects.requireNonNull(name, "column"));
        if (i < 0) {
            throw new IllegalArgumentException("'" + name + "' is not one of the session's value columns "
                    + valueColumns);
        }
        return i;
    }

    /** @return the row layout every pass follows (public) */
    public RowLayout layout() {
        return rows.layout();
    }

    /** Frees the cached rows; the session cannot release afterwards. */
    @Override
    public void close() {
        rows.unpersist();
    }

    /** Opens a session. */
    public static final class Builder {
        private final Dataset<Row> data;
        private List<String> valueColumns;
        private String idColumn;
        private NeighbouringRelation relation;
        private ApproxDp budget;
        private ReleaseContext context;
        private RowLayout layout;
        private String executorEngine;
        private int partitions;
        private org.dpgauss.ledger.Ledger ledger;
        private String ledgerDataset;

        private Builder(Dataset<Row> data) {
            this.data = Objects.requireNonNull(data, "data");
        }

        /**
         * @param names the numeric columns that form the rows, in order
         * @return this builder
         */
        public Builder valueColumns(List<String> names) {
            this.valueColumns = List.copyOf(names);
            return this;
        }

        /**
         * @param name a column of non-null ids that defines the row order (any orderable type; rows that share an id
         *        are ordered by their values, no error)
         * @return this builder
         */
        public Builder idColumn(String name) {
            this.idColumn = Objects.requireNonNull(name, "id column");
            return this;
        }

        /**
         * @param r the neighbouring relation of every release
         * @return this builder
         */
        public Builder relation(NeighbouringRelation r) {
            this.relation = Objects.requireNonNull(r, "relation");
            return this;
        }

        /**
         * @param total the total budget; its delta is the delta every zCDP release is stated at
         * @return this builder
         */
        public Builder budget(ApproxDp total) {
            this.budget = Objects.requireNonNull(total, "budget");
            return this;
        }

        /**
         * @param c the driver's engine (executors run the engine of the same name) and the noise source (default:
         *        {@link ReleaseContext#secure()})
         * @return this builder
         */
        public Builder context(ReleaseContext c) {
            this.context = Objects.requireNonNull(c, "context");
            return this;
        }

        /**
         * @param name the engine executors run: {@code auto} (each task on the GPU Spark assigned it where it can
         *        run, else the CPU engine), {@code gpu}, {@code cpu-openblas} or {@code cpu-ejml} (default: the name
         *        of the context's engine, which gives the single-machine release bit for bit; on GPU executors
         *        {@code auto} agrees with it to rounding)
         * @return this builder
         * @throws IllegalArgumentException for any other name
         */
        public Builder executorEngine(String name) {
            String n = Objects.requireNonNull(name, "executor engine");
            if (!List.of("auto", "gpu", "cpu-openblas", "cpu-ejml").contains(n)) {
                throw new IllegalArgumentException("executor engine '" + n + "' is not one of auto, gpu,"
                        + " cpu-openblas, cpu-ejml");
            }
            this.executorEngine = n;
            return this;
        }

        /**
         * @param l the row layout (default: {@link RowLayout#forDimension}, the layout of the single-machine
         *        library, whose releases this session then reproduces bit for bit)
         * @return this builder
         */
        public Builder layout(RowLayout l) {
            this.layout = Objects.requireNonNull(l, "layout");
            return this;
        }

        /**
         * @param p Spark partitions of the cached blocks (default: the context's default parallelism, at most one
         *        per group)
         * @return this builder
         */
        public Builder partitions(int p) {
            if (p < 1) {
                throw new IllegalArgumentException("partitions=" + p + " is outside [1, 2^31)");
            }
            this.partitions = p;
            return this;
        }

        /**
         * Charges every release also to a dataset of a durable ledger (docs/ledger.md), before any Spark job of
         * the release runs: the relation and budget default to the dataset's (a relation given must match it), a
         * repeated query returns the stored release at no cost, and over the dataset's budget a release is refused.
         *
         * @param l the ledger (the caller closes it)
         * @param dataset the dataset's name in the ledger
         * @return this builder
         * @throws org.dpgauss.ledger.LedgerException if the ledger has no such dataset
         */
        public Builder ledger(org.dpgauss.ledger.Ledger l, String dataset) {
            org.dpgauss.ledger.DatasetBudget b = Objects.requireNonNull(l, "ledger").dataset(dataset);
            this.ledger = l;
            this.ledgerDataset = dataset;
            if (relation == null) {
                relation = b.relation();
            }
            if (budget == null) {
                budget = b.budget();
            }
            return this;
        }

        /**
         * Orders, checks and caches the rows (runs Spark jobs; no release yet).
         *
         * @return the session
         * @throws IllegalArgumentException on a missing setting, column, value or id
         */
        public SparkPrivacySession open() {
            if (valueColumns == null) {
                throw new IllegalStateException("a session needs value columns: call valueColumns(..)");
            }
            if (idColumn == null) {
                throw new IllegalStateException("a session needs an id column that orders the rows: call"
                        + " idColumn(..)");
            }
            if (relation == null) {
                throw new IllegalStateException("a session needs a neighbouring relation: call relation(..)");
            }
            if (budget == null) {
                throw new IllegalStateException("a session needs a total budget: call budget(ApproxDp.of(eps, delta))");
            }
            if (!(budget.delta() > 0)) {
                throw new IllegalArgumentException("the budget's delta must be > 0: zCDP and Gaussian releases are"
                        + " stated in (epsilon, delta) at that delta");
            }
            if (ledger != null && ledger.dataset(ledgerDataset).relation() != relation) {
                throw new IllegalArgumentException("the session is opened under " + relation.description()
                        + " but dataset '" + ledgerDataset + "' of the ledger under "
                        + ledger.dataset(ledgerDataset).relation().description());
            }
            ReleaseContext c = context != null ? context : ReleaseContext.secure();
            PrivacyAccountant accountant = PrivacyAccountant.create(relation, budget);
            SparkRows rows = SparkRows.load(data, valueColumns, idColumn, layout, partitions,
                    executorEngine != null ? executorEngine : c.engine().name());
            return new SparkPrivacySession(rows, valueColumns, accountant, c, ledger, ledgerDataset);
        }
    }
}
