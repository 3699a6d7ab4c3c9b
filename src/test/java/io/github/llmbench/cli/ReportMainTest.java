package io.github.llmbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.analysis.AiperfDefinitions;
import io.github.llmbench.analysis.GuidellmDefinitions;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.HfConfigTest;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.summary.RooflineFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.TestReports;
import io.github.llmbench.testing.ThreeLevelRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The re-do command on an existing run folder. */
class ReportMainTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return ReportMain.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** A run folder as a live run leaves it: requests.jsonl and a first summary.json. */
  static Path existingRun(Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(dir);
    List<RequestRecord> rs = ThreeLevelRun.records();
    Files.writeString(
        run.resolve("llm/requests.jsonl"),
        rs.stream()
                .map(
                    r -> {
                      try {
                        return JSON.writeValueAsString(r);
                      } catch (Exception e) {
                        throw new IllegalStateException(e);
                      }
                    })
                .collect(Collectors.joining("\n"))
            + "\n");
    TestReports.write(
        run,
        rs,
        RunAnalysis.Telemetry.NONE,
        Map.of("c2", 2, "c4", 4, "c8", 8),
        Catalog.model("qwen2.5-7b-instruct"),
        Catalog.gpu("rtx4080-32gb"),
        1,
        ThreeLevelRun.metadata(),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    return run;
  }

  @Test
  void redoKeepsMetadataAndInputsAndTakesNewSpecs(@TempDir Path dir) throws Exception {
    Path run = existingRun(dir);
    assertEquals(0, run(run.toString()), err());
    Summary s = TestReports.summary(run);
    assertEquals("rtx4080-32gb", s.reportInputs().gpu());
    assertEquals(ThreeLevelRun.PROMPT_XSS, s.run().dataset());
    assertEquals("openai-chat", s.run().backend());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("Steady-State Metrics (c8)"));
    double before = s.levels().get("c4").roofline().ridgeFlopPerByte();

    Path cfg = dir.resolve("cfg/config.json");
    Files.createDirectories(cfg.getParent());
    Files.writeString(cfg, HfConfigTest.QWEN_7B);
    assertEquals(
        0, run(run.toString(), "--gpu", "h100-sxm", "--tp=2", "--model", cfg.toString()), err());
    s = TestReports.summary(run);
    assertEquals("h100-sxm", s.reportInputs().gpu());
    assertEquals(2, s.reportInputs().tp());
    assertEquals(cfg.toString(), s.reportInputs().model());
    RooflineFigures roof = s.levels().get("c4").roofline();
    assertEquals(989e12 * 2, roof.peakFlops(), 1);
    assertTrue(Math.abs(roof.ridgeFlopPerByte() - before) > 1);
    assertEquals(8, s.levels().get("c8").figures().maxConcurrency());
    assertEquals(1, Chromium.count(Files.readString(run.resolve("index.html")), "id=\"llm_link\""));

    // no arguments again: the last report's inputs are reused (config.json by its path)
    assertEquals(0, run(run.toString()), err());
    s = TestReports.summary(run);
    assertEquals("h100-sxm", s.reportInputs().gpu());
    assertEquals(cfg.toString(), s.reportInputs().model());

    // none drops the roofline
    assertEquals(0, run(run.toString(), "--model", "none"), err());
    assertNotNull(TestReports.summary(run).levels().get("c4").roofline().skipped());
  }

  @Test
  void redoMeasuresTheGoodputAgainstTheRunsOwnObjectives(@TempDir Path dir) throws Exception {
    Path run = existingRun(dir);
    Path file = run.resolve("llm/summary.json");
    assertNull(
        TestReports.summary(run).levels().get("c4").requestGoodput(), "none without objectives");
    // the objectives as a user adds them to the file (the summary's types have no wither for them)
    ObjectNode written = (ObjectNode) JSON.readTree(file.toFile());
    written.put("goodput_objectives", "ttft:100000");
    Files.writeString(file, written.toString());

    assertEquals(0, run(run.toString()), err());
    Summary redone = TestReports.summary(run);
    assertEquals("ttft:100000", redone.run().goodputObjectives());
    for (LevelSummary l : redone.levels().values()) {
      int sent = l.figures().completed() + l.figures().failed();
      assertEquals(100.0 * l.figures().completed() / sent, l.goodputPct(), 1e-9, "every ok one");
      assertEquals(l.figures().completed() / l.figures().duration(), l.requestGoodput(), 1e-9);
    }
  }

  @Test
  void badArgumentsGiveOneLine(@TempDir Path dir) throws Exception {
    Path run = existingRun(dir);
    assertEquals(3, run(run.toString(), "--gpu", "a100"));
    assertEquals(
        "gatling-llm-bench report: Invalid --gpu=a100: expected a catalog id"
            + " (rtx4080-32gb, rtx4090, h100-sxm) or none\n",
        err());
    assertEquals(3, run(run.toString(), "--tp", "zero"));
    assertEquals(
        "gatling-llm-bench report: Invalid --tp=zero: expected a whole number from 1" + " to 64\n",
        err());
    assertEquals(3, run(run.toString(), "--model", "gpt-9"));
    assertTrue(
        err()
            .startsWith(
                "gatling-llm-bench report: Invalid --model=gpt-9: expected a"
                    + " catalog id (qwen2.5-7b-instruct"),
        err());
    assertEquals(1, err().lines().count());
    assertEquals(3, run(dir.resolve("nowhere").toString()));
    assertTrue(err().contains("Invalid run dir="), err());
    assertEquals(3, run(run.toString(), "--fast"));
    assertTrue(
        err().contains("Invalid option=--fast: expected --model, --gpu, --tp or --as"), err());
    assertEquals(2, run());
    assertTrue(err().contains("usage"), err());
  }

  @Test
  void asPrintsEachLevelUnderTheToolsDefinitionsAndRewritesNothing(@TempDir Path dir)
      throws Exception {
    Path run = existingRun(dir);
    byte[] summary = Files.readAllBytes(run.resolve("llm/summary.json"));
    byte[] page = Files.readAllBytes(run.resolve("llm.html"));
    assertEquals(0, run(run.toString(), "--as", "guidellm"), err());
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith("Figures of " + run + " under guidellm's definitions"), printed);
    assertEquals(
        3,
        Chromium.count(printed, GuidellmDefinitions.LATENCY_TITLE + " (c"),
        "one table per level: " + printed);
    assertTrue(printed.contains(GuidellmDefinitions.LATENCY_TITLE + " (c8)\n"), printed);
    assertTrue(printed.contains("\n            TPOT (ms)"), printed);
    assertTrue(printed.contains("\n                  kit"), printed);
    assertTrue(printed.contains("Note: TPOT: (last token - start) / output tokens"), printed);
    assertTrue(!printed.contains("Steady-State Metrics"), "not the kit's report: " + printed);
    assertArrayEquals(summary, Files.readAllBytes(run.resolve("llm/summary.json")));
    assertArrayEquals(page, Files.readAllBytes(run.resolve("llm.html")));

    assertEquals(0, run(run.toString(), "--as=vllm"), err());
    printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("====== Serving Benchmark Result (c4) ======"), printed);
    assertTrue(
        printed.contains("Maximum request concurrency:             4          kit 4"), printed);
    assertEquals(0, run(run.toString(), "--as", "aiperf"), err());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains(AiperfDefinitions.TITLE + " (c8)"));
  }

  @Test
  void aBadAsGivesOneLine(@TempDir Path dir) throws Exception {
    Path run = existingRun(dir);
    assertEquals(3, run(run.toString(), "--as", "locust"));
    assertEquals(
        "gatling-llm-bench report: Invalid --as=locust: expected vllm, aiperf or guidellm\n",
        err());
    assertEquals(3, run(run.toString(), "--as"));
    assertEquals(
        "gatling-llm-bench report: Invalid --as=: expected vllm, aiperf or guidellm\n", err());
  }
}
