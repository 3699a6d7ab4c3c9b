package io.github.llmbench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.cli.CompareMain;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import io.github.llmbench.sweep.SweepPageTest;
import io.github.llmbench.testing.Chromium;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code exec:java@compare} given two sweeps' folders. */
class SweepComparisonTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** The page test's sweep, and the same one with tp=2 twice as fast and tp=1 missing. */
  private int compareTwo(String... more) throws Exception {
    SweepSummary a = SweepPageTest.summary();
    SweepSummary.Sweep s = a.sweep();
    Point tp2 = s.points().get(1);
    Map<String, PointLevel> faster = new LinkedHashMap<>();
    tp2.levels()
        .forEach(
            (k, l) ->
                faster.put(
                    k,
                    new PointLevel(
                        l.completed(),
                        l.failed(),
                        2 * l.outputThroughput(),
                        l.outputThroughputPerGpu(),
                        l.interactivity(),
                        l.meanTtftMs(),
                        l.p99TtftMs(),
                        l.meanTpotMs(),
                        l.p99TpotMs(),
                        l.meanE2elMs(),
                        true,
                        l.meetsSlo())));
    SweepSummary b =
        new SweepSummary(
            new SweepSummary.Sweep(
                s.command(),
                s.combine(),
                s.serverAxes(),
                s.workloadAxes(),
                s.slo(),
                s.gpus(),
                List.of(tp2.withLevels(faster)),
                List.of(),
                null));
    Files.createDirectories(dir.resolve("sweep-a"));
    Files.createDirectories(dir.resolve("sweep-b"));
    a.write(dir.resolve("sweep-a").resolve(SweepSummary.FILE));
    b.write(dir.resolve("sweep-b").resolve(SweepSummary.FILE));
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                dir.resolve("sweep-a").toString(),
                dir.resolve("sweep-b").toString(),
                "--out",
                dir.resolve("out").toString()));
    args.addAll(List.of(more));
    return CompareMain.run(
        args.toArray(String[]::new),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void combinationsLineUpByNameWithTheRatioToTheFirst() throws Exception {
    assertEquals(0, compareTwo("--labels", "v1,v2"), err.toString(StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    String tp2 = text.lines().filter(l -> l.startsWith("tp=2 ")).findFirst().orElseThrow();
    assertTrue(tp2.contains("2.00x"), tp2);
    String tp1 = text.lines().filter(l -> l.startsWith("tp=1,")).findFirst().orElseThrow();
    assertTrue(tp1.trim().endsWith("-"), "v2 has no tp=1: " + tp1);
    assertTrue(text.contains("Best in v1: tp=2 c8, 500.00 output tok/s"), text);
    assertTrue(text.contains("Best in v2: none met the objectives"), text);
    String html = Files.readString(dir.resolve("out").resolve(SweepComparison.FILE));
    assertFalse(html.contains("<script>x"), "names escaped");
    assertTrue(html.contains("<span>v2 vs first</span>"));
  }

  @Test
  void sweepsAndRunsDoNotMix() throws Exception {
    Files.createDirectories(dir.resolve("run/llm"));
    Files.writeString(dir.resolve("run/llm/summary.json"), "{\"levels\":{}}");
    assertEquals(3, compareTwo(dir.resolve("run").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("sweeps' folders only"));
  }

  @Test
  @Tag("chromium")
  void bothSweepsFrontiersAreDrawnOnOneChart() throws Exception {
    assertEquals(0, compareTwo());
    Chromium.Dump d = Chromium.open(dir.resolve("out").resolve(SweepComparison.FILE));
    Chromium.assertChartsDrawn(d, 1);
    assertTrue(d.dom().contains("sweep-b frontier"), "each sweep's frontier is its own series");
  }
}
