package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.analysis.DisaggregatedFigures;
import io.github.llmbench.analysis.ServerFigureValues;
import io.github.llmbench.analysis.SpeculativeFigures;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.records.ServerMetricsFile;
import io.github.llmbench.records.ServerSample;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.LevelEnergy;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Energy, speculative decoding and disaggregated serving end to end against the embedded simulator
 * on two GPUs: its DCGM stand-in, its drafts and its KV hand-overs read back from the run's own
 * {@code server-metrics.jsonl} and records, and shown on the console, in {@code summary.json},
 * {@code llm.html} and the energy gate (set so low that it fails).
 */
class GpuFiguresIT {
  @TempDir static Path dir;

  private static final double KV_LINK_GB_PER_S = 2;
  private static final int DRAFTS = 3;

  private static GatlingRun.Result run;
  private static RunFiles files;
  private static List<RequestRecord> records;
  private static List<ServerSample> samples;
  private static LevelSummary level;

  @BeforeAll
  static void runOnTwoSimulatedGpus() throws Exception {
    run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            dir.resolve("results"),
            Map.of(
                "conc", "4",
                "prompts", "40",
                "input.len", "256",
                "output.len", "48",
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "sim.tp", "2",
                "sim.speculative", DRAFTS + ":0.7",
                "sim.kv.transfer", Double.toString(KV_LINK_GB_PER_S),
                "gate.energy.per_token.max", "0.000001"));
    files = RunFiles.ofRun(run.runDir());
    records = RequestsJsonl.read(files.requests());
    samples = ServerMetricsFile.read(files.folder());
    level = Summary.read(files.summary()).levels().get("c4");
  }

  private static long levelStartMs() {
    return records.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
  }

  private static long levelEndMs() {
    return records.stream().mapToLong(RequestRecord::endMs).max().orElseThrow();
  }

  /** A series of the server's, each scrape's values added up (GPUs). */
  private static NavigableMap<Long, Double> summed(String name) {
    NavigableMap<Long, Double> out = new TreeMap<>();
    samples.stream()
        .filter(s -> s.name().equals(name))
        .forEach(s -> out.merge(s.timeMs(), s.value(), Double::sum));
    return out;
  }

  /** A counter's growth between the scrapes that bound the level. */
  private static double levelGrowth(String name) {
    NavigableMap<Long, Double> c = summed(name);
    return c.ceilingEntry(levelEndMs()).getValue() - c.floorEntry(levelStartMs()).getValue();
  }

  private static long outputTokens() {
    return records.stream().filter(RequestRecord::ok).mapToLong(RequestRecord::outputTokens).sum();
  }

  @Test
  void theEnergyIsTheDcgmCountersGrowthOverTheLevelOnBothGpus() {
    LevelEnergy e = level.energy();
    assertEquals("dcgm_energy_counter", e.source());
    assertTrue(e.simulated());
    assertEquals(2, e.gpus());
    assertEquals(
        levelGrowth("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION") / 1000, e.joules(), 1e-6, "joules");
  }

  @Test
  void joulesPerTokenAreOverTheTokensTheRecordsReceived() {
    LevelEnergy e = level.energy();
    assertEquals(40, records.size());
    assertEquals(outputTokens(), e.outputTokens(), 0.0);
    assertEquals(e.joules() / outputTokens(), e.joulesPerOutputToken(), 1e-12);
    assertEquals(outputTokens() / (e.joules() / 3.6e6), e.outputTokensPerKwh(), 1e-3);
    assertEquals(e.joules() / e.seconds() / 2, e.wattsPerGpu(), 1e-9);
    // between the rtx4090's idle draw and its limit (Catalog.power)
    assertTrue(e.wattsPerGpu() > 22 && e.wattsPerGpu() < 450, "W per GPU " + e.wattsPerGpu());
  }

  @Test
  void theEnergyGateFailsWithItsMeasure() throws Exception {
    String line =
        String.format(
            java.util.Locale.ROOT,
            "FAIL c4       energy.per_token.max           limit <= 1.00e-06 J/tok, measured %.3g"
                + " J/tok",
            level.energy().joulesPerOutputToken());
    assertTrue(run.console().contains(line), run.console());
    String xml = Files.readString(files.gatesXml());
    assertTrue(xml.contains("failures=\"1\""), xml);
    assertTrue(
        xml.contains(
            "<failure message=\""
                + line.replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;")),
        xml);
  }

  @Test
  void theConsoleShowsEachBlockAndSaysTheEnergyIsSimulated() {
    String console = run.console();
    assertTrue(console.contains(" Energy "), console);
    assertTrue(console.contains("simulated by the kit's simulator"), console);
    assertTrue(console.contains(" Speculative decoding "), console);
    assertTrue(console.contains(" Disaggregated serving "), console);
  }

  @Test
  void thePageHasTheEnergySpeculationAndTransferSections() throws Exception {
    String page = Files.readString(files.page());
    assertTrue(page.contains("id=\"llm-energy\""));
    assertTrue(page.contains("id=\"llm-speculative\""));
    assertTrue(page.contains("id=\"llm-disaggregated\""));
  }

  @Test
  void theAcceptanceIsTheServersCountersAndChunksCarryTheAcceptedTokens() {
    ServerFigureValues server = level.server().level();
    double accepted = levelGrowth("vllm:spec_decode_num_accepted_tokens_total");
    double drafted = levelGrowth("vllm:spec_decode_num_draft_tokens_total");
    double drafts = levelGrowth("vllm:spec_decode_num_drafts_total");
    assertEquals(accepted / drafted, server.get(SpeculativeFigures.ACCEPTANCE_RATE), 1e-12);
    assertEquals(1 + accepted / drafts, server.get(SpeculativeFigures.MEAN_ACCEPTED_LENGTH), 1e-12);
    assertTrue(drafted <= DRAFTS * drafts);
    // the server counted every kept draft as generated: it generated what the client received
    assertEquals(outputTokens(), server.get(CommonServerFigures.GENERATION_TOKENS), 0.0);
    assertTrue(level.chunks().tokensPerChunkMean() > 1.2, "tokens per chunk");
  }

  @Test
  void eachRequestsKvWentOverTheLinkBeforeItsFirstToken() {
    ServerFigureValues server = level.server().level();
    assertEquals(records.size(), server.get(DisaggregatedFigures.TRANSFERS), 0.0);
    double bytesPerToken = Catalog.model("sim-tiny").kvBytesPerToken();
    long promptTokens = records.stream().mapToLong(RequestRecord::inputTokens).sum();
    assertEquals(
        bytesPerToken * promptTokens / 1e6, server.get(DisaggregatedFigures.TRANSFER_MB), 1e-6);
    for (RequestRecord r : records) {
      double transferMs = 1 + bytesPerToken * r.inputTokens() / (KV_LINK_GB_PER_S * 1e9) * 1000;
      assertTrue(r.ttftMicros() / 1000.0 >= transferMs, r.id() + ": TTFT before the KV arrived");
    }
  }
}
