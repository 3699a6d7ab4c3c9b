package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.ChunkTokenCounts;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.ScriptedServer;
import io.github.llmbench.workload.TestTokenizers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server without {@code /tokenize} and without usage, with {@code -Dtokenizer}: prompts of
 * exactly {@code input.len} tokens by that tokenizer, output tokens counted from the streamed text,
 * and each record saying where its counts came from.
 */
class LocalTokenizerIT {

  @Test
  void exactPromptsAndCountedOutputsWithoutTheServersHelp(@TempDir Path dir) throws Exception {
    String console = exactPromptsAndCountedOutputs(dir, TestTokenizers.characters(dir, ""));
    assertTrue(
        console.contains("method: token ids turned into text by the local tokenizer's /detokenize"),
        console);
  }

  /**
   * The same run with a tokenizer.json whose {@code "decoder": null} gives no text back: prompts
   * are its pieces joined.
   */
  @Test
  void exactPromptsOnATokenizerWithoutADecoder(@TempDir Path dir) throws Exception {
    String console =
        exactPromptsAndCountedOutputs(dir, TestTokenizers.charactersWithoutDecoder(dir));
    assertTrue(
        console.contains("method: token ids turned into text by joining their vocabulary pieces"),
        console);
  }

  private static String exactPromptsAndCountedOutputs(Path dir, Path tokenizer) throws Exception {
    GatlingRun.Result run;
    List<ScriptedServer.Exchange> exchanges;
    try (ScriptedServer server =
        new ScriptedServer(List.of(ScriptedServer.Behaviour.OK_NO_USAGE))) {
      run =
          GatlingRun.run(
              ServingBenchmarkSimulation.class,
              dir.resolve("results"),
              Map.of(
                  "base.url",
                  server.baseUrl(),
                  "conc",
                  "2",
                  "prompts",
                  "6",
                  "input.len",
                  "60",
                  "output.len",
                  "5",
                  "tokenizer",
                  tokenizer.toString(),
                  "metrics.interval",
                  "0"));
      exchanges = List.copyOf(server.exchanges());
    }
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(
        run.console()
            .contains(
                "tokenizer    local "
                    + tokenizer
                    + " (vocabulary 96); the server has no /tokenize"),
        run.console());
    assertTrue(run.console().contains("method: token ids"), run.console());
    assertTrue(
        run.console().matches("(?s).*prompts made before the load in [0-9.]+ s: all exact.*"),
        run.console());
    ObjectMapper json = new ObjectMapper();
    Map<String, ScriptedServer.Exchange> sent =
        exchanges.stream().collect(Collectors.toMap(e -> e.headers().get("x-request-id"), e -> e));
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(6, records.size());
    for (RequestRecord r : records) {
      String prompt =
          json.readTree(sent.get(r.id()).body()).path("messages").get(0).path("content").asText();
      assertEquals(60, prompt.length(), "60 tokens of one character each: " + prompt);
      assertEquals(60, r.inputTokens(), r.toString());
      assertEquals("tokenizer", r.inputTokensFrom(), r.toString());
      assertEquals(
          sent.get(r.id()).answer().length(),
          r.outputTokens(),
          "the streamed text, one token a character: " + r);
      assertEquals("tokenizer", r.outputTokensFrom(), r.toString());
      assertTrue(!r.outputTokensEstimated(), r.toString());
      // each chunk counted on its own: " r3w0", " r3w1", ... one token a character
      assertArrayEquals(
          java.util.Arrays.stream(sent.get(r.id()).answer().split("(?= )"))
              .mapToInt(String::length)
              .toArray(),
          ChunkTokenCounts.of(r),
          "each chunk's tokens: " + r);
    }
    return run.console();
  }
}
