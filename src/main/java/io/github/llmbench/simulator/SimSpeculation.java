package io.github.llmbench.simulator;

import java.util.SplittableRandom;

/**
 * Speculative decoding, as vLLM's n-gram or EAGLE proposers run it: each decode step of a request
 * verifies {@code tokens} drafted tokens with its one sampled token (the step computes {@code
 * tokens + 1} positions), keeps the drafts up to the first rejected one, and streams what it kept
 * in one chunk. Each draft is accepted with probability {@code acceptance}, independently, so the
 * mean accepted length per step is {@code 1 + a + a^2 + ... + a^k}.
 *
 * @param tokens drafted tokens per step ({@code --num-speculative-tokens}; 0: off)
 * @param acceptance each draft's chance to be accepted, 0..1 ({@code --spec-acceptance})
 */
public record SimSpeculation(int tokens, double acceptance) {

  public static final SimSpeculation NONE = new SimSpeculation(0, 0);

  /** The most drafted tokens per step. */
  public static final int MAX_TOKENS = 16;

  public SimSpeculation {
    if (tokens < 0 || tokens > MAX_TOKENS) {
      throw new IllegalArgumentException(
          "speculative tokens "
              + tokens
              + " is invalid (accepted: a whole number from 0 to "
              + MAX_TOKENS
              + ")");
    }
    if (!(acceptance >= 0 && acceptance <= 1)) {
      throw new IllegalArgumentException(
          "speculative acceptance " + acceptance + " is invalid (accepted: a number from 0 to 1)");
    }
  }

  public boolean on() {
    return tokens > 0;
  }

  /** Of {@code drafted} drafts, how many a step keeps: the ones before the first rejected. */
  int accepted(int drafted, SplittableRandom random) {
    int a = 0;
    while (a < drafted && random.nextDouble() < acceptance) {
      a++;
    }
    return a;
  }
}
