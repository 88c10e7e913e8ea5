/**
 * The compute backends behind one interface, {@link org.dpgauss.engine.ComputeEngine}: the native OpenBLAS CPU
 * engine ({@code cpu-openblas}), the EJML CPU engine ({@code cpu-ejml}, always available, the reference) and the
 * CUDA engine, which lives in the {@code dpgauss-gpu} artifact and is found at run time through
 * {@link org.dpgauss.engine.ComputeEngineProvider} and {@link java.util.ServiceLoader}.
 * {@link org.dpgauss.engine.ComputeEngines} picks one from {@code --engine auto|cpu|ejml|gpu} or the
 * {@code dpgauss.engine} system property and reports why. Every backend gives the same answers to floating-point
 * tolerance.
 */
package org.dpgauss.engine;
