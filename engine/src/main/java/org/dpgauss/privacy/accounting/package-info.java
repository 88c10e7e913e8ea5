/**
 * Composition and budgets for the releases made on one dataset.
 * <p>{@link org.dpgauss.privacy.accounting.PrivacyAccountant} composes releases and refuses,
 * atomically, a release that would exceed the budget. An accountant holds one neighbouring relation, fixed at
 * creation, and rejects a release stated under the other. {@code PrivacyAccountant.create} is a privacy filter,
 * valid for adaptively chosen releases (basic composition filter or zCDP filter, fixed by the first release);
 * {@code PrivacyAccountant.forFixedSequence} and {@code composeSteps} compose a sequence whose parameters are fixed
 * in advance by the tightest valid rule (zCDP additively, (epsilon, delta) by basic or advanced composition,
 * Gaussian releases exactly).
 */
package org.dpgauss.privacy.accounting;
