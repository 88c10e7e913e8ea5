/**
 * The CUDA backend of {@link org.dpgauss.engine.ComputeEngine}: {@link org.dpgauss.gpu.GpuEngine} runs the n-sized
 * primitives as the kernels of the {@code kernels} module (cuBLAS / cuSOLVER through FFM where they load), with the
 * same answers as the CPU engines to floating-point tolerance. {@link org.dpgauss.gpu.GpuEngineProvider} registers it
 * with {@link java.util.ServiceLoader}, so {@code --engine gpu|auto} finds it at run time when the
 * {@code dpgauss-gpu} artifact (which carries JCuda and its natives) is on the class path; the library itself does
 * not link it.
 */
package org.dpgauss.gpu;
