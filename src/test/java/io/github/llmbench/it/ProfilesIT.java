package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.testing.GatlingReport;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Profiles run one after another, each request tagged with its profile down to Gatling's groups.
 */
class ProfilesIT {

  @Test
  void profilesInOrderWithARowEach(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "dataset", "profiles",
                "profiles", "tiny:SS,LS",
                "conc", "2",
                "prompts", "4",
                // LS prompts are ~7k tokens: more than sim-tiny's context
                "sim.model", "qwen2.5-0.5b-instruct",
                "sim.gpu", "rtx4090"));
    assertEquals(0, run.exitCode());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    List<RequestRecord> ss = records.stream().filter(r -> "SS".equals(r.profile())).toList();
    List<RequestRecord> ls = records.stream().filter(r -> "LS".equals(r.profile())).toList();
    assertEquals(4, ss.size());
    assertEquals(4, ls.size());
    assertTrue(
        records.stream().allMatch(r -> r.ok() && r.outputTokens() == 8 && r.level().equals("c2")));
    long ssEnd = ss.stream().mapToLong(RequestRecord::endMs).max().orElseThrow();
    long lsStart = ls.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
    assertTrue(ssEnd <= lsStart, "SS must drain before LS starts");
    // LS prompts repeat the sentence 400 times, SS 40 times
    int ssIn = ss.get(0).inputTokens();
    int lsIn = ls.get(0).inputTokens();
    assertTrue(lsIn > 9 * ssIn && lsIn < 11 * ssIn, ssIn + " vs " + lsIn);

    RunInfo summary = TestReports.summary(run.runDir()).run();
    assertEquals("profiles:tiny:SS,LS", summary.dataset());
    assertEquals(4, summary.profiles().get("c2/SS").completed());
    assertEquals(4, summary.profiles().get("c2/LS").completed());
    // Gatling's report shows each profile's streams as c2 / SS / request, one record per stream
    GatlingReport report = GatlingReport.of(run.runDir());
    assertEquals(4, report.request(List.of("c2", "SS"), "request").orElseThrow().total());
    assertEquals(4, report.request(List.of("c2", "LS"), "request").orElseThrow().total());
    assertEquals(records.size(), report.global().total());
  }
}
