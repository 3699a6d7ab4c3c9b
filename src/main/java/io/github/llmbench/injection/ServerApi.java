package io.github.llmbench.injection;

import io.github.llmbench.servers.ServerProfile;
import io.github.llmbench.workload.PreparedWorkload.ContextLength;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The few calls made to the server outside Gatling, each job in its own class: the wait until it is
 * ready ({@link Readiness}), its model list ({@link ModelList}), which server it is ({@link
 * ServerRecognition}), its tokenizer ({@link ServerTokenizers}), its context length ({@link
 * ContextLengths}) and the kit's own calls around the levels (profiler, prefix-cache reset).
 * Bounded in time ({@link ServerHttp}), so an unreachable server fails the run within 10 s.
 */
public final class ServerApi {
  /** How often {@link #awaitReady} says it is still waiting. */
  static final Duration READY_PROGRESS = Duration.ofSeconds(5);

  private final ServerHttp http;
  private final ModelList models;
  private final ServerRecognition recognition;
  private final ServerTokenizers tokenizers;
  private final ContextLengths contextLengths;
  private final Readiness readiness;

  public ServerApi(URI baseUrl, Optional<String> apiKey) {
    this(baseUrl, apiKey, Map.of());
  }

  /**
   * @param headers the user's own headers ({@code -Dheader.<Name>}), sent on every call too
   */
  public ServerApi(URI baseUrl, Optional<String> apiKey, Map<String, String> headers) {
    this.http = new ServerHttp(baseUrl, apiKey, headers);
    this.models = new ModelList(http);
    this.recognition = new ServerRecognition(http, models);
    this.tokenizers = new ServerTokenizers(http);
    this.contextLengths = new ContextLengths(http, models, recognition);
    this.readiness = new Readiness(http);
  }

  /**
   * The ids of {@code GET /v1/models}, in the server's order; empty when the server has no usable
   * model list.
   *
   * @throws TargetException when the server is unreachable or refuses the API key
   */
  public List<String> models() {
    return models.ask();
  }

  /** The {@code Server} header of the {@code GET /v1/models} answer (after {@link #models}). */
  public Optional<String> serverHeader() {
    return models.serverHeader();
  }

  /**
   * Which server this is (after {@link #models}): by its {@code Server} header, the {@code
   * owned_by} of its model cards or its {@code GET /info}; asked once.
   */
  public ServerProfile kind() {
    return recognition.profile();
  }

  /**
   * Whether the server closes the connection after each streamed response although it announces
   * keep-alive, as its {@code Server} header tells (llama.cpp's {@code llama-server}): the kit then
   * asks for a new connection per request ({@code Connection: close}).
   */
  public boolean closesConnectionAfterStream() {
    return recognition.closesConnectionAfterStream();
  }

  /**
   * The server's tokenizer, in whichever known form it answers ({@link ServerTokenizers#find});
   * {@link ServerTokenizer#NONE} when it has none.
   */
  public ServerTokenizer tokenizer(String model) {
    return tokenizers.find(model);
  }

  /** How many tokens (prompt + output) one request may have ({@link ContextLengths}). */
  public Optional<ContextLength> contextLength(String model) {
    return contextLengths.of(model);
  }

  /**
   * The tokens a chat request adds around its content (the chat template and generation prompt), as
   * the server counts them; empty when the server cannot tell.
   */
  public OptionalInt chatTemplateTokens(String model, ServerTokenizer tokenizer, String content) {
    return tokenizers.chatTemplateTokens(model, tokenizer, content);
  }

  /**
   * What the server answered one of the kit's own calls (the profiler's, the prefix cache's reset):
   * its HTTP status, or 0 and why no answer came.
   */
  public record Answer(int status, String failure) {
    public boolean ok() {
      return status >= 200 && status < 300;
    }

    /** {@code HTTP 404}, or why no answer came ({@code connection refused}). */
    public String describe() {
      return status > 0 ? "HTTP " + status : failure;
    }
  }

  /**
   * {@code POST path} without a body (vLLM's {@code /start_profile}, {@code /reset_prefix_cache},
   * SGLang's {@code /flush_cache}), waited for up to {@code timeout}; never throws.
   */
  public Answer post(String path, Duration timeout) {
    return http.postEmpty(path, timeout);
  }

  /**
   * Waits until the server is ready ({@link Readiness}), with a line on {@code out} every {@link
   * #READY_PROGRESS} and once ready.
   *
   * @throws TargetException when it is not ready within {@code timeoutSeconds}
   */
  public void awaitReady(int timeoutSeconds, PrintStream out) {
    awaitReady(timeoutSeconds, out, READY_PROGRESS);
  }

  /** As {@link #awaitReady(int, PrintStream)}, a line every {@code progress} while it waits. */
  void awaitReady(int timeoutSeconds, PrintStream out, Duration progress) {
    readiness.await(timeoutSeconds, out, progress);
  }

  /**
   * Whether the server answers as ready now ({@link Readiness}), each probe within {@code timeout}.
   */
  public boolean ready(Duration timeout) {
    return readiness.notReady(timeout).isEmpty();
  }
}
