/**
 * Row passes: the seam between a mechanism and where its rows live. A mechanism whose data passes are written
 * against {@link org.dpgauss.rows.RowSource} (a {@link org.dpgauss.rows.RowSourceMechanism}) runs unchanged on
 * rows held in memory ({@link org.dpgauss.rows.LocalRows}) and on rows held by a cluster (the dpgauss-spark
 * module). Both implementations cut the rows, taken in a data-independent order, into the same blocks
 * ({@link org.dpgauss.rows.RowLayout}), run the same {@link org.dpgauss.engine.ComputeEngine} primitive on each
 * block and add the per-block results in one fixed order, so a release does not depend on where or in which
 * order the blocks were computed.
 */
package org.dpgauss.rows;
