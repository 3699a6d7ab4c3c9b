package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.cli.CompareMain;
import io.github.llmbench.cli.CompareMainTest;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.ThreeLevelRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's pages at 1,280 px wide in headless Chromium, with Gatling's own {@code style/} (copied
 * from its jar beside the page): every table header cell is shown, or reached by scrolling the
 * table's own box sideways; none is cut off out of reach. The level tables ("Serving Benchmark
 * Result", "Steady-State Metrics"), 21 and 20 columns when each was one table, wider than Gatling's
 * 1,050 px article, are each two tables that fit.
 */
@Tag("chromium")
class WideTablesTest {

  static final int WIDTH = 1280;

  @Test
  void everyHeaderOfLlmPageShownOrScrolledTo(@TempDir Path dir) throws Exception {
    Path run = ThreeLevelRun.runFolder(dir);
    ThreeLevelRun.write(run, quiet());
    assertTrue(Files.isRegularFile(run.resolve("style/style.css")), "Gatling's style beside it");
    Chromium.Reach r = Chromium.reach(run.resolve("llm.html"), WIDTH);
    assertEquals(List.of(), r.unreachable(), "headers out of reach at " + WIDTH + " px");
    // the level tables fit: every header in view without scrolling (the roofline's may scroll)
    assertEquals(
        List.of(),
        r.scrolledHeaders().stream()
            .filter(h -> h.startsWith("Serving Benchmark Result") || h.startsWith("Steady-State"))
            .toList(),
        "level-table headers seen only by scrolling at " + WIDTH + " px");
  }

  /** Four runs with their folders' long default labels: eight wide columns per level. */
  @Test
  void everyHeaderOfComparePageShownOrScrolledTo(@TempDir Path dir) throws Exception {
    Path tp1 = CompareMainTest.baselineRun(dir);
    Path tp2 = CompareMainTest.otherRun(dir);
    Path out = dir.resolve("cmp");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        0,
        CompareMain.run(
            new String[] {
              tp1.toString(),
              tp2.toString(),
              tp1.toString(),
              tp2.toString(),
              "--out",
              out.toString()
            },
            quiet(),
            new PrintStream(err, true, StandardCharsets.UTF_8)),
        err.toString(StandardCharsets.UTF_8));
    Chromium.Reach r = Chromium.reach(out.resolve("compare.html"), WIDTH);
    assertEquals(List.of(), r.unreachable(), "headers out of reach at " + WIDTH + " px");
    assertTrue(
        r.scrolled() > 0, "the tables are wider than the page (" + r.headers() + " headers)");
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
