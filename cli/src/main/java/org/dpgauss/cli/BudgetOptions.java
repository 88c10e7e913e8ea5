package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The one budget interface of every private command (issue 29): {@code --epsilon E} or {@code --rho RHO}, with
 * {@code --delta D} (default 1e-6). A command whose mechanism is stated in zCDP takes {@code rho} as given, or the
 * largest rho whose conversion at {@code --delta} meets {@code --epsilon}; a command whose mechanism is stated in
 * {@code (epsilon, delta)} takes {@code --epsilon} as given, or the conversion of {@code --rho} at {@code --delta}.
 * Both directions are the project's one conversion ({@link ConversionPolicy}, Canonne–Kamath–Steinke 2020
 * Cor. 13), so the two spellings of one budget give the same release.
 */
final class BudgetOptions {

    /** The default of {@code --delta}. */
    static final String DEFAULT_DELTA = "1e-6";

    // a heading of its own: without one, picocli 4.7 lists a mixin's group options twice in --help (issue 29's
    // replay of a new user's session)
    @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "Budget (one of --epsilon or --rho, with --delta):%n")
    Choice choice;

    static final class Choice {
        @Option(names = "--epsilon", required = true, paramLabel = "E",
                description = "Privacy budget as a target epsilon (with --delta). A zCDP mechanism runs at the "
                        + "largest rho whose conversion at --delta (Canonne-Kamath-Steinke 2020, Cor. 13) meets E.")
        Double epsilon;

        @Option(names = "--rho", required = true, paramLabel = "RHO",
                description = "Privacy budget as zCDP rho > 0. An (epsilon, delta) mechanism runs at the epsilon "
                        + "rho converts to at --delta (the same conversion).")
        Double rho;
    }

    @Option(names = "--delta", defaultValue = DEFAULT_DELTA, paramLabel = "D",
            description = "delta in (0, 1) of the stated (epsilon, delta) guarantee and of the conversion between "
                    + "--epsilon and --rho (default: ${DEFAULT-VALUE}).")
    double delta;

    /** @return whether a budget was given */
    boolean given() {
        return choice != null && (choice.epsilon != null || choice.rho != null);
    }

    /** @return {@code --delta}, checked */
    double delta() {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("--delta=" + delta + " is outside (0, 1)");
        }
        return delta;
    }

    /** @return {@code --rho} as given, or null when the budget was given as {@code --epsilon} */
    Double rho() {
        require();
        return choice.rho;
    }

    /** @return {@code --epsilon} as given, or null when the budget was given as {@code --rho} */
    Double epsilon() {
        require();
        return choice.epsilon;
    }

    /** @return the budget in zCDP: {@code --rho}, or the largest rho whose conversion meets {@code --epsilon} */
    Zcdp zcdp() {
        require();
        if (choice.rho != null) {
            checkFinite("--rho", choice.rho, false);
            return Zcdp.of(choice.rho);
        }
        checkFinite("--epsilon", choice.epsilon, true);
        return ConversionPolicy.rhoFor(choice.epsilon, delta());
    }

    /** @return the budget in {@code (epsilon, delta)}: {@code --epsilon}, or the conversion of {@code --rho} */
    ApproxDp approxDp() {
        require();
        if (choice.epsilon != null) {
            checkFinite("--epsilon", choice.epsilon, true);
            return ApproxDp.of(choice.epsilon, delta());
        }
        checkFinite("--rho", choice.rho, false);
        return ConversionPolicy.toApproxDp(Zcdp.of(choice.rho), delta());
    }

    private void require() {
        if (!given()) {
            throw new IllegalArgumentException("a privacy budget is required: --epsilon E (with --delta, default "
                    + DEFAULT_DELTA + ") or --rho RHO");
        }
    }

    private static void checkFinite(String name, double v, boolean zeroAllowed) {
        if (!Double.isFinite(v) || v < 0 || (!zeroAllowed && v == 0)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside " + (zeroAllowed ? "[0" : "(0")
                    + ", inf): a privacy budget is finite and positive");
        }
    }
}
