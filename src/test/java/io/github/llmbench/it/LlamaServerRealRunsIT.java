package io.github.llmbench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.analysis.CommonServerFigures;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RequestsJsonl;
import io.github.llmbench.simulations.CsvFeederSimulation;
import io.github.llmbench.simulations.ServingBenchmarkSimulation;
import io.github.llmbench.summary.ServerLevelFigures;
import io.github.llmbench.summary.Summary;
import io.github.llmbench.testing.GatlingProcess;
import io.github.llmbench.testing.GatlingRun;
import io.github.llmbench.testing.LlamaServer;
import io.github.llmbench.testing.TestReports;
import io.github.llmbench.testing.TinyLlamaGguf;
import io.github.llmbench.workload.TestTokenizers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user meets on a real server, against llama-server with a vocabulary of single
 * characters ({@link TinyLlamaGguf.Vocabulary#CHARACTERS}: no word is one token) and 4 slots of
 * 1,024 tokens: prompts of exact length all the same, an overlong workload stopped before any load,
 * and a server's HTTP error kept in its own words, failing the run.
 */
@Tag("llama-server")
class LlamaServerRealRunsIT {
  static final int SLOT_CONTEXT = 1024;
  private static LlamaServer server;

  @BeforeAll
  static void startServer() {
    server =
        LlamaServer.start(
            "real-runs-it",
            TinyLlamaGguf.Vocabulary.CHARACTERS,
            Map.of("LLAMA_CTX", String.valueOf(4 * SLOT_CONTEXT), "LLAMA_SLOTS", "4"));
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void promptsAreExactOnAVocabularyWithoutOneTokenWords(@TempDir Path results) throws Exception {
    int inputLen = 120;
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url",
                server.baseUrl().toString(),
                "api",
                "completions",
                "conc",
                "2",
                "prompts",
                "6",
                "input.len",
                String.valueOf(inputLen),
                "output.len",
                "4",
                "timeout",
                "60"));
    String context =
        "\n" + run.console() + "\n--- end of the server's log ---\n" + server.logTail(15);
    assertEquals(0, run.exitCode(), context);
    assertTrue(
        run.console().contains("method: token ids"), "the words cannot be exact here: " + context);
    assertTrue(
        run.console().matches("(?s).*prompts made before the load in [0-9.]+ s: all exact.*"),
        context);

    // the server's own count of each prompt (usage.prompt_tokens) is the dataset's, plus its BOS
    int special = tokens("", true).size();
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(6, records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals(inputLen + special, r.inputTokens(), "usage.prompt_tokens: " + r);
    }
    Summary summary = TestReports.summary(run.runDir());
    Map<String, String> checks = summary.run().serverChecks();
    assertTrue(checks.getOrDefault("lengths", "").contains("all exact"), checks.toString());
    assertEquals("llama.cpp /tokenize + /detokenize", checks.get("tokenizer"));
    assertTrue(
        checks
            .getOrDefault("context", "")
            .startsWith(SLOT_CONTEXT + " tokens per request (n_ctx per slot of GET /props)"),
        checks.toString());

    // llama-server --metrics: its own counts of the level, beside the client's
    assertTrue(
        checks.getOrDefault("metrics", "").startsWith("GET " + server.baseUrl() + "/metrics"),
        checks.toString());
    ServerLevelFigures figures = summary.levels().get("c2").server();
    assertEquals(
        (double) records.stream().mapToLong(RequestRecord::outputTokens).sum(),
        figures.levelFigure(CommonServerFigures.GENERATION_TOKENS),
        figures.toString());
    assertEquals(
        (double) records.stream().mapToLong(RequestRecord::inputTokens).sum(),
        figures.levelFigure(CommonServerFigures.PROMPT_TOKENS),
        "processed + cached prompt tokens: " + figures);
    assertTrue(
        Double.isFinite(figures.levelFigure(CommonServerFigures.PREFIX_CACHE_HIT_RATE)),
        figures.toString());
    // written as null: the server has no such figure
    assertTrue(
        figures.level().has(CommonServerFigures.PREEMPTIONS)
            && figures.level().get(CommonServerFigures.PREEMPTIONS) == null
            && figures.level().has(CommonServerFigures.TTFT_MEAN_MS)
            && figures.level().get(CommonServerFigures.TTFT_MEAN_MS) == null,
        "llama.cpp has neither: " + figures);
  }

  @Test
  void anOverlongWorkloadStopsBeforeAnyLoad(@TempDir Path results) throws Exception {
    double before = promptTokensServed();
    GatlingProcess.Outcome o =
        GatlingProcess.run(
            ServingBenchmarkSimulation.class,
            results,
            120,
            "base.url=" + server.baseUrl(),
            "api=completions",
            "conc=2",
            "prompts=4",
            "input.len=1000",
            "output.len=100");
    assertEquals(3, o.exitCode(), o.stdout() + o.stderr());
    String line =
        o.stderr().lines().filter(l -> l.startsWith("gatling-llm-bench:")).findFirst().orElse("");
    assertTrue(
        line.contains("1000 prompt tokens + max_tokens 100 = 1100 tokens > " + SLOT_CONTEXT)
            && line.contains("n_ctx per slot of GET /props"),
        "one line naming both numbers: " + o.stderr());
    assertEquals(before, promptTokensServed(), "no request reached the server");
  }

  @Test
  void anHttpErrorKeepsTheServersWordsAndFailsTheRun(@TempDir Path results) throws Exception {
    // llama-server refuses a field of the wrong type with HTTP 400 and its reason
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url",
                server.baseUrl().toString(),
                "api",
                "completions",
                "conc",
                "2",
                "prompts",
                "4",
                "input.len",
                "32",
                "output.len",
                "4",
                "extra.body",
                "{\"n_probs\":\"many\"}"));
    assertNotEquals(0, run.exitCode(), "every request failed: the run fails\n" + run.console());
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(4, records.size());
    for (RequestRecord r : records) {
      assertFalse(r.ok());
      assertTrue(
          r.error().startsWith("HTTP 400: ") && r.error().contains("n_probs"),
          "the server's words: " + r.error());
    }
    String gates = Files.readString(run.llm("gates.xml"));
    assertTrue(
        gates.contains("failed.pct") && gates.contains("(default)") && gates.contains("<failure"),
        gates);
    assertTrue(run.console().contains("HTTP 400: "), "the console names the reason");
  }

  @Test
  void theCsvFeederSimulationRunsAsWritten(@TempDir Path results) throws Exception {
    GatlingRun.Result run =
        GatlingRun.run(
            CsvFeederSimulation.class,
            results,
            Map.of("base.url", server.baseUrl().toString(), "timeout", "60"));
    assertEquals(0, run.exitCode(), run.console() + server.logTail(15));
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertTrue(records.size() >= 4, "2 users for 6 s: " + records.size());
    for (RequestRecord r : records) {
      assertTrue(r.ok(), r.toString());
      assertEquals("feeder", r.level());
      assertTrue(
          Set.of(24, 32, 16, 12).contains(r.outputTokens()), "max_tokens from the CSV line: " + r);
    }
    assertTrue(run.console().contains("Serving Benchmark Result"), run.console());
  }

  @Test
  void eachTurnCarriesTheConversationSoFar(@TempDir Path results) throws Exception {
    int inputLen = 40;
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results,
            Map.of(
                "base.url",
                server.baseUrl().toString(),
                "conc",
                "2",
                "prompts",
                "2",
                "turns",
                "3",
                "input.len",
                String.valueOf(inputLen),
                "output.len",
                "6",
                "timeout",
                "60"));
    assertEquals(0, run.exitCode(), run.console() + server.logTail(15));
    List<RequestRecord> records = RequestsJsonl.read(run.llm("requests.jsonl"));
    assertEquals(6, records.size());
    Map<String, List<RequestRecord>> conversations = new HashMap<>();
    records.forEach(
        r ->
            conversations
                .computeIfAbsent(r.origin().conversation(), c -> new ArrayList<>())
                .add(r));
    assertEquals(2, conversations.size());
    for (List<RequestRecord> c : conversations.values()) {
      c.sort(Comparator.comparingInt(r -> r.origin().turn()));
      for (int k = 1; k < 3; k++) {
        RequestRecord before = c.get(k - 1);
        RequestRecord r = c.get(k);
        assertTrue(r.ok() && before.ok(), c.toString());
        // the server counted the earlier prompt, its answer (one character a token here) and a new
        // turn
        assertTrue(
            r.inputTokens() >= before.inputTokens() + before.outputTokens() + inputLen,
            "turn "
                + (k + 1)
                + ": "
                + r.inputTokens()
                + " prompt tokens after "
                + before.inputTokens()
                + " + "
                + before.outputTokens());
      }
    }
    assertTrue(run.console().contains("TTFT by turn"), run.console());
  }

  @Test
  void aLocalTokenizerIsCheckedAgainstTheServers(@TempDir Path results) throws Exception {
    Path matching =
        TinyLlamaGguf.huggingFaceTokenizer(
            Files.createDirectories(results.resolve("tok")), TinyLlamaGguf.Vocabulary.CHARACTERS);
    GatlingRun.Result run =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results.resolve("matching"),
            Map.of(
                "base.url",
                server.baseUrl().toString(),
                "api",
                "completions",
                "conc",
                "2",
                "prompts",
                "4",
                "input.len",
                "50",
                "output.len",
                "4",
                "timeout",
                "60",
                "tokenizer",
                matching.toString()));
    assertEquals(0, run.exitCode(), run.console());
    assertTrue(
        run.console().contains("agrees with the server's /tokenize on 5 texts"), run.console());
    int special = tokens("", true).size();
    for (RequestRecord r : RequestsJsonl.read(run.llm("requests.jsonl"))) {
      assertEquals(
          50 + special,
          r.inputTokens(),
          "made by the local tokenizer, exact by the server's count: " + r);
    }
    Path wrong = TestTokenizers.words(Files.createDirectories(results.resolve("words")));
    GatlingRun.Result other =
        GatlingRun.run(
            ServingBenchmarkSimulation.class,
            results.resolve("wrong"),
            Map.of(
                "base.url",
                server.baseUrl().toString(),
                "api",
                "completions",
                "conc",
                "1",
                "prompts",
                "1",
                "input.len",
                "20",
                "output.len",
                "2",
                "timeout",
                "60",
                "tokenizer",
                wrong.toString()));
    assertTrue(other.console().contains("DISAGREES with the server's /tokenize"), other.console());
  }

  private static List<Integer> tokens(String text, boolean special) throws Exception {
    String body =
        new ObjectMapper()
            .createObjectNode()
            .put("content", text)
            .put("add_special", special)
            .toString();
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/tokenize"))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    List<Integer> ids = new ArrayList<>();
    new ObjectMapper().readTree(r.body()).path("tokens").forEach(t -> ids.add(t.asInt()));
    return ids;
  }

  /** llama-server's {@code llamacpp:prompt_tokens_total} of {@code /metrics}. */
  private static double promptTokensServed() throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    return r.body()
        .lines()
        .filter(l -> l.startsWith("llamacpp:prompt_tokens_total"))
        .mapToDouble(l -> Double.parseDouble(l.split(" ")[1]))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no llamacpp:prompt_tokens_total in /metrics:\n" + r.body()));
  }
}
