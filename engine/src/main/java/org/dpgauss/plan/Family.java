package org.dpgauss.plan;

/** What the user wants to release; each family's methods are judged by one error metric. */
public enum Family {
    /** A mean: L2 distance to the mean of the rows. */
    MEAN("mean"),
    /** A second-moment matrix: spectral error relative to the spectral norm of the rows' second moment. */
    SECOND_MOMENT("second-moment"),
    /** A random projection: error of the Gram estimate relative to the Gram's spectral norm. */
    PROJECT("project"),
    /** A private sample from a Gaussian fitted to the data: Mahalanobis distance. */
    SAMPLE("sample"),
    /** Bayesian logistic regression ({@code mechanism blr}): L2 distance of theta to the posterior mode. */
    BLR("blr");

    private final String id;

    Family(String id) {
        this.id = id;
    }

    /** @return the command name, e.g. {@code second-moment} */
    public String id() {
        return id;
    }

    /**
     * @param text a command name
     * @return the family
     * @throws IllegalArgumentException listing the families otherwise
     */
    public static Family fromId(String text) {
        for (Family f : values()) {
            if (f.id.equalsIgnoreCase(text == null ? "" : text.strip())) {
                return f;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not one of mean, second-moment, project, sample, blr");
    }
}
