/**
 * Planning a release before the data are read: for a family (mean, second moment, ...) and the public facts of a
 * {@link org.dpgauss.plan.PlanQuery}, the {@link org.dpgauss.plan.Planner} states every applicable mechanism on
 * those facts and reports its predicted error and minimum n. Predictions are the mechanisms' own a-priori
 * accuracy statements; nothing here reads data or spends budget.
 */
package org.dpgauss.plan;
