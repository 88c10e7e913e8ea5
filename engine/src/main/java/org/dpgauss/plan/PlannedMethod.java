package org.dpgauss.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.dpgauss.release.Accuracy;

/**
 * One method's entry in a plan: whether it applies to the query, its predicted accuracy (the a-priori statement
 * the mechanism itself makes, stated on the query's public facts), the smallest n at which it runs, what it needs
 * from the user, and a command line to run it. Immutable.
 */
public final class PlannedMethod {

    private final String method;
    private final String mechanism;
    private final Accuracy predicted;
    private final long minimumRows;
    private final List<String> needs;
    private final String notApplicable;
    private final String command;
    private final String whenToChoose;

    private PlannedMethod(String method, String mechanism, Accuracy predicted, long minimumRows, List<String> needs,
            String notApplicable, String command, String whenToChoose) {
        this.method = Objects.requireNonNull(method, "method");
        this.mechanism = mechanism == null ? "" : mechanism;
        this.predicted = predicted;
        this.minimumRows = minimumRows;
        this.needs = List.copyOf(needs);
        this.notApplicable = notApplicable == null ? "" : notApplicable;
        this.command = command == null ? "" : command;
        this.whenToChoose = whenToChoose == null ? "" : whenToChoose;
    }

    /**
     * A method that runs on the query.
     *
     * @param method the method's name as the command line knows it, e.g. {@code clipped}
     * @param mechanism the mechanism's identifier, e.g. {@code mean.clipped}
     * @param predicted its a-priori accuracy on the query, or null if it states none
     * @param minimumRows the smallest n at which it runs (or is certified), or -1 if unknown
     * @param needs what the user must supply, in words (may be empty)
     * @param command a command line that runs it (may be empty)
     * @param whenToChoose one sentence on when to choose it
     * @return the entry
     */
    public static PlannedMethod applicable(String method, String mechanism, Accuracy predicted, long minimumRows,
            List<String> needs, String command, String whenToChoose) {
        return new PlannedMethod(method, mechanism, predicted, minimumRows, needs, null, command, whenToChoose);
    }

    /**
     * A method that does not run on the query.
     *
     * @param method the method's name
     * @param mechanism the mechanism's identifier
     * @param reason why, with the number that would suffice (e.g. {@code n >= 114,502 rows are needed})
     * @param minimumRows the smallest n at which it would run, or -1 if n is not the obstacle
     * @param needs what the user must supply
     * @param whenToChoose one sentence on when to choose it
     * @return the entry
     */
    public static PlannedMethod notApplicable(String method, String mechanism, String reason, long minimumRows,
            List<String> needs, String whenToChoose) {
        return new PlannedMethod(method, mechanism, null, minimumRows, needs, Objects.requireNonNull(reason),
                null, whenToChoose);
    }

    /** @return the method's command-line name */
    public String method() {
        return method;
    }

    /** @return the mechanism's identifier */
    public String mechanism() {
        return mechanism;
    }

    /** @return whether it runs on the query */
    public boolean applicable() {
        return notApplicable.isEmpty();
    }

    /** @return why it does not run; empty if it does */
    public String reason() {
        return notApplicable;
    }

    /** @return its predicted accuracy, if stated */
    public Optional<Accuracy> predicted() {
        return Optional.ofNullable(predicted);
    }

    /** @return the smallest n at which it runs, if known */
    public OptionalLong minimumRows() {
        return minimumRows < 0 ? OptionalLong.empty() : OptionalLong.of(minimumRows);
    }

    /** @return what it needs from the user */
    public List<String> needs() {
        return needs;
    }

    /** @return a command line that runs it; empty if none */
    public String command() {
        return command;
    }

    /** @return one sentence on when to choose it */
    public String whenToChoose() {
        return whenToChoose;
    }

    /** @return a fresh JSON-ready map */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("method", method);
        m.put("mechanism", mechanism);
        m.put("applicable", applicable());
        if (!applicable()) {
            m.put("reason", notApplicable);
        }
        if (predicted != null) {
            m.put("predicted", predicted.toMap());
        }
        if (minimumRows >= 0) {
            m.put("minimumRows", minimumRows);
        }
        m.put("needs", needs);
        if (!command.isEmpty()) {
            m.put("command", command);
        }
        m.put("whenToChoose", whenToChoose);
        return m;
    }
}
