/**
 * Linear-algebra value types shared by both backends: {@link org.dpgauss.linalg.RowBlockMatrix} (row-major doubles in
 * blocks of whole rows, so n*d may exceed one Java array), Cholesky results with an explicit verdict, and
 * symmetric eigendecompositions with a fixed eigenvector sign. Design record: {@code docs/design/row-blocks.md}.
 */
package org.dpgauss.linalg;
