/**
 * Composition and budgets for the releases made on one dataset.
 * <p>{@link org.dpgauss.privacy.accounting.PrivacyAccountant} composes releases (zCDP additively, (epsilon, delta)
 * by basic or advanced composition, Gaussian releases exactly; the smallest valid epsilon wins) and refuses,
 * atomically, a release that would exceed the budget. An accountant holds one neighbouring relation, fixed at
 * creation, and rejects a release stated under the other.
 */
package org.dpgauss.privacy.accounting;
