package io.github.llmbench.testing;

import io.github.llmbench.summary.AbFigures;
import java.util.List;

/** An interleaved A/B run's answer for tests of its summary and its report section. */
public final class AbFixtures {
  private AbFixtures() {}

  /**
   * An A/B run's answer as the root writes it: two pairs, one gate that failed at the second.
   *
   * @param candidateModel the model B's requests named (markup in it tests escaping)
   */
  public static AbFigures twoPairsFailed(String candidateModel) {
    return new AbFigures(
        "http://a:8000",
        "http://b:8000",
        "m",
        candidateModel,
        "c4",
        30,
        List.of(new AbFigures.Pair(1, "B", 40, 30, null), new AbFigures.Pair(2, "A", 41, 29, null)),
        List.of(
            new AbFigures.GateTrack(
                "tpot.mean",
                0.1,
                "B/A",
                0.05,
                0.9,
                List.of(0.4, 0.42),
                List.of(
                    new AbFigures.Look(1, 1.49, null, null, "CONTINUE"),
                    new AbFigures.Look(2, 1.505, 1.2, 1.05, "FAIL")),
                "FAIL",
                1.505,
                1.4,
                1.6,
                2)),
        "decided",
        "pair",
        List.of(),
        null);
  }
}
