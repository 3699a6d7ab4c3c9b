package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.summary.LevelSummary;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.TestReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas behind no load balancer ({@code -Dbase.url=U1,U2}) and a mix of a model and its LoRA
 * adapter ({@code -Dmodel=a,b -Dmodel.weights}), against two simulators that log what they
 * received: each request reached one server once, the one its record names, with the model its
 * record names.
 */
class RoutingIT {

  private static final String BASE = "llmbench/sim-tiny";

  @Test
  void requestsGoInTurnToEachServerAndNameTheirModelsByTheirShares(@TempDir Path results)
      throws Exception {
    SimulatorConfig config =
        SimulatorConfig.defaults()
            .withModel("sim-tiny")
            .withGpu("rtx4090")
            .withLoraModules(List.of("sql"));
    try (VllmSimulator a = VllmSimulator.start(config);
        VllmSimulator b = VllmSimulator.start(config)) {
      GatlingRun.Result run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              results,
              Map.of(
                  "base.url", a.baseUrl() + "," + b.baseUrl(),
                  "model", BASE + ",sql",
                  "model.weights", "0.75,0.25",
                  "conc", "4",
                  "prompts", "80",
                  "input.len", "32",
                  "output.len", "8",
                  "seed", "9"));
      assertEquals(0, run.exitCode(), run.console());
      List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
      assertEquals(80, records.size());
      Map<String, Long> byEndpoint =
          records.stream()
              .collect(Collectors.groupingBy(r -> r.route().endpoint(), Collectors.counting()));
      assertEquals(Map.of(a.baseUrl(), 40L, b.baseUrl(), 40L), byEndpoint, "in turn");
      long sql = records.stream().filter(r -> r.route().model().equals("sql")).count();
      assertTrue(sql >= 10 && sql <= 32, "a quarter of 80 name the adapter: " + sql);

      // the servers' side: every request once, where and as its record says
      Map<String, String> receivedAt = new HashMap<>();
      Map<String, String> modelNamed = new HashMap<>();
      for (VllmSimulator sim : List.of(a, b)) {
        for (VllmSimulator.Received r : sim.received()) {
          assertEquals(
              null, receivedAt.put(r.requestId(), sim.baseUrl()), r.requestId() + " twice");
          modelNamed.put(r.requestId(), r.model());
        }
      }
      assertEquals(80, receivedAt.size(), "requests the servers received");
      for (RequestRecord r : records) {
        assertEquals(r.route().endpoint(), receivedAt.get(r.id()), r.id());
        assertEquals(r.route().model(), modelNamed.get(r.id()), r.id());
      }

      LevelSummary level = TestReports.summary(run.runDir()).levels().get("c4");
      assertEquals(40, level.endpoints().get(a.baseUrl()).completed());
      assertEquals(sql, level.models().get("sql").completed(), level.toString());
      assertEquals(80 - sql, level.models().get(BASE).completed());
      assertTrue(run.console().contains("- Per server -"), run.console());
      assertTrue(run.console().contains("- Per model -"), run.console());
      assertTrue(run.console().contains("picked by the seed"), "the start line gives the shares");
      // both replicas' metrics, added up: the server's count is the client's
      assertEquals(
          80.0 * 8,
          level.server().levelFigure(CommonServerFigures.GENERATION_TOKENS),
          level.server().toString());
      assertTrue(!run.console().contains("or a second replica"), run.console());
      String page = Files.readString(run.runDir().resolve("llm.html"));
      assertTrue(page.contains("Per server (c4)") && page.contains("Per model (c4)"));
    }
  }
}
