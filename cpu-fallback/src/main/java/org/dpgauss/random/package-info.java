/**
 * Counter-based random number generators: {@link org.dpgauss.random.ChaCha20} (RFC 8439), for randomness whose
 * secrecy a privacy proof needs, and {@link org.dpgauss.random.Philox4x32} (Salmon et al. 2011), for simulation only.
 * The same key gives the same bits on the CPU and the GPU.
 */
package org.dpgauss.random;
