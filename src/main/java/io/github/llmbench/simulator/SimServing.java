package io.github.llmbench.simulator;

/**
 * How the simulated engine serves beyond plain decoding: speculative decoding, and disaggregated
 * prefill and decode instances joined by a KV-transfer link.
 *
 * @param speculation speculative decoding ({@link SimSpeculation#NONE}: off)
 * @param kvTransferGbPerS the link between the prefill and the decode instance, in GB/s (0: one
 *     instance does both)
 */
record SimServing(SimSpeculation speculation, double kvTransferGbPerS) {

  static final SimServing MONOLITHIC = new SimServing(SimSpeculation.NONE, 0);

  SimServing {
    if (!(kvTransferGbPerS >= 0) || Double.isInfinite(kvTransferGbPerS)) {
      throw new IllegalArgumentException(
          "KV transfer rate " + kvTransferGbPerS + " is invalid (accepted: a number of GB/s > 0)");
    }
  }
}
