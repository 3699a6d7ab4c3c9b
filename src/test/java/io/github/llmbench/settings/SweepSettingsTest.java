package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.SloFigure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void aServerSweepCrossesItsParametersAndKeepsTheOtherSettingsForItsRuns() {
    SweepSettings s =
        read(Map.of(
                "serve.cmd", "vllm serve m --port {port}",
                "serve.params", "max-num-seqs:64,128;max-num-batched-tokens:2048,8192",
                "conc", "8",
                "slo", "ttft.p99:300"))
            .sweep()
            .orElseThrow();
    assertEquals(4, s.serverCombinations().size());
    assertEquals(
        Map.of("max-num-seqs", "64", "max-num-batched-tokens", "8192"),
        s.serverCombinations().get(1));
    assertEquals(List.of(Map.of()), s.workloadCombinations(), "one run per server");
    assertEquals(
        Duration.ofSeconds(SweepSettings.DEFAULT_READY_SECONDS), s.serve().get().readyTimeout());
    assertEquals(Duration.ofSeconds(30), s.serve().get().grace());
    assertEquals(Map.of("conc", "8"), s.runProperties(), "the sweep's own and -Dslo stay here");
    assertEquals(300.0, s.slo().get(SloFigure.parse("ttft.p99").get()));
  }

  @Test
  void aWorkloadSweepZipsOnRequestAndPassesSloToASearch() {
    SweepSettings s =
        read(Map.of(
                "sweep", "input.len:128,1024;output.len:64,256",
                "sweep.combine", "zip",
                "search", "conc",
                "slo", "ttft.p99:300"))
            .sweep()
            .orElseThrow();
    assertEquals(2, s.workloadCombinations().size());
    assertEquals(Map.of("input.len", "1024", "output.len", "256"), s.workloadCombinations().get(1));
    assertTrue(s.serve().isEmpty());
    assertEquals("ttft.p99:300", s.runProperties().get("slo"), "each run's search meets it too");
  }

  @Test
  void noSweepWithoutItsSettings() {
    assertTrue(read(Map.of()).sweep().isEmpty());
    assertTrue(error(Map.of("serve.params", "a:1")).contains("applies to a sweep"));
    assertTrue(error(Map.of("slo", "ttft.p99:300")).contains("capacity search"));
  }

  @Test
  void badSweepsAreOneLineBeforeAnyServerStarts() {
    assertTrue(
        error(Map.of("serve.cmd", "vllm serve m")).contains("a command with {port}"),
        "no port and no -Dbase.url");
    assertTrue(
        error(Map.of("serve.cmd", "x --port {port}", "base.url", "http://127.0.0.1:8000"))
            .contains("no -Dbase.url"));
    assertEquals(
        "Invalid -Dserve.cmd=vllm serve m --port {port} {max_num_seq}: expected {port} or {NAME}"
            + " of a -Dserve.params name (max_num_seqs), not {max_num_seq} (\\{max_num_seq}"
            + " outside quotes is that text)",
        error(
            Map.of(
                "serve.cmd", "vllm serve m --port {port} {max_num_seq}",
                "serve.params", "max_num_seqs:1,2")));
    assertEquals(
        "Invalid -Dserve.cmd=vllm serve 'm --port {port}: expected a command whose quotes close"
            + " (the ' at character 12 is never closed)",
        error(Map.of("serve.cmd", "vllm serve 'm --port {port}")));
    assertTrue(error(Map.of("sweep", "input.len:128,;output.len:1")).contains("empty value"));
    assertTrue(error(Map.of("sweep", "bogus.len:1,2")).contains("not bogus.len"));
    assertTrue(error(Map.of("sweep", "base.url:a,b")).contains("sets itself"));
    assertTrue(
        error(Map.of("sweep", "conc:1,2;output.len:1", "sweep.combine", "zip"))
            .contains("as many values each"));
    assertTrue(
        error(Map.of("sweep", "conc:1,2", "injector", "0/2", "seed", "1")).contains("-Dinjector"));
    assertTrue(
        error(Map.of("sweep", "conc:1,2", "sweep.resume", "/no/such/folder"))
            .contains("sweep.resume"));
  }

  @Test
  void theSimulatorNeedsNoPort() {
    SweepSettings s =
        read(Map.of(
                "serve.cmd", "simulator", "serve.params", "max-num-seqs:1,2", "ready.timeout", "5"))
            .sweep()
            .orElseThrow();
    assertEquals(Duration.ofSeconds(5), s.serve().get().readyTimeout());
    assertFalse(s.runProperties().containsKey("serve.cmd"));
  }

  @Test
  void gpusAreANumberOrTheServersParameterThatGivesThem() {
    SweepSettings s =
        read(Map.of(
                "serve.cmd", "vllm serve m --port {port}",
                "serve.params", "tensor-parallel-size:1,2,4",
                "gpus", "tensor-parallel-size"))
            .sweep()
            .orElseThrow();
    assertEquals(4, s.gpusOf(s.serverCombinations().get(2)));
    assertEquals(
        8, read(Map.of("sweep", "conc:1,2", "gpus", "8")).sweep().orElseThrow().gpusOf(Map.of()));
    assertTrue(error(Map.of("sweep", "conc:1,2", "gpus", "tp")).contains("-Dgpus=tp"));
    assertTrue(error(Map.of("gpus", "2")).contains("applies to a sweep"));
  }

  @Test
  void sweepFilesAreVllmsListsOfCombinations(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path serve = dir.resolve("serve.json");
    java.nio.file.Files.writeString(
        serve,
        "[{\"max_num_seqs\": 32, \"max_num_batched_tokens\": 1024},"
            + " {\"max_num_seqs\": 64, \"max_num_batched_tokens\": 1024},"
            + " {\"max_num_seqs\": 64, \"max_num_batched_tokens\": 2048}]");
    java.nio.file.Path bench = dir.resolve("bench.json");
    java.nio.file.Files.writeString(
        bench,
        "[{\"random_input_len\": 128, \"max_concurrency\": 8}, {\"random_input_len\": 1024, \"max_concurrency\": 4}]");
    SweepSettings s =
        read(Map.of(
                "serve.cmd", "vllm serve m --port {port}",
                "serve.params", "@" + serve,
                "sweep", "@" + bench))
            .sweep()
            .orElseThrow();
    assertEquals(3, s.serverCombinations().size(), "exactly the file's, not crossed");
    assertEquals(
        Map.of("max_num_seqs", "64", "max_num_batched_tokens", "2048"),
        s.serverCombinations().get(2));
    assertEquals(
        List.of(Map.of("input.len", "128", "conc", "8"), Map.of("input.len", "1024", "conc", "4")),
        s.workloadCombinations(),
        "vllm bench serve's names read as the kit's");
    java.nio.file.Files.writeString(bench, "[{\"input_len\": 1}, {\"output_len\": 2}]");
    String different = error(Map.of("sweep", "@" + bench));
    assertTrue(different.contains("every combination naming the same settings"), different);
    java.nio.file.Files.writeString(bench, "{\"input_len\": 1}");
    String notAList = error(Map.of("sweep", "@" + bench));
    assertTrue(notAList.contains("a JSON list of objects"), notAList);
    assertTrue(
        error(Map.of("sweep", "@" + dir.resolve("none.json"))).contains("a readable JSON file"));
  }
}
