package io.github.llmbench;

import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.report.ServingResultBlock;
import io.github.llmbench.report.SummaryJson;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.workload.PromptFactory;
import io.github.llmbench.workload.RequestBodies;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a simulation needs to load an LLM server: the settings, the server (the embedded simulator
 * when none is given), the prompts, the streaming scenario, and the end-of-run summary.
 *
 * <p>Simulations stay thin: they create one of these, inject its scenario, and call {@link
 * #finish()} from {@code after()}.
 */
public final class LlmBench {
  public static final String SUMMARY_FILE = "summary.json";

  /** Exit status for a bad setting or an unusable server (Gatling uses 1 and 2 itself). */
  public static final int EXIT_BAD_INPUT = 3;

  private final BenchSettings settings;
  private final Target target;
  private final PromptFactory prompts;
  private final int promptWords;
  private final String promptNote;
  private final RunRecorder recorder;
  private final StreamCapture capture;
  private final long createdMs = System.currentTimeMillis();
  private final PrintStream out = System.out;

  private LlmBench(BenchSettings settings) {
    this.settings = settings;
    this.recorder = new RunRecorder(() -> RunDirectory.llmFolder(createdMs));
    this.target = Target.resolve(settings);
    try {
      this.prompts = PromptFactory.fromBaseText();
      String sample = prompts.prompt(1000, ThreadLocalRandom.current());
      OptionalInt counted = target.api().countTokens(target.model(), sample);
      double tokensPerWord =
          counted.isPresent() && counted.getAsInt() > 0
              ? counted.getAsInt() / 1000.0
              : PromptFactory.ESTIMATED_TOKENS_PER_WORD;
      this.promptWords = PromptFactory.wordsFor(settings.inputLen(), tokensPerWord);
      this.promptNote =
          counted.isPresent()
              ? String.format(java.util.Locale.ROOT, "%d words (%.2f tokens/word by the server's /tokenize)", promptWords, tokensPerWord)
              : String.format(java.util.Locale.ROOT, "%d words (ESTIMATED at %.1f tokens/word: the server has no /tokenize)", promptWords, tokensPerWord);
      this.capture =
          new StreamCapture(
              recorder,
              Duration.ofSeconds(settings.timeoutSeconds()),
              settings.api().path(),
              settings.outputLen());
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
    printSettings();
  }

  /**
   * Reads the settings and prepares the server. On a bad setting or an unusable server it prints
   * one line and ends the JVM (status {@value #EXIT_BAD_INPUT}) before any load is sent: Gatling would otherwise print a
   * stack trace.
   */
  public static LlmBench start() {
    try {
      return create(BenchSettings.fromSystem());
    } catch (SettingsException | TargetException e) {
      System.out.flush();
      System.err.println("gatling-llm-bench: " + e.getMessage());
      System.err.flush();
      Runtime.getRuntime().halt(EXIT_BAD_INPUT);
      throw e;
    }
  }

  /** Like {@link #start()}, but throws instead of ending the JVM (for tests and embedding). */
  public static LlmBench create(BenchSettings settings) {
    return new LlmBench(settings);
  }

  public BenchSettings settings() {
    return settings;
  }

  /** The load level tag of a closed-model run at {@code conc}: records read {@code c128 / TTFT}. */
  public static String level(int conc) {
    return "c" + conc;
  }

  /** HTTP settings: the server, the API key, one shared connection pool (as vLLM's client). */
  public HttpProtocolBuilder http() {
    HttpProtocolBuilder h =
        http.baseUrl(target.baseUrl().toString())
            .shareConnections()
            .disableWarmUp()
            .sseUnmatchedInboundMessageBufferSize(capture.bufferSize());
    if (settings.apiKey().isPresent()) {
      h = h.header("Authorization", "Bearer " + settings.apiKey().get());
    }
    return h;
  }

  /** One virtual user = one streaming request, inside the group of its level. */
  public ScenarioBuilder streamingScenario(String level) {
    return scenario("llm " + level).exec(group(level).on(capture.request(level, s -> newBody())));
  }

  /** The run's hard stop: the load, then time for the last requests to finish or time out. */
  public Duration maxDuration() {
    return Duration.ofSeconds(settings.durationSeconds() + settings.timeoutSeconds() + 30L);
  }

  private String newBody() {
    String prompt = prompts.prompt(promptWords, ThreadLocalRandom.current());
    return RequestBodies.streaming(settings.api(), target.model(), prompt, settings.outputLen());
  }

  private void printSettings() {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown = new LinkedHashMap<>(settings.describe());
    shown.put("base.url", target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    shown.put("model", target.model());
    shown.put("prompt", promptNote);
    shown.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
  }

  /**
   * Ends the run: records the requests still in flight as failed, prints the {@code Serving
   * Benchmark Result} block, writes {@code llm/summary.json}, stops the embedded simulator.
   */
  public void finish() {
    try {
      List<RequestRecord> records =
          recorder.close(System.currentTimeMillis(), "unfinished when the run ended");
      Path dir = recorder.directory();
      ServingMetrics metrics = ServingMetricsCalculator.compute(records, settings.conc());
      out.println();
      out.print(ServingResultBlock.format(metrics));
      Map<String, Object> meta = new LinkedHashMap<>();
      meta.put("date", SummaryJson.date(LocalDateTime.now()));
      meta.put("backend", target.embedded() ? "vllm-simulator" : "openai-" + settings.api().id());
      meta.put("model_id", target.model());
      meta.put("base_url", target.baseUrl().toString());
      meta.put("endpoint", settings.api().path());
      meta.put("input_len", settings.inputLen());
      meta.put("output_len", settings.outputLen());
      meta.put("duration_setting_s", settings.durationSeconds());
      meta.put("settings", settings.describe());
      SummaryJson.write(
          dir.resolve(SUMMARY_FILE),
          SummaryJson.build(meta, metrics, Map.of(level(settings.conc()), metrics)));
      out.println("Per-request records: " + dir.resolve(RunRecorder.FILE_NAME));
      out.println("Summary:             " + dir.resolve(SUMMARY_FILE));
    } finally {
      target.close();
    }
  }
}
