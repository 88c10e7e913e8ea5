/**
 * The CUDA backend's host side: loads this build's fatbin of kernels ({@code src/main/cuda}) with the JCuda driver
 * API and launches them on row blocks; cuSOLVER is used where its libraries load, never required. Every kernel has
 * an EJML twin of the same name in {@code org.dpgauss.cpu}. Without a usable device
 * {@link org.dpgauss.kernels.CudaProbe} reports why, and the engine falls back to the CPU.
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); only the GPU backend
 * ({@code org.dpgauss.gpu}) uses it.
 */
package org.dpgauss.kernels;
