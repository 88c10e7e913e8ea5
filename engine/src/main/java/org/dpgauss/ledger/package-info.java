/**
 * The privacy ledger: a budget per protected dataset that outlives the process (docs/ledger.md). One interface,
 * {@link org.dpgauss.ledger.Ledger}, with two stores reached through JDBC: SQLite (the embedded default, a file)
 * and PostgreSQL (for a team or a cluster driver). A release is charged in one transaction before the data are
 * read; the spent total is recomputed from the stored costs by {@link org.dpgauss.privacy.accounting.PrivacyAccountant}.
 * The ledger stores only public facts.
 */
package org.dpgauss.ledger;
