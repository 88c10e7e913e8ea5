/**
 * Special functions with tail accuracy: the standard normal, the central and the noncentral chi-square
 * distributions (spec {@code ndis.md} §4.2, §11.3). Built on Apache Commons Numbers / Statistics.
 * <p><b>Internal</b>: not part of the library's API (docs/design/api-surface.md); the mechanisms and the
 * calibration use it, no public signature names its types.
 */
package org.dpgauss.special;
