package org.dpgauss.ledger;

/**
 * The ledger cannot be used: missing, locked, read-only, truncated or foreign file, missing table, unknown schema
 * version, unreachable server, unknown dataset, relation mismatch. The message names the problem and never holds a
 * data value. It extends {@link IllegalArgumentException} because, to a command, a bad ledger is bad input (exit
 * code 1); no data were read and nothing was released when it is thrown before a charge.
 */
public final class LedgerException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong and what to do
     */
    public LedgerException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong and what to do
     * @param cause the driver's exception
     */
    public LedgerException(String message, Throwable cause) {
        super(message, cause);
    }
}
