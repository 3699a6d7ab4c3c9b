package io.github.llmbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.PointLevel;
import io.github.llmbench.summary.SweepSummary.Status;
import io.github.llmbench.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class SweepPageTest {
  @TempDir Path dir;

  private static PointLevel level(double tput, double perGpu, double perUser, boolean frontier) {
    return new PointLevel(
        8, 0, tput, perGpu, perUser, 10.0, 20.0, 1000 / perUser, 30.0, 50.0, frontier, true);
  }

  private static Point done(int index, String name, String tp, PointLevel c8) {
    return new Point(
        index,
        name,
        Map.of("tp", tp),
        Map.of(),
        Status.done,
        null,
        null,
        "server-" + index + ".log",
        "run-" + index,
        0,
        Map.of("c8", c8));
  }

  /** Two servers of tensor-parallel 1 and 2, one failed; a name with markup in it. */
  public static SweepSummary summary() {
    Point one = done(1, "tp=1,<script>x</script>", "1", level(300, 300, 50, true));
    Point two = done(2, "tp=2", "2", level(500, 250, 40, false));
    Point three =
        new Point(
                3,
                "tp=4",
                Map.of("tp", "4"),
                Map.of(),
                Status.server_failed,
                null,
                null,
                "server-3.log",
                null,
                null,
                null)
            .withError("the server exited with code 1 before it was ready", List.of("CUDA <oom>"));
    return new SweepSummary(
        new SweepSummary.Sweep(
            "vllm serve m --port {port}",
            "grid",
            Map.of("tp", List.of("1", "2", "4")),
            Map.of(),
            Map.of("ttft.p99", 100.0),
            "tp",
            List.of(one, two, three),
            List.of("tp=1,<script>x</script> c8"),
            new SweepSummary.Best("tp=2", "c8", 500)));
  }

  @Test
  void everyTextIsEscapedAndThroughputIsPerGpu() {
    String html = SweepPage.html(summary());
    assertFalse(html.contains("<script>x"), "no markup from a combination's name");
    assertTrue(html.contains("tp=1,&lt;script&gt;x&lt;/script&gt;"));
    assertTrue(html.contains("CUDA &lt;oom&gt;"), "the failed server's log, escaped");
    assertTrue(html.contains("<span>Per GPU</span>"), "-Dgpus=tp: a column per GPU");
    assertTrue(html.contains("<b>tp=2</b> at c8, 500.0 output tok/s"), html);
    assertTrue(html.contains("\"perGpu\":true"));
  }

  @Test
  void theBlockNamesTheBestAndMarksTheFrontier() {
    String block = SweepBlock.text(summary());
    assertTrue(
        block.contains("Best under ttft.p99 <= 100.00: tp=2 c8, 500.00 output tok/s"), block);
    assertTrue(block.contains("server_failed: the server exited with code 1"), block);
    assertEquals(1, block.lines().filter(l -> l.endsWith(" *")).count(), block);
  }

  @Test
  @Tag("chromium")
  void theChartIsDrawnAndTheTableOpensSortedByThroughput() throws Exception {
    Path page = SweepPage.write(dir.resolve(SweepPage.FILE), summary());
    Chromium.Dump d = Chromium.open(page);
    Chromium.assertChartsDrawn(d, 1);
    String dom = d.dom();
    assertTrue(dom.contains("data-sorted=\"4 desc\""), "sorted on output throughput");
    assertTrue(
        dom.indexOf("<td class=\"total\">tp=2</td>") < dom.indexOf("<td class=\"total\">tp=1,"),
        "500 tok/s first");
    assertTrue(Files.exists(dir.resolve("js/highstock.js")), "the page opens offline");
  }
}
