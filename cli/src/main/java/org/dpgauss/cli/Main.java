package org.dpgauss.cli;

import java.io.PrintWriter;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.engine.EngineUnavailableException;
import org.dpgauss.io.DataFormatException;
import org.dpgauss.privacy.RandomSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code dpgauss} command line (contract in design.md "Command line"). */
@Command(name = "dpgauss", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Differentially private statistics on Gaussian data, with exact privacy accounting.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success (a private release PASSed, or a command that releases nothing private ran)",
            "1:bad input, invalid parameter or unavailable engine (message on stderr)",
            "2:bad command-line usage",
            "3:FAIL: a private test inside the mechanism failed and nothing was released (see docs/cli.md)",
            "4:budget exceeded: the release would exceed the privacy budget; nothing was read or released"})
public final class Main implements Runnable {

    /** Exit code for bad input files, invalid parameters and unavailable engines. */
    static final int EXIT_ERROR = 1;
    /** Exit code for command-line usage errors (picocli's convention). */
    static final int EXIT_USAGE = 2;
    /** Exit code of a release that returned FAIL (nothing was released). */
    static final int EXIT_FAIL = 3;
    /** Exit code of a release refused because it would exceed the budget. */
    static final int EXIT_BUDGET = 4;

    @Option(names = "--engine", scope = ScopeType.INHERIT, paramLabel = "auto|cpu|ejml|gpu", defaultValue = "auto",
            converter = EngineChoiceConverter.class,
            description = "Compute backend (default: ${DEFAULT-VALUE}); auto picks the GPU when usable, else the CPU, and says which. "
                    + "cpu is native OpenBLAS where its natives load (else EJML, with the reason); ejml is the pure-Java engine.")
    EngineChoice engine;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print the result as JSON on stdout.")
    boolean json;

    @Option(names = "--insecure-seed", scope = ScopeType.INHERIT, paramLabel = "N",
            description = "INSECURE: seed every random draw, privacy noise included, for reproducible tests. "
                    + "Outputs made with it are not private and say so.")
    Long insecureSeed;

    @Option(names = "--progress", scope = ScopeType.INHERIT, paramLabel = "auto|always|never", defaultValue = "auto",
            description = "Progress of long work on stderr (default: ${DEFAULT-VALUE}: only when the terminal is "
                    + "interactive). It says how much work is done and the time left, nothing about the data.")
    String progress;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The --ledger options of the running command (set before it runs), null for a command without them. */
    LedgerOptions ledger;

    /**
     * The subcommands in the order {@code --help} lists them, each under its {@code @Command} name (a test checks
     * the names). They are registered by {@link #commandLine}, not by {@code @Command(subcommands = ...)}, so that a
     * call builds picocli's reflective model of the one command it runs only (issue 27: building all of them was
     * the larger part of a small {@code mean}'s start).
     */
    static final Object[][] SUBCOMMANDS = {
        {"demo", DemoCommand.class}, {"plan", PlanCommand.class}, {"sample", SampleCommand.class},
        {"mean", MeanCommand.class}, {"project", ProjectCommand.class}, {"mechanism", MechanismCommand.class},
        {"ndis", NdisCommand.class}, {"second-moment", SecondMomentCommand.class},
        {"covariance", CovarianceCommand.class}, {"pca", PcaCommand.class}, {"regress", RegressCommand.class},
        {"inspect", InspectCommand.class}, {"gx2", Gx2Command.class}, {"calibrate", CalibrateCommand.class},
        {"validate", ValidateCommand.class}, {"bench", BenchCommand.class}, {"ledger", LedgerCommand.class},
        {"help", CommandLine.HelpCommand.class}};

    /** picocli's system property: the types (regular expressions) whose built-in converters are not registered. */
    static final String CONVERTER_EXCLUDES = "picocli.converters.excludes";

    /** The global options that take a value (the next argument, or after {@code =}). */
    private static final java.util.Set<String> GLOBAL_WITH_VALUE = java.util.Set.of("--engine", "--insecure-seed",
            "--progress");
    /** The global options without a value. */
    private static final java.util.Set<String> GLOBAL_FLAGS = java.util.Set.of("--json", "-h", "--help", "-V",
            "--version");

    /**
     * The command line for {@code args}: the root command with the one subcommand the arguments name, or with every
     * subcommand when they name none, name {@code help}, or hold anything before the subcommand's name that is not
     * a global option ({@code @file}, an unknown or abbreviated option, ...), so that usage, help and error
     * messages are those of the full command line. Parsing is then picocli's own, on either.
     */
    static CommandLine commandLine(Main main, String[] args) {
        // no option of this command line has a java.time or java.sql type: picocli's documented switch keeps it from
        // loading and initialising those classes for its built-in converters (issue 27: about a fifth of the model)
        if (System.getProperty(CONVERTER_EXCLUDES) == null) {
            System.setProperty(CONVERTER_EXCLUDES, "java\\.time\\..*,java\\.sql\\..*");
        }
        CommandLine cl = new CommandLine(main);
        String invoked = invokedSubcommand(args);
        for (Object[] sub : SUBCOMMANDS) {
            if (invoked == null || invoked.equals(sub[0])) {
                cl.addSubcommand((String) sub[0], sub[1]);
            }
        }
        return cl;
    }

    /** The subcommand the arguments name (see {@link #commandLine}), or null for "all of them". */
    static String invokedSubcommand(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (GLOBAL_WITH_VALUE.contains(a)) {
                i++;
            } else if (GLOBAL_FLAGS.contains(a) || (a.indexOf('=') > 0 && GLOBAL_WITH_VALUE.contains(
                    a.substring(0, a.indexOf('='))))) {
                continue;
            } else {
                for (Object[] sub : SUBCOMMANDS) {
                    if (sub[0].equals(a)) {
                        return a.equals("help") ? null : a;
                    }
                }
                return null;
            }
        }
        return null;
    }

    public static void main(String[] args) {
        StartupTrace.mark("main");
        int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        StartupTrace.end();
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(new Main(), args);
        StartupTrace.mark("command model");
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(UsageErrors::handle); // a short usage error, not the full option list
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof org.dpgauss.privacy.accounting.BudgetExceededException) {
                commandLine.getErr().println("dpgauss: budget exceeded: " + ex.getMessage());
                return EXIT_BUDGET;
            }
            if (ex instanceof org.dpgauss.ledger.LedgerException) {
                commandLine.getErr().println("dpgauss: ledger error: " + ex.getMessage());
                return EXIT_ERROR;
            }
            if (ex instanceof IllegalArgumentException || ex instanceof DataFormatException
                    || ex instanceof EngineUnavailableException || ex instanceof java.io.IOException
                    || ex instanceof java.io.UncheckedIOException || ex instanceof ArithmeticException) {
                commandLine.getErr().println("dpgauss: error: " + ex.getMessage());
                return EXIT_ERROR;
            }
            throw ex;
        });
        Main main = cl.getCommand();
        cl.setExecutionStrategy(parseResult -> {
            StartupTrace.mark("parsed");
            org.dpgauss.progress.ProgressListener listener = main.progressListener(err);
            LedgerOptions ledger = ledgerOptions(parseResult);
            main.ledger = ledger;
            java.util.List<CommandLine> chain = parseResult.asCommandLineList();
            main.command = chain.get(chain.size() - 1).getCommandSpec();
            try {
                if (ledger != null) {
                    try {
                        ledger.open(); // before the command reads anything: a bad ledger is exit 1, nothing read
                    } catch (IllegalArgumentException e) {
                        err.println("dpgauss: " + (e instanceof org.dpgauss.ledger.LedgerException ? "ledger " : "")
                                + "error: " + e.getMessage());
                        return EXIT_ERROR;
                    }
                }
                return org.dpgauss.progress.Progress.with(listener,
                        () -> new CommandLine.RunLast().execute(parseResult));
            } finally {
                if (ledger != null) {
                    ledger.close();
                }
            }
        });
        int code = cl.execute(args);
        StartupTrace.mark("command run");
        return code;
    }

    /**
     * The public shape a command builds its mechanism from: d, and n, which a mechanism may use only where its
     * relation makes it public (replace-one). With {@code --ledger} the mechanism is first built and stated for a
     * shape whose n is a fixed stand-in (the charge is made before the data are read), then for the data's.
     *
     * @param n the number of rows
     * @param d the number of columns
     */
    record Shape(int n, int d) {
    }

    /**
     * Reads {@code input} and releases the mechanism {@code mechanism} builds for its shape; with {@code --ledger}
     * the release is charged (or its stored release found) before the data are read (docs/ledger.md "Order of
     * events").
     *
     * @param input the data file
     * @param mechanism the mechanism for a shape (a function of public facts only: it is called twice)
     * @param delta the delta of stated conversions
     * @return the release
     * @throws java.io.IOException if the file cannot be read
     */
    org.dpgauss.release.PrivateRelease release(java.nio.file.Path input,
            java.util.function.Function<Shape, ? extends org.dpgauss.release.PrivateMechanism> mechanism,
            double delta) throws java.io.IOException {
        return release(input, mechanism, delta, null);
    }

    /**
     * As {@link #release(java.nio.file.Path, java.util.function.Function, double)}, charging {@code declared}
     * rather than the statement's own cost: for a command whose mechanism is chosen from n (public under
     * replace-one, unknown before the data are read), an {@code (epsilon, delta)} cost that every choice's
     * guarantee fits.
     *
     * @param input the data file
     * @param mechanism the mechanism for a shape
     * @param delta the delta of stated conversions
     * @param declared the cost to charge, or null for the statement's own
     * @return the release
     * @throws java.io.IOException if the file cannot be read
     */
    org.dpgauss.release.PrivateRelease release(java.nio.file.Path input,
            java.util.function.Function<Shape, ? extends org.dpgauss.release.PrivateMechanism> mechanism,
            double delta, org.dpgauss.privacy.accounting.Release declared) throws java.io.IOException {
        org.dpgauss.release.ReleaseContext context = releaseContext();
        lastContext = context;
        if (ledger == null || !ledger.active()) {
            org.dpgauss.release.Dataset data = org.dpgauss.release.Dataset.read(input);
            return org.dpgauss.release.Releases.run(mechanism.apply(new Shape(data.size(), data.dimension())),
                    data, delta, context);
        }
        return ledger.run(this, input, mechanism, delta, declared, context);
    }

    /**
     * The cluster form of {@link #release(java.nio.file.Path, java.util.function.Function, double,
     * org.dpgauss.privacy.accounting.Release)} ({@code --master}): with {@code --ledger} the charge is made on
     * this process (the driver) before the table is opened, so before any Spark job.
     *
     * @param cluster the cluster options
     * @param input the table
     * @param mechanism the row mechanism for a shape
     * @param delta the delta of stated conversions
     * @param declared the cost to charge, or null for the statement's own
     * @return the release
     * @throws java.io.IOException if the file's schema cannot be read
     */
    org.dpgauss.release.PrivateRelease releaseOnCluster(ClusterOptions cluster, java.nio.file.Path input,
            java.util.function.Function<Shape, ? extends org.dpgauss.rows.RowSourceMechanism> mechanism,
            double delta, org.dpgauss.privacy.accounting.Release declared) throws java.io.IOException {
        org.dpgauss.release.ReleaseContext context = releaseContext();
        lastContext = context;
        if (ledger == null || !ledger.active()) {
            try (ClusterOptions.Table t = cluster.open(context, input)) {
                return ClusterOptions.release(mechanism.apply(ClusterOptions.shape(t)), t, delta, context);
            }
        }
        return ledger.runOnCluster(this, cluster, input, mechanism, delta, declared, context);
    }

    /** The release context of the last {@link #release} or {@link #releaseOnCluster} (its engine is named). */
    org.dpgauss.release.ReleaseContext lastContext;

    /** The command to run (set before it runs), for the ledger's replay key. */
    CommandLine.Model.CommandSpec command;

    /** The --ledger options of the command to run, if it has them. */
    private static LedgerOptions ledgerOptions(CommandLine.ParseResult parseResult) {
        java.util.List<CommandLine> chain = parseResult.asCommandLineList();
        CommandLine last = chain.get(chain.size() - 1);
        if (last.isUsageHelpRequested() || last.isVersionHelpRequested()) {
            return null;
        }
        for (CommandLine.Model.CommandSpec m : last.getCommandSpec().mixins().values()) {
            if (m.userObject() instanceof LedgerOptions) {
                return (LedgerOptions) m.userObject();
            }
        }
        return null;
    }

    /** The progress listener the --progress option asks for: stderr when wanted, otherwise none. */
    org.dpgauss.progress.ProgressListener progressListener(PrintWriter err) {
        String p = progress == null ? "auto" : progress.strip().toLowerCase(java.util.Locale.ROOT);
        switch (p) {
            case "always":
                return new TerminalProgress(err);
            case "never":
                return org.dpgauss.progress.ProgressListener.NONE;
            case "auto":
                return System.console() != null ? new TerminalProgress(err)
                        : org.dpgauss.progress.ProgressListener.NONE;
            default:
                throw new CommandLine.ParameterException(spec.commandLine(), "--progress=" + progress
                        + " is not one of auto, always, never");
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: try 'dpgauss demo' or 'dpgauss --help'");
    }

    EngineSelection selectEngine() {
        return ComputeEngines.select(engine);
    }

    RandomSource randomSource() {
        return RandomSource.fromOption(insecureSeed);
    }

    /** The release context of a command: the selected engine and the random source of the global options. */
    org.dpgauss.release.ReleaseContext releaseContext() {
        return org.dpgauss.release.ReleaseContext.of(lazyEngine(), randomSource());
    }

    /**
     * The selected engine, resolved on its first use (issue 27: a mean on small data needs no d x d work, and
     * probing the GPU and loading the OpenBLAS natives cost about a second of a command's start). {@code auto}
     * never fails, so resolving it late changes nothing but the time; an explicit choice is resolved now, so that
     * an unusable {@code --engine gpu} is refused before any data are read. Closing an engine never resolved is a
     * no-op.
     */
    org.dpgauss.engine.ComputeEngine lazyEngine() {
        if (engine != null && engine != org.dpgauss.engine.EngineChoice.AUTO) {
            return selectEngine().engine();
        }
        org.dpgauss.engine.ComputeEngine[] resolved = new org.dpgauss.engine.ComputeEngine[1];
        return (org.dpgauss.engine.ComputeEngine) java.lang.reflect.Proxy.newProxyInstance(
                org.dpgauss.engine.ComputeEngine.class.getClassLoader(),
                new Class<?>[] {org.dpgauss.engine.ComputeEngine.class}, (proxy, method, args) -> {
                    synchronized (resolved) {
                        if (resolved[0] == null) {
                            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                                return null;
                            }
                            resolved[0] = selectEngine().engine();
                        }
                    }
                    try {
                        return method.invoke(resolved[0], args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The text-mode warning under a release made with --insecure-seed; {@code what} names the output. */
    static void warnIfInsecure(PrintWriter out, RandomSource random, String what) {
        if (random.isInsecure()) {
            out.println("WARNING: --insecure-seed was given: the " + what + " above is predictable and NOT private.");
        }
    }

    /** Accepts auto|cpu|ejml|gpu in any case, with a message listing them otherwise. */
    static final class EngineChoiceConverter implements CommandLine.ITypeConverter<EngineChoice> {
        @Override
        public EngineChoice convert(String value) {
            try {
                return EngineChoice.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Version from the jar manifest, or "development" in an IDE. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"dpgauss " + (v == null ? "development build" : v),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
