package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestOrigin.Side;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimNoise;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interleaved A/B run ({@code -Dcandidate.url}) against two simulators, B's every engine step
 * 1.5 times as long, with {@code gate.tpot.mean=+10%}: run once for the class, checked from the
 * servers' side.
 */
class AbInterleavedIT {
  @TempDir static Path results;

  private static VllmSimulator a;
  private static VllmSimulator b;
  private static GatlingRun.Result run;
  private static List<RequestRecord> records;
  private static AbFigures ab;

  @BeforeAll
  static void runPairs() throws Exception {
    SimulatorConfig config = SimulatorConfig.defaults().withModel("sim-tiny").withGpu("rtx4090");
    a = VllmSimulator.start(config);
    b = VllmSimulator.start(config.withNoise(new SimNoise(0, 1.5, 1)));
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url", a.baseUrl(),
                "candidate.url", b.baseUrl(),
                "gate.tpot.mean", "+10%",
                "ab.max.pairs", "6",
                "conc", "4",
                "duration", "3",
                "input.len", "32",
                "output.len", "64",
                "warmup.prompts", "4",
                "seed", "11"));
    records = RequestsJsonl.read(RunFiles.ofRun(run.runDir()).requests());
    ab = TestReports.summary(run.runDir()).run().ab();
  }

  @AfterAll
  static void stop() {
    a.close();
    b.close();
  }

  @Test
  void aCandidateHalfAgainAsSlowFailsTheGateWithinFewPairs() throws Exception {
    assertNotNull(ab, run.console());
    assertEquals(1, ab.gates().size());
    AbFigures.GateTrack gate = ab.gates().get(0);
    assertEquals("tpot.mean", gate.gate());
    assertEquals("FAIL", gate.decision(), run.console());
    assertEquals("decided", ab.stoppedBy());
    assertTrue(gate.ratio() > 1.3 && gate.ratio() < 1.7, "B/A about 1.5: " + gate.ratio());
    assertTrue(gate.low() <= gate.ratio() && gate.ratio() <= gate.high(), gate.toString());
    assertEquals(0.05, gate.alpha(), 1e-9);
    String xml = Files.readString(RunFiles.ofRun(run.runDir()).gatesXml());
    assertTrue(xml.contains("<failure"), xml);
    assertTrue(run.console().contains("Interleaved A/B"), run.console());
  }

  @Test
  void theGateLineSaysItsPairsRestOnOneCoupleOfProcesses() {
    assertTrue(
        run.console().contains("every pair on the same two processes"), "the gate's noise line");
  }

  @Test
  void bothServersMetricsAreScrapedSoNeitherSideAnswersScrapesAlone() {
    List<ServerSample> samples =
        ServerMetricsFile.read(RunFiles.ofRun(run.runDir()).serverMetrics().getParent());
    Set<String> scraped = new TreeSet<>();
    samples.forEach(s -> scraped.add(URI.create(s.endpoint()).getPort() + ""));
    assertEquals(
        new TreeSet<>(
            List.of(
                URI.create(a.baseUrl()).getPort() + "", URI.create(b.baseUrl()).getPort() + "")),
        scraped,
        "the servers scraped");
  }

  @Test
  void thePageDrawsTheGatesRunningRatio() throws Exception {
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(page.contains("Interleaved A/B at c4"), "the section's heading");
    assertTrue(page.contains("\"kind\":\"ab\""), "a chart of the running ratio");
  }

  @Test
  @Tag("chromium")
  void thePageDrawsItsChartsTheRunningRatioAmongThem() throws Exception {
    Chromium.Dump dump = Chromium.open(RunFiles.ofRun(run.runDir()).page());
    Matcher expected = Pattern.compile("data-expected=\"(\\d+)\"").matcher(dump.dom());
    assertTrue(expected.find(), dump.log());
    Chromium.assertChartsDrawn(dump, Integer.parseInt(expected.group(1)));
    assertTrue(dump.dom().contains("the running ratio B/A as the pairs accumulated"), "its title");
  }

  @Test
  void eachRequestReachedOneServerOnceTheOneOfItsSide() {
    Map<String, String> receivedAt = new HashMap<>();
    for (VllmSimulator sim : List.of(a, b)) {
      for (VllmSimulator.Received r : sim.received()) {
        assertEquals(null, receivedAt.put(r.requestId(), sim.baseUrl()), r.requestId() + " twice");
      }
    }
    assertEquals(
        records.stream().map(RequestRecord::id).collect(Collectors.toSet()), receivedAt.keySet());
    List<RequestRecord> warmup = records.stream().filter(r -> r.level().equals("warmup")).toList();
    assertEquals(4, warmup.size());
    for (VllmSimulator sim : List.of(a, b)) {
      assertEquals(
          2,
          warmup.stream().filter(r -> sim.baseUrl().equals(receivedAt.get(r.id()))).count(),
          "the warmup's requests to A and B in turn");
    }
    for (RequestRecord r : records) {
      if (r.level().equals("warmup")) {
        assertEquals(receivedAt.get(r.id()), r.route().endpoint(), r.id());
        continue;
      }
      assertTrue(RequestOrigin.pairOf(r.origin()) > 0, "a measured request is in a pair");
      VllmSimulator side = RequestOrigin.sideOf(r.origin()) == Side.A ? a : b;
      assertEquals(side.baseUrl(), receivedAt.get(r.id()), r.id());
      assertEquals(side.baseUrl(), r.route().endpoint(), r.id());
    }
  }

  @Test
  void bothSidesOfAPairGotTheSamePromptsAndPairsOthers() {
    Map<String, Integer> digest = new HashMap<>();
    for (VllmSimulator sim : List.of(a, b)) {
      sim.received().forEach(r -> digest.put(r.requestId(), r.promptDigest()));
    }
    List<Set<Integer>> byPair = new ArrayList<>();
    for (AbFigures.Pair p : ab.pairs()) {
      List<Integer> onA = digests(p.pair(), Side.A, digest);
      List<Integer> onB = digests(p.pair(), Side.B, digest);
      List<Integer> fewer = onA.size() <= onB.size() ? onA : onB;
      List<Integer> more = new ArrayList<>(fewer == onA ? onB : onA);
      assertFalse(fewer.isEmpty(), "pair " + p.pair());
      for (Integer d : fewer) { // the side that sent fewer sent the start of the other's sequence
        assertTrue(more.remove(d), "pair " + p.pair() + ": a prompt only one side got");
      }
      byPair.add(new TreeSet<>(onA));
    }
    assertNotEquals(byPair.get(0), byPair.get(1), "the second pair sends other prompts");
  }

  private static List<Integer> digests(int pair, Side side, Map<String, Integer> digest) {
    return records.stream()
        .filter(
            r ->
                RequestOrigin.pairOf(r.origin()) == pair
                    && RequestOrigin.sideOf(r.origin()) == side)
        .map(r -> digest.get(r.id()))
        .toList();
  }

  @Test
  void thePairsSummedUpAreThePairsRecorded() {
    Set<Integer> recorded =
        records.stream()
            .map(r -> RequestOrigin.pairOf(r.origin()))
            .filter(p -> p > 0)
            .collect(Collectors.toSet());
    assertEquals(ab.pairs().size(), recorded.size());
    assertEquals(ab.pairs().size(), ab.gates().get(0).pairsUsed());
    assertTrue(ab.pairs().size() >= 3 && ab.pairs().size() <= 6, ab.pairs().toString());
    for (AbFigures.Pair p : ab.pairs()) {
      long onA =
          records.stream()
              .filter(
                  r ->
                      RequestOrigin.pairOf(r.origin()) == p.pair()
                          && RequestOrigin.sideOf(r.origin()) == Side.A)
              .count();
      assertEquals(p.requestsA(), onA, "pair " + p.pair());
      assertTrue(p.first().equals("A") || p.first().equals("B"));
    }
    assertEquals(ab.pairs().size(), ab.gates().get(0).looks().size(), "a look after each pair");
  }
}
