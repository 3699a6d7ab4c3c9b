package io.github.llmbench.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.ClientSample;
import io.github.llmbench.records.ItlSeries;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.simulator.SimSpeculation;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.telemetry.LiveMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/grafana/llm-bench-dashboard.json} loads as Grafana imports a dashboard: its
 * structure (inputs, panels with unique ids, a place on the grid and queries with unique refIds on
 * the declared data source, annotations, variables), and every series it queries is one the kit's
 * live export or the vLLM simulator's {@code /metrics} serves (with its DCGM stand-in, speculative
 * decoding and disaggregation on), so no panel stays empty by a typo.
 */
class GrafanaDashboardTest {

  private static final Path FILE = Path.of("deploy/grafana/llm-bench-dashboard.json");
  private static final Pattern SERIES =
      Pattern.compile("\\b(llmbench_[a-z0-9_]+|vllm:[a-z0-9_]+|DCGM_[A-Z0-9_]+)");

  private static JsonNode dashboard() throws Exception {
    return new ObjectMapper().readTree(FILE.toFile());
  }

  @Test
  void itHasWhatGrafanaImportsAndNothingPointsElsewhere() throws Exception {
    JsonNode d = dashboard();
    for (String key :
        new String[] {
          "title", "uid", "schemaVersion", "panels", "templating", "annotations", "__inputs"
        }) {
      assertTrue(d.has(key), key);
    }
    assertEquals("DS_PROMETHEUS", d.path("__inputs").get(0).path("name").asText());
    Set<Integer> ids = new HashSet<>();
    for (JsonNode p : d.path("panels")) {
      assertTrue(ids.add(p.path("id").asInt()), "panel ids unique: " + p.path("id"));
      for (String g : new String[] {"h", "w", "x", "y"}) {
        assertTrue(p.path("gridPos").path(g).isInt(), p.path("title") + " gridPos." + g);
      }
      assertTrue(
          p.path("gridPos").path("x").asInt() + p.path("gridPos").path("w").asInt() <= 24,
          "within the grid");
      Set<String> refs = new HashSet<>();
      for (JsonNode t : p.path("targets")) {
        assertTrue(refs.add(t.path("refId").asText()), p.path("title") + ": refIds unique");
        assertFalse(t.path("expr").asText().isBlank());
        assertEquals("${DS_PROMETHEUS}", t.path("datasource").path("uid").asText());
      }
      assertFalse(refs.isEmpty(), p.path("title") + " queries something");
    }
    JsonNode level = d.path("annotations").path("list").get(1);
    assertEquals("llmbench_level_info == 1", level.path("expr").asText(), "levels as annotations");
  }

  @Test
  void everySeriesItQueriesIsServedByTheExportOrTheSimulator() throws Exception {
    LiveMetrics live = new LiveMetrics(Map.of("model", "m", "endpoint", "chat"));
    live.started("c1", null);
    live.finished(
        RequestRecord.builder()
            .id("a")
            .level("c1")
            .ok(true)
            .ttftMicros(1000)
            .tpotMicros(1000)
            .e2elMicros(5000)
            .itl(ItlSeries.ofMicros(1000))
            .build());
    live.clientSample(
        new ClientSample(
            1000,
            1000,
            new ClientSample.Cpu(2, 1_000_000, new long[] {500_000}),
            new ClientSample.Memory(0, 0),
            new ClientSample.Lag(new long[] {20}, new int[] {10}, 0, 0)));
    String served = live.text();
    // speculative and disaggregated, so every series a panel may query is there
    try (VllmSimulator sim =
        VllmSimulator.start(
            SimulatorConfig.defaults()
                .withModel("sim-tiny")
                .withGpu("rtx4090")
                .withSpeculation(new SimSpeculation(2, 0.5))
                .withKvTransfer(10))) {
      served +=
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/metrics")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    }
    Set<String> queried = new TreeSet<>();
    Matcher m = SERIES.matcher(dashboard().toString());
    while (m.find()) {
      queried.add(m.group(1));
    }
    assertTrue(queried.size() > 10, queried.toString());
    for (String name : queried) {
      // DCGM's names too: the simulator serves a stand-in of NVIDIA's exporter
      assertTrue(
          Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(served).find(),
          name + " is served");
    }
  }
}
