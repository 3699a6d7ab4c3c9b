package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.LengthDistribution;
import io.github.llmbench.injection.ServerApi;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RandomDatasetTest {

  @Test
  void promptsHaveExactlyTheTargetLengthByTheSimulatorsTokenizer() {
    try (VllmSimulator sim =
        VllmSimulator.start(SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090"))) {
      ServerApi api = new ServerApi(URI.create(sim.baseUrl()), Optional.empty());
      ServerTokenizer counter = api.tokenizer(sim.servedModelName());
      RandomDataset.Calibration cal =
          RandomDataset.Calibration.measure(RandomDataset.shippedVocabulary(), counter);
      assertTrue(cal.exact());
      RandomDataset d = new RandomDataset(cal, 300, 20, 0.25, 50, 42);
      int base = counter.count("").getAsInt();
      for (int i = 0; i < 20; i++) {
        RequestSpec r = d.request(i, null);
        int counted = counter.count(r.prompt()).getAsInt() - base;
        assertEquals(r.promptTokens(), counted, "prompt " + i);
        assertTrue(
            r.promptTokens() >= 50 + 225 && r.promptTokens() <= 50 + 375,
            "range: " + r.promptTokens());
        assertTrue(r.maxTokens() >= 15 && r.maxTokens() <= 25, "output range: " + r.maxTokens());
      }
      assertEquals(0, d.check(counter, 5).worstTokens(), d.check(counter, 5).describe());
    }
  }

  @Test
  void aTokenizerThatDoesNotAddUpWordByWordIsReported() {
    // every word costs 2 tokens alone, but 1 token inside a text: the check must say so
    TokenCounter odd =
        text ->
            OptionalInt.of(
                text.isBlank()
                    ? 0
                    : (text.strip().split(" ").length == 1 ? 2 : text.strip().split(" ").length));
    RandomDataset.Calibration cal = RandomDataset.Calibration.measure(List.of("a", "b", "c"), odd);
    assertFalse(cal.exact(), "no one-token word: cannot hit exact lengths");
    RandomDataset d = new RandomDataset(cal, 100, 10, 0, 0, 1);
    assertEquals(RandomDataset.Method.ESTIMATE, d.method());
  }

  @Test
  void sameSeedSamePromptsOtherSeedOtherPromptsSharedPrefix() {
    RandomDataset.Calibration cal =
        RandomDataset.Calibration.estimated(List.of("alpha", "beta", "gamma", "delta"));
    RandomDataset a = new RandomDataset(cal, 64, 8, 0, 16, 7);
    RandomDataset b = new RandomDataset(cal, 64, 8, 0, 16, 7);
    assertEquals(a.request(3, null), b.request(3, null));
    assertNotEquals(a.request(3, null).prompt(), a.request(4, null).prompt());
    Dataset other = a.withSeed(8);
    assertNotEquals(a.request(3, null).prompt(), other.request(3, null).prompt());
    String prefix = a.request(0, null).prompt().substring(0, 40);
    assertTrue(
        a.request(9, null).prompt().startsWith(prefix), "the prefix is shared by every request");
    assertEquals(80, a.request(0, null).promptTokens());
  }

  @Test
  void prefixGroupsAreTakenInTurnAndLengthsStayExact() {
    RandomDataset.Calibration cal =
        RandomDataset.Calibration.estimated(List.of("alpha", "beta", "gamma", "delta", "eps"));
    RandomDataset d =
        new RandomDataset(
            cal,
            new RandomDataset.Lengths(
                LengthDistribution.fixed(50), LengthDistribution.fixed(8), 40, 4),
            5);
    List<String> heads =
        java.util.stream.IntStream.range(0, 8)
            .mapToObj(i -> d.request(i, null).prompt().substring(0, 60))
            .toList();
    assertEquals(4, heads.stream().distinct().count(), heads.toString());
    for (int i = 0; i < 4; i++) {
      assertEquals(heads.get(i), heads.get(i + 4), "request " + (i + 4) + " takes group " + i);
    }
    assertEquals(90, d.request(6, null).promptTokens());
    // 40 of each prompt's 40 + 50 + 10 tokens, once each group has been sent
    assertEquals(0.4, d.steadyPrefixHitRate(10), 1e-9);
  }

  @Test
  void aNormalDistributionIsDrawnPerRequestAndClippedToTheContext() {
    RandomDataset.Calibration cal =
        RandomDataset.Calibration.estimated(List.of("alpha", "beta", "gamma", "delta"));
    RandomDataset d =
        new RandomDataset(
            cal,
            new RandomDataset.Lengths(
                LengthDistribution.of(LengthDistribution.Shape.NORMAL, 200, 50),
                LengthDistribution.of(LengthDistribution.Shape.NORMAL, 20, 5),
                0,
                1),
            9);
    RandomDataset.Sample s = d.sample(5_000);
    assertEquals(200, s.input().mean(), 4);
    assertEquals(50, s.input().stdev(), 2);
    assertEquals(20, s.output().mean(), 0.5);
    assertEquals(0, s.clipped());
    for (int i = 0; i < 20; i++) {
      RequestSpec r = d.request(i, null);
      assertEquals(r.promptTokens(), r.prompt().split(" ").length, "exact: one word a token");
    }
    d.fitTo(250);
    RandomDataset.Sample clipped = d.sample(5_000);
    assertTrue(clipped.clipped() > 0, "about 16% of prompts are longer than 250 - 20");
    for (int i = 0; i < 200; i++) {
      RequestSpec r = d.request(i, null);
      assertTrue(r.promptTokens() + r.maxTokens() <= 250, r.promptTokens() + "+" + r.maxTokens());
    }
    RequestSpec longest = d.longestRequests().get(0);
    assertTrue(longest.promptTokens() <= 249 && longest.maxTokens() <= 249, longest.toString());
  }

  /**
   * Issue 62 item 2: a distribution without a top, with no context to clip it to, draws no length
   * past the one maximum (it was clipped at 536870911 tokens only).
   */
  @Test
  void drawsWithoutAContextStopAtTheMaximum() {
    RandomDataset d =
        new RandomDataset(
            RandomDataset.Calibration.estimated(List.of("alpha", "beta")),
            new RandomDataset.Lengths(
                LengthDistribution.of(LengthDistribution.Shape.LOGNORMAL, 9_000_000, 1e8),
                LengthDistribution.of(LengthDistribution.Shape.NORMAL, 9_000_000, 1e8),
                0,
                1),
            3);
    RandomDataset.Sample s = d.sample(2_000);
    assertEquals(10_000_000, s.input().max(), "some draws reach the top, none pass it");
    assertEquals(10_000_000, s.output().max());
  }
}
