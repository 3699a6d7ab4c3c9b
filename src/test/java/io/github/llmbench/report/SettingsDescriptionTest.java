package io.github.llmbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsDescriptionTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static Map<String, String> describe(Map<String, String> props) {
    return SettingsDescription.of(read(props));
  }

  @Test
  void aTraceSetsTheLoad() {
    Map<String, String> trace =
        describe(Map.of("dataset", "trace:/data/mooncake.jsonl", "trace.speed", "2"));
    assertFalse(trace.containsKey("conc"), "the trace sets the load: " + trace);
  }

  @Test
  void aShardedInjectorSaysItRunsItsShare() {
    assertTrue(
        describe(Map.of("injector", "1/2", "conc", "8"))
            .get("injector")
            .startsWith("1/2 (this process runs its share"));
  }

  @Test
  void anEmbeddingsRunHasNoOutputLength() {
    assertFalse(describe(Map.of("api", "embeddings")).containsKey("output.len"));
    assertEquals("128", describe(Map.of()).get("output.len"));
  }

  @Test
  void theDefaultGatlingRecordsAreNotWorthALine() {
    assertFalse(describe(Map.of()).containsKey("stats.records"), "the default is not worth a line");
  }

  @Test
  void theSimulatorDialectOnlyWhenNotTheDefault() {
    assertEquals("llamacpp", describe(Map.of("sim.dialect", "llamacpp")).get("sim.dialect"));
    assertFalse(describe(Map.of()).containsKey("sim.dialect"));
  }

  @Test
  void theApiKeyIsNeverDescribed() {
    BenchSettings s =
        BenchSettings.from(
            Map.<String, String>of(), Map.of("OPENAI_API_KEY", "sk-secret-123")::get);
    assertFalse(SettingsDescription.of(s).toString().contains("sk-secret-123"));
    assertEquals("set (not shown)", SettingsDescription.of(s).get("OPENAI_API_KEY"));
  }

  @Test
  void headersAreOnlySetAndTheExtraBodySaysWhatItReplaces() {
    Map<String, String> shown =
        describe(
            Map.of(
                "extra.body",
                "{\"temperature\":0.6,\"max_tokens\":64}",
                "header.X-Route",
                "pool-a",
                "header.Authorization",
                "Bearer sk-hidden"));
    assertEquals("<set>", shown.get("header.X-Route"));
    assertEquals("<set>", shown.get("header.Authorization"));
    assertFalse(
        shown.toString().contains("sk-hidden") || shown.toString().contains("pool-a"),
        shown.toString());
    assertTrue(
        shown.get("extra.body").contains("replaces the kit's max_tokens"), shown.get("extra.body"));
  }
}
