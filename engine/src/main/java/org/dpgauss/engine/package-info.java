/**
 * The compute backends behind one interface, {@link org.dpgauss.engine.ComputeEngine}: the EJML CPU engine
 * (always available) and the CUDA engine (when a usable GPU is present). {@link org.dpgauss.engine.ComputeEngines}
 * picks one from {@code --engine auto|cpu|gpu} or the {@code dpgauss.engine} system property and reports why.
 * Both backends give the same answers to floating-point tolerance.
 */
package org.dpgauss.engine;
