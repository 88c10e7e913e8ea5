/**
 * Special functions with tail accuracy: the standard normal, the central and the noncentral chi-square
 * distributions (spec {@code ndis.md} §4.2, §11.3). Built on Apache Commons Numbers / Statistics.
 */
package org.dpgauss.special;
