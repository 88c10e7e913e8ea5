/**
 * The {@code dpgauss} command line (picocli): a thin layer over the library. Each command parses and validates its
 * options, makes its release through the release contract and prints it with one printer, as text or JSON
 * ({@code --json}). Command reference: {@code docs/cli.md}. Exit codes: 0 PASS, 1 error, 2 usage, 3 FAIL,
 * 4 budget exceeded.
 */
package org.dpgauss.cli;
