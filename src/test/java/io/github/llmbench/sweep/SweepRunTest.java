package io.github.llmbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's loop with stand-in runs: servers that fail, a resumed sweep. */
class SweepRunTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  /** Runs that leave a summary of one level whose throughput is the run's number. */
  private final class FakeRuns implements SweepRun.Runs {
    final List<Map<String, String>> received = new ArrayList<>();
    final int failing;

    FakeRuns(int failing) {
      this.failing = failing;
    }

    @Override
    public SweepRun.RunResult run(Map<String, String> properties, Path folder) {
      received.add(properties);
      int n = received.size();
      if (n == failing) {
        return new SweepRun.RunResult(1, Optional.empty());
      }
      Path run = folder.resolve("run-" + System.nanoTime());
      try {
        Files.createDirectories(run.resolve("llm"));
        Files.writeString(
            run.resolve("llm/summary.json"),
            "{\"levels\":{\"c4\":{\"completed\":4,\"failed\":0,\"output_throughput\":"
                + (100 * n)
                + ",\"mean_tpot_ms\":"
                + (10 + n)
                + ",\"p99_ttft_ms\":"
                + (100 * n)
                + "}}}");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new SweepRun.RunResult(0, Optional.of(run));
    }
  }

  private int sweep(SweepRun.Runs runs, String... props) {
    Map<String, String> p = new HashMap<>();
    p.put("sweep.resume", dir.toString());
    for (int i = 0; i < props.length; i += 2) {
      p.put(props[i], props[i + 1]);
    }
    BenchSettings s = BenchSettings.from(p, Map.<String, String>of()::get);
    return SweepRun.run(
        s, s.sweep().orElseThrow(), runs, new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  private SweepSummary.Sweep summary() {
    return SweepSummary.read(dir.resolve(SweepSummary.FILE)).sweep();
  }

  @Test
  void aServerThatExitsAtOnceIsRecordedWithItsLogAndTheSweepGoesOn() {
    FakeRuns runs = new FakeRuns(-1);
    int status =
        sweep(
            runs,
            "serve.cmd",
            "simulator",
            "serve.params",
            "max-num-seqs:0,2",
            "sweep",
            "output.len:8,16",
            "slo",
            "ttft.p99:150");
    assertEquals(SweepRun.EXIT_FAILED, status);
    List<Point> points = summary().points();
    assertEquals(4, points.size());
    for (Point p : points.subList(0, 2)) {
      assertEquals(Status.server_failed, p.status());
      assertTrue(p.error().contains("exited with code"), p.error());
      assertTrue(
          String.join("\n", p.logTail()).contains("--max-num-seqs: '0' is invalid"),
          "the server's own words at its log's end: " + p.logTail());
    }
    assertEquals(2, runs.received.size(), "the second server's two runs ran");
    assertTrue(runs.received.get(0).get("base.url").startsWith("http://127.0.0.1:"));
    assertEquals("16", runs.received.get(1).get("output.len"));
    assertNull(runs.received.get(0).get("slo"), "-Dslo is the sweep's, not a search's");
    assertEquals(Status.done, points.get(2).status());
    assertEquals("max-num-seqs=2,output.len=8", summary().best().point(), "TTFT P99 100 <= 150");
    assertEquals(
        List.of("max-num-seqs=2,output.len=16 c4", "max-num-seqs=2,output.len=8 c4"),
        summary().frontier(),
        "more throughput against more tokens per user: both on it");
    assertTrue(Files.exists(dir.resolve("sweep.html")));
    assertTrue(console.toString(StandardCharsets.UTF_8).contains("Sweep Result"));
  }

  @Test
  void aServerNeverReadyIsStoppedAfterTheTimeout() throws Exception {
    int status =
        sweep(
            new FakeRuns(-1),
            "serve.cmd",
            "echo pid $$ port {port}; exec sleep 60",
            "ready.timeout",
            "1",
            "serve.grace",
            "1");
    assertEquals(SweepRun.EXIT_FAILED, status);
    Point p = summary().points().get(0);
    assertEquals(Status.server_failed, p.status());
    assertTrue(p.error().contains("not ready within 1 s"), p.error());
    Matcher m =
        Pattern.compile("pid (\\d+)").matcher(Files.readString(dir.resolve("server-1.log")));
    assertTrue(m.find());
    Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(m.group(1)));
    assertFalse(h.isPresent() && h.get().isAlive(), "the server was stopped");
  }

  @Test
  void aResumedSweepRunsOnlyWhatItHadNotFinished() {
    assertEquals(SweepRun.EXIT_FAILED, sweep(new FakeRuns(2), "sweep", "output.len:8,16,32"));
    List<Point> first = summary().points();
    assertEquals(Status.run_failed, first.get(1).status());
    assertNotNull(first.get(0).levels());
    FakeRuns again = new FakeRuns(-1);
    assertEquals(0, sweep(again, "sweep", "output.len:8,16,32"));
    assertEquals(1, again.received.size(), "only the failed combination ran again");
    assertEquals("16", again.received.get(0).get("output.len"));
    List<Point> after = summary().points();
    assertEquals(first.get(0).run(), after.get(0).run(), "the finished one kept its run");
    assertTrue(after.stream().allMatch(p -> p.status() == Status.done));
  }
}
