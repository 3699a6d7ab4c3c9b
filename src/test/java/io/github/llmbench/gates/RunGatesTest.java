package io.github.llmbench.gates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.Noise;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.run.LoadMode;
import io.github.llmbench.run.RunModes;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gates built from the typed settings: the gates file, the baseline, the default gate and their
 * one-line errors.
 */
class RunGatesTest {

  /** The gates as a run reads them: its mode says what relative gates compare with. */
  private static RunGates gates(Map<String, String> props) {
    BenchSettings settings = BenchSettings.from(props, Map.<String, String>of()::get);
    return ((LoadMode) RunModes.of(settings)).gates(settings);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> gates(props)).getMessage();
  }

  @Test
  void aDeclaredRunNoiseJudgesEveryRelativeGateAndIsRefusedWhereNoneCanUseIt(@TempDir Path dir)
      throws Exception {
    Path base = dir.resolve("summary.json");
    Files.writeString(base, "{\"levels\":{\"c4\":{\"completed\":50}}}");
    RunGates declared =
        gates(
            Map.of(
                "gate.tpot.mean", "+10%", "baseline", base.toString(), "gate.run.noise", "0.07"));
    Noise n = declared.noise().of("c4", GateMetric.parse("tpot.mean").orElseThrow()).orElseThrow();
    assertEquals(Noise.Source.DECLARED, n.source());
    assertEquals(0.07, n.runSd(), 1e-12);
    // history, where it knows the figure, is measured and comes first
    Noise history = new Noise(Noise.Source.HISTORY, 0.0004, 0.0009, 60, 30, 90);
    GateMetric tpot = GateMetric.parse("tpot.mean").orElseThrow();
    RunGates both = declared.withNoise(GateNoise.of(Map.of(GateNoise.key("c4", tpot), history)));
    assertEquals(Noise.Source.HISTORY, both.noise().of("c4", tpot).orElseThrow().source());
    assertEquals(Noise.Source.DECLARED, both.noise().of("c8", tpot).orElseThrow().source());
    assertEquals(
        "-Dgate.run.noise=0.07 is the run-to-run noise of a relative gate (-Dgate.tpot.mean=+10%)"
            + " against -Dbaseline, and this run has none: add one, or drop -Dgate.run.noise",
        error(Map.of("gate.run.noise", "0.07")));
    assertEquals(
        "-Dgate.run.noise=0.07 is a stored baseline's run-to-run noise: an interleaved A/B run's"
            + " pairs cancel it; drop -Dgate.run.noise",
        error(
            Map.of(
                "base.url", "http://127.0.0.1:1",
                "candidate.url", "http://127.0.0.1:2",
                "gate.tpot.mean", "+10%",
                "gate.run.noise", "0.07")));
  }

  @Test
  void aCapacityGateComparesCapacitiesOfOneKind(@TempDir Path dir) throws Exception {
    Path rateRun = dir.resolve("summary.json");
    Files.writeString(
        rateRun,
        "{\"levels\":{\"r12.5\":{\"completed\":50}},\"capacity\":{\"search\":\"rate\",\"capacity\":12.5}}");
    Map<String, String> gate =
        Map.of("gate.capacity.min", "-5%", "baseline", rateRun.toString(), "slo", "ttft.p99:1");
    Map<String, String> conc = new HashMap<>(gate);
    conc.put("search", "conc");
    assertEquals(
        "-Dgate.capacity.min compares with the baseline's capacity, a request rate (-Dbaseline="
            + rateRun
            + "): this run's -Dsearch=conc finds a concurrency",
        error(conc));
    Map<String, String> rate = new HashMap<>(gate);
    rate.put("search", "rate");
    assertEquals(
        Optional.of(new RunFigures.Capacity(12.5, true)), gates(rate).baselineFigures().capacity());
  }

  @Test
  void gatesFromPropertiesAndFilesWithABaseline(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("gates.json");
    Files.writeString(
        file, "{\"tpot.p99\": 300, \"gate.failed.pct\": 1, \"output_throughput.min\": \"-10%\"}");
    Path run = dir.resolve("run");
    Files.createDirectories(run.resolve("llm"));
    Files.writeString(
        run.resolve("llm/summary.json"),
        "{\"levels\": {\"c8\": {\"completed\": 10, \"failed\": 0, \"output_throughput\": 200.0, \"p99_tpot_ms\": 40.0}}}");
    RunGates s =
        gates(Map.of("gates", file.toString(), "gate.tpot.p99", "250", "baseline", run.toString()));
    var gates = s.set().gates();
    assertEquals(3, gates.size());
    GateMetric tpotP99 = new GateMetric.Latency(new LatencyFigure(Metric.TPOT, Statistic.P99));
    assertEquals(
        250.0,
        gates.stream().filter(g -> g.metric().equals(tpotP99)).findFirst().get().limit().value(),
        "-D overrides the file");
    LevelFigures c8 = s.baselineFigures().level("c8");
    assertEquals(200.0, c8.get(GateMetric.OUTPUT_THROUGHPUT));
    assertEquals(40.0, c8.get(tpotP99));
    assertEquals(0.0, c8.get(GateMetric.FAILED_PCT));
    assertTrue(Double.isNaN(c8.get(GateMetric.GOODPUT)), "a figure the baseline lacks is not 0");

    Path props = dir.resolve("gates.properties");
    Files.writeString(props, "ttft.p99=5000\ngoodput=ttft:500\ngoodput.pct=90\n");
    var fromProps = gates(Map.of("gates", props.toString())).set().gates();
    assertEquals(3, fromProps.size(), "two from the file, and the default failed.pct");
    assertTrue(
        fromProps.stream().anyMatch(g -> g.metric() == GateMetric.FAILED_PCT && g.byDefault()));

    assertTrue(
        error(Map.of("gate.tpot.p99", "+10%"))
            .startsWith("A relative gate (+N%) needs a baseline run"));
    assertEquals(
        "Invalid -Dbaseline="
            + dir.resolve("none")
            + ": expected a run folder with llm/summary.json, or a summary.json",
        error(Map.of("gate.tpot.p99", "+10%", "baseline", dir.resolve("none").toString())));
    assertEquals(
        "Invalid -Dgates=" + dir.resolve("x.json") + ": no such file",
        error(Map.of("gates", dir.resolve("x.json").toString())));
    assertTrue(
        error(Map.of("gate.c8.tpot.p100", "1")).startsWith("Unknown gate -Dgate.c8.tpot.p100=1"));
    assertEquals(
        "Unknown gate -Dgate.tpot.p999=50: expected [LEVEL.]METRIC with METRIC one of",
        error(Map.of("gate.tpot.p999", "50")).split(" [a-z_.]+,")[0]);
  }

  @Test
  void aRunFailsOnFailuresByDefault() {
    var gates = gates(Map.of()).set().gates();
    assertEquals(1, gates.size());
    assertEquals(GateMetric.FAILED_PCT, gates.get(0).metric());
    assertEquals(1.0, gates.get(0).limit().value());
    assertTrue(gates.get(0).byDefault());
    assertEquals("failed.pct <= 1.00 (default)", gates(Map.of()).describe().orElseThrow());
    // any gate on failed.pct replaces the default: 100 lifts it
    var lifted = gates(Map.of("gate.failed.pct", "100")).set().gates();
    assertEquals(1, lifted.size());
    assertEquals(100.0, lifted.get(0).limit().value());
    assertFalse(lifted.get(0).byDefault());
    var perLevel = gates(Map.of("gate.c8.failed.pct", "5")).set().gates();
    assertEquals(List.of("c8.failed.pct"), perLevel.stream().map(Gate::name).toList());
  }

  @Test
  void theHelpNamesTheGoodputObjectivesAndTheDefaultGateAsTheGatesParseThem() {
    SettingsTable.Setting gate = SettingsTable.get("gate.").orElseThrow();
    assertTrue(
        gate.accepted().endsWith("gate." + GoodputSpec.KEY + "=" + GoodputSpec.PLACEHOLDER),
        gate.accepted());
    assertEquals(GateMetric.FAILED_PCT.key() + " <= 1", gate.defaultValue());
  }

  @Test
  void anEmbeddingsRunTakesGatesOnE2elAndItsThroughputsAndRefusesTheOthers() {
    RunGates ok =
        gates(
            Map.of(
                "api", "embeddings",
                "gate.e2el.p99", "500",
                "gate.request_throughput.min", "10",
                "gate.input_throughput.min", "1000"));
    assertEquals(4, ok.set().gates().size(), "the three and the default failed.pct");
    assertEquals(
        "Invalid gate -Dgate.ttft.p99=300: expected a gate with -Dapi=embeddings: e2el.*,"
            + " request_throughput.min, input_throughput.min, failed.pct, client.* or server.* (an"
            + " embedding has no TTFT, TPOT, ITL, output tokens or goodput)",
        error(Map.of("api", "embeddings", "gate.ttft.p99", "300")));
    for (String other : List.of("c4.tpot.mean", "itl.p99", "output_throughput.min", "ttfo.p99")) {
      assertTrue(
          error(Map.of("api", "embeddings", "gate." + other, "1"))
              .startsWith(
                  "Invalid gate -Dgate." + other + "=1: expected a gate with -Dapi=embeddings"),
          other);
    }
    assertTrue(
        error(Map.of("api", "embeddings", "gate.goodput", "e2el:500"))
            .startsWith("Invalid gate -Dgate.goodput=e2el:500: no goodput with -Dapi=embeddings"));
    // the same gates on a chat run are taken
    assertEquals(2, gates(Map.of("gate.ttft.p99", "300")).set().gates().size());
  }
}
