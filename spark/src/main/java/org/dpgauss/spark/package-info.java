/**
 * The dpgauss release contract on Apache Spark. {@link org.dpgauss.spark.SparkPrivacySession} opens a
 * {@code Dataset<Row>} (value columns, an id column that fixes the row order, a neighbouring relation and a total
 * budget) and releases {@link org.dpgauss.rows.RowSourceMechanism}s from it: the driver states, budget-checks,
 * charges, draws the noise and does the d x d work; the executors run the row passes
 * ({@link org.dpgauss.spark.SparkRows}) through the same {@link org.dpgauss.engine.ComputeEngine} primitives as
 * the single-machine library, in the same fixed block order, so the releases are the same. Spark is a
 * {@code provided} dependency: applications bring their own (4.2 or later). Guide: {@code docs/spark.md}.
 */
package org.dpgauss.spark;
