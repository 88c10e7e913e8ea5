/**
 * Progress reporting for long loops through a per-thread listener. A listener learns only how much of a named phase
 * is done, in units fixed before the computation, so progress carries no information about the data.
 */
package org.dpgauss.progress;
