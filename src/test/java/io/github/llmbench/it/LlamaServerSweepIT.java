package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Point;
import io.github.llmbench.summary.SweepSummary.Status;
import io.github.llmbench.sweep.SweepPage;
import io.github.llmbench.testing.Chromium;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.LlamaServer;
import io.github.llmbench.testing.TinyLlamaGguf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server sweep over llama-server's own settings ({@code --parallel} and {@code --ubatch-size},
 * zipped, one thread), each server started by the kit through {@code scripts/llama-server.sh run},
 * checked from the servers' own logs.
 */
@Tag("llama-server")
class LlamaServerSweepIT {
  @TempDir static Path results;

  private static GatlingProcess.Outcome run;
  private static Path folder;
  private static SweepSummary.Sweep sweep;

  @BeforeAll
  static void sweepTwoServers() throws Exception {
    Path model = LlamaServer.prepared(TinyLlamaGguf.Vocabulary.WORDS);
    run =
        GatlingProcess.run(
            ServingBenchmarkSimulation.class,
            results,
            240,
            "serve.cmd=bash "
                + LlamaServer.script()
                + " run -m "
                + model
                + " -a "
                + LlamaServer.MODEL
                + " --host 127.0.0.1 --port {port} --metrics -c 2048 -t 1",
            "serve.params=parallel:1,2;ubatch-size:32,64",
            "sweep.combine=zip",
            "conc=2",
            "prompts=6",
            "input.len=32",
            "output.len=8",
            "slo=ttft.p99:100000");
    try (Stream<Path> s = Files.list(results)) {
      folder =
          s.filter(p -> p.getFileName().toString().startsWith("sweep-")).findFirst().orElseThrow();
    }
    sweep = SweepSummary.read(folder.resolve(SweepSummary.FILE)).sweep();
  }

  @Test
  void bothServersRanTheirLoad() {
    assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
    assertEquals(2, sweep.points().size());
    assertTrue(sweep.points().stream().allMatch(p -> p.status() == Status.done), sweep.toString());
    assertTrue(run.stdout().contains("Sweep Result"), run.stdout());
  }

  @Test
  void eachServerHadItsSlotsAndGotEachRequestOnce() throws Exception {
    Pattern slot = Pattern.compile("slot launch_slot_: id +(\\d+) ");
    for (Point p : sweep.points()) {
      int parallel = Integer.parseInt(p.server().get("parallel"));
      String log = Files.readString(folder.resolve(p.serverLog()));
      assertTrue(log.contains("n_slots = " + parallel + ","), p.name() + ": " + log);
      assertTrue(
          log.contains("--ubatch-size " + p.server().get("ubatch-size"))
              || log.contains("n_ubatch"),
          "");
      int tasks = 0;
      int highest = -1;
      Matcher m = slot.matcher(log);
      while (m.find()) {
        tasks++;
        highest = Math.max(highest, Integer.parseInt(m.group(1)));
      }
      List<RequestRecord> records =
          RequestsJsonl.read(RunFiles.ofRun(folder.resolve(p.run())).requests());
      assertEquals(6, records.stream().filter(RequestRecord::ok).count(), p.name());
      assertEquals(records.size(), tasks, p.name() + ": one slot task per request");
      assertEquals(parallel - 1, highest, p.name() + ": the slots its --parallel gave it");
    }
  }

  @Test
  void noServerIsLeft() {
    assertTrue(
        ProcessHandle.allProcesses()
            .noneMatch(h -> h.info().commandLine().orElse("").contains(folder.toString())),
        "no process of the sweep");
    assertTrue(
        ProcessHandle.current()
            .descendants()
            .noneMatch(h -> h.info().command().orElse("").contains("llama")),
        "no llama-server under the tests");
  }

  @Test
  @Tag("chromium")
  void itsPageDrawsTheParetoChart() throws Exception {
    Chromium.Dump d = Chromium.open(folder.resolve(SweepPage.FILE));
    Chromium.assertChartsDrawn(d, 1);
    assertTrue(d.dom().contains("parallel=1,ubatch-size=32"), "the combinations are named");
  }
}
