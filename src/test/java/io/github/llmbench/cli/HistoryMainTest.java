package io.github.llmbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.history.HistoryFile;
import io.github.llmbench.history.HistoryLine;
import io.github.llmbench.report.page.HistoryPage;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.Chromium;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryMainTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return HistoryMain.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** A run of level c8 with this mean TPOT, its dataset named with markup. */
  private static Summary summary(double tpot) throws IOException {
    Map<String, Object> level = new LinkedHashMap<>();
    level.put("duration", 10.0);
    level.put("completed", 100);
    level.put("output_throughput", 1000 / tpot);
    level.put("mean_tpot_ms", tpot);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("backend", "vllm-simulator");
    json.put("model_id", "m");
    json.put("settings", Map.of("conc", "8", "dataset", "<script>alert(1)</script>"));
    json.put("levels", Map.of("c8", level));
    return Summary.parse(new ObjectMapper().writeValueAsString(json));
  }

  /** 30 runs, mean TPOT 20 ms with log sd 0.02, 10% higher from run 20. */
  private void writeHistory() throws IOException {
    SplittableRandom r = new SplittableRandom(4);
    for (int i = 1; i <= 30; i++) {
      double z =
          Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
      double tpot = 20 * Math.exp(0.02 * z) * (i >= 20 ? 1.1 : 1);
      HistoryFile.append(
          dir,
          HistoryLine.of(
              "run-<" + i + ">",
              Instant.parse("2026-12-01T00:00:00Z").plusSeconds(3600L * i),
              summary(tpot)));
    }
    Files.writeString(
        HistoryFile.of(dir),
        Files.readString(HistoryFile.of(dir)) + "not json\n",
        StandardCharsets.UTF_8);
  }

  @Test
  void eachChangePointIsOneLineAndTheRestAreCounted() throws IOException {
    writeHistory();
    assertEquals(0, run(dir.toString()), err.toString());
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(
        lines.get(0).endsWith("30 run(s), 1 key(s); 1 malformed line(s) skipped"), lines.get(0));
    List<String> changes = lines.stream().filter(l -> l.startsWith("change point:")).toList();
    assertEquals(2, changes.size(), String.join("\n", lines));
    assertTrue(
        changes
            .get(0)
            .matches(
                "change point: key [0-9a-f]{12} c8 tpot\\.mean from run 20 of 30"
                    + " \\(run-<20>, 2026-12-01T20:00:00Z\\): \\+\\d+\\.\\d% .*, p 0\\.00\\d"),
        changes.get(0));
    assertTrue(changes.get(1).contains(" c8 output_throughput.min from run 20 of 30"));
    assertTrue(
        lines.contains("no change point: 3 of 5 series (E-divisive means, p < 0.01)"),
        String.join("\n", lines));
    assertTrue(lines.get(lines.size() - 1).startsWith("History page:        "));
  }

  @Test
  void thePageEscapesEveryTextAndMarksTheChange() throws IOException {
    writeHistory();
    Path page = dir.resolve("sub/page.html");
    assertEquals(0, run(dir.toString(), "--out", page.toString()));
    String html = Files.readString(page);
    assertFalse(html.contains("<script>alert"), "the dataset's name is markup");
    assertFalse(html.contains("run-<20>"));
    assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertTrue(html.contains("<td class=\"value total\">run-&lt;20&gt;</td>"));
    assertTrue(html.contains("\"changes\":[{\"x\":20,\"label\":\"+"));
    assertTrue(Files.exists(dir.resolve("sub/js/highstock.js")), "the page opens offline");
  }

  @Test
  @Tag("chromium")
  void thePageDrawsEverySeriesInChromium() throws Exception {
    writeHistory();
    assertEquals(0, run(dir.toString()));
    Chromium.Dump d = Chromium.open(dir.resolve(HistoryPage.FILE));
    Chromium.assertChartsDrawn(d, 5);
    String dom = d.dom();
    assertFalse(dom.contains("<script>alert"), "no markup from the history reaches the DOM");
    assertTrue(dom.contains("(p 0.00"), "a change point's line is labelled");
  }

  @Test
  void badArgumentsAreOneLineAndStatus3() {
    assertEquals(3, run());
    assertEquals(3, run(dir.resolve("none").toString()));
    assertEquals(3, run(dir.toString(), "--bogus"));
    List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(3, lines.size());
    assertTrue(
        lines
            .get(0)
            .startsWith(
                "gatling-llm-bench history: Invalid history dir=(none): expected one folder"
                    + " holding history.jsonl"),
        lines.get(0));
    assertEquals("gatling-llm-bench history: Invalid option=--bogus: expected --out", lines.get(2));
  }
}
