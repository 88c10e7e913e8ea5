package org.dpgauss.release;

import java.util.regex.Pattern;

/** The one naming rule for release fields and public parameters: lower camelCase ASCII, e.g. {@code noiseSigma}. */
final class Names {

    private static final Pattern CAMEL = Pattern.compile("[a-z][a-zA-Z0-9]*");

    private Names() {
    }

    static String check(String name, String what) {
        if (name == null || !CAMEL.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name '" + name + "' is not lower camelCase ASCII (e.g."
                    + " noiseSigma): every release field follows one naming rule");
        }
        return name;
    }
}
