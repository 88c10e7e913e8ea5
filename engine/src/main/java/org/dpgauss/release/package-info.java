/**
 * The release contract: the one path by which every private value leaves the library.
 * <p>A {@link org.dpgauss.release.PrivateMechanism} first states, from public facts only
 * ({@link org.dpgauss.release.PublicContext}), its guarantee, public parameters and a-priori accuracy
 * ({@link org.dpgauss.release.Statement}); {@link org.dpgauss.release.Releases} then computes a PASS/FAIL
 * {@link org.dpgauss.release.Outcome} and assembles the immutable {@link org.dpgauss.release.PrivateRelease}.
 * {@link org.dpgauss.release.PrivacySession} holds a {@link org.dpgauss.release.Dataset}, its neighbouring relation
 * and a total budget, and refuses a release over budget before any data are read. Design record:
 * {@code docs/design/release-contract.md}.
 */
package org.dpgauss.release;
