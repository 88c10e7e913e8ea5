package org.dpgauss.engine;

/** The requested backend cannot run on this machine; the message says why and what to use instead. */
public final class EngineUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public EngineUnavailableException(String message) {
        super(message);
    }
}
