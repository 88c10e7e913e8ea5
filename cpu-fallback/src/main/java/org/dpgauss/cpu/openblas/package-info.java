/**
 * The OpenBLAS twins of the compute primitives (bytedeco's bundled OpenBLAS through javacpp), behind the
 * {@code cpu-openblas} engine.
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); reach the primitives through
 * {@code org.dpgauss.engine.ComputeEngine}.
 */
package org.dpgauss.cpu.openblas;
