/**
 * Reading and writing data matrices: CSV and NumPy {@code .npy} (float64, C order) into
 * {@link org.dpgauss.linalg.RowBlockMatrix}, and synthetic Gaussian data for the demo and the benchmarks.
 * Malformed input is rejected with a message that names the file, the position and the rule, never a data value.
 */
package org.dpgauss.io;
