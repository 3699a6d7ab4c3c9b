package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.FailureReasons;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.report.page.Html;
import io.github.llmbench.summary.FailureCount;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded simulator's faults on demand ({@code -Dsim.faults}), each seen by the kit as the
 * right failure, and reported by reason on the console, in summary.json and on llm.html.
 */
class SimulatorFaultsIT {

  @Test
  void everyFaultModeIsTheRightFailure(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            FixedRequestsSimulation.class,
            results,
            Map.of(
                "sim.model", "sim-tiny",
                "sim.gpu", "rtx4090",
                "sim.faults", "429:0.15,500:0.15,error:0.15,cut:0.15,stall:0.15:8",
                "conc", "10",
                "it.requests", "60",
                "output.len", "20",
                "input.len", "20",
                "timeout", "5"));
    assertEquals(0, run.exitCode());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(60, records.size());
    Map<String, Long> byError =
        records.stream()
            .filter(r -> !r.ok())
            .collect(Collectors.groupingBy(r -> kind(r.error()), Collectors.counting()));
    assertTrue(byError.containsKey("HTTP 429"), byError.toString());
    assertTrue(byError.containsKey("HTTP 500"), byError.toString());
    assertTrue(byError.containsKey("error event"), byError.toString());
    assertTrue(byError.containsKey("stream cut"), byError.toString());
    assertTrue(byError.containsKey("timeout"), byError.toString());
    assertEquals(5, byError.size(), byError.toString());
    assertTrue(records.stream().anyMatch(RequestRecord::ok), "some requests are served");
    for (RequestRecord r : records) {
      if (r.ok()) {
        assertEquals(20, r.outputTokens());
      }
    }

    // the reasons, most frequent first: a console line each, in summary.json and on llm.html
    FailureReasons reasons = FailureReasons.of(records, FailureReasons.TOP);
    Map<String, LevelSummary> levels = TestReports.summary(run.runDir()).levels();
    assertEquals(1, levels.size(), levels.toString());
    String level = levels.keySet().iterator().next();
    List<FailureCount> failures = levels.get(level).failures();
    assertEquals(reasons.top().size(), failures.size(), failures.toString());
    String page = Files.readString(run.runDir().resolve("llm.html"));
    assertTrue(
        page.contains("Failed requests (" + level + "): " + reasons.failed() + ", by reason"),
        level);
    for (int i = 0; i < reasons.top().size(); i++) {
      FailureReasons.Reason r = reasons.top().get(i);
      assertTrue(i == 0 || r.count() <= reasons.top().get(i - 1).count(), reasons.toString());
      assertEquals(r.error(), failures.get(i).error());
      assertEquals(r.count(), failures.get(i).count());
      assertTrue(
          run.console().contains(String.format(Locale.ROOT, "\n%4d  %s\n", r.count(), r.error())),
          r + " in\n" + run.console());
      assertTrue(page.contains(Html.esc(r.error())), r.error());
    }
  }

  private static String kind(String error) {
    if (error.startsWith("error event")) {
      return "error event";
    }
    if (error.startsWith("stream cut before [DONE]")) {
      return "stream cut";
    }
    if (error.startsWith("timeout: no [DONE] within 5 s")) {
      return "timeout";
    }
    if (error.matches("HTTP \\d{3}: simulated fault: .+")) {
      return error.substring(0, 8); // the status, then the server's own message
    }
    return error;
  }
}
