package io.github.llmbench.capture;

import io.gatling.javaapi.core.Session;
import io.github.llmbench.core.Metric;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.records.RunRecorder;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a {@link StreamCapture} is told: where its requests go and how, how their answers are read
 * and counted, and where their records go. Made by name with its {@link #builder()}; each option's
 * setter says what it is and its default.
 *
 * @param recorder where the records go; null: nowhere (tests)
 * @param clientProbe watches the requests' event loops; null: none
 * @param timeout how long a request may take
 * @param baseUrl the server
 * @param endpoint the endpoint: its path, how its answer is read, its records' figures
 * @param apiKey sent as a bearer token
 * @param extraHeaders the user's own headers
 * @param closeConnection whether to ask the server to close the connection after each response
 * @param maxOutputTokens the largest {@code max_tokens} any request asks for
 * @param gatlingMetrics the latencies Gatling's stats get
 * @param keepAnswers whether each completed request's text goes into the session
 * @param outputCounter counts a streamed answer's tokens when the stream has no usage; or null
 * @param countedInputTokens the request's prompt tokens by the local tokenizer, or null
 * @param cancelling which requests the client cancels on purpose
 * @param baseUrls the servers sent to in turn, when more than one
 * @param namedServer whether each record names its server even when there is one
 */
public record CaptureOptions(
    RunRecorder recorder,
    ClientProbe clientProbe,
    Duration timeout,
    URI baseUrl,
    Endpoint endpoint,
    Optional<String> apiKey,
    Map<String, String> extraHeaders,
    boolean closeConnection,
    int maxOutputTokens,
    Set<Metric> gatlingMetrics,
    boolean keepAnswers,
    TokenCounter outputCounter,
    Function<Session, Integer> countedInputTokens,
    Cancelling cancelling,
    List<URI> baseUrls,
    boolean namedServer) {

  public CaptureOptions {
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(endpoint, "endpoint");
  }

  /** Options to set by name, then {@link Builder#build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The options set by name; the server ({@link #baseUrl}), the endpoint ({@link #endpoint}) and
   * the {@link #timeout} are required, the rest have the defaults their setters say.
   */
  public static final class Builder {
    private RunRecorder recorder;
    private ClientProbe clientProbe;
    private Duration timeout;
    private URI baseUrl;
    private Endpoint endpoint;
    private Optional<String> apiKey = Optional.empty();
    private Map<String, String> extraHeaders = Map.of();
    private boolean closeConnection;
    private int maxOutputTokens;
    private Set<Metric> gatlingMetrics = Set.of();
    private boolean keepAnswers;
    private TokenCounter outputCounter;
    private Function<Session, Integer> countedInputTokens = session -> null;
    private Cancelling cancelling = Cancelling.NONE;
    private List<URI> baseUrls = List.of();
    private boolean namedServer;

    private Builder() {}

    /** Where the records go; null: nowhere (tests). */
    public Builder recorder(RunRecorder recorder) {
      this.recorder = recorder;
      return this;
    }

    /** Watches the event loops of the requests from the first one on; null (default): none. */
    public Builder clientProbe(ClientProbe probe) {
      this.clientProbe = probe;
      return this;
    }

    /** How long a request may take, whole seconds (at least 1). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** The server, e.g. {@code http://127.0.0.1:8000}, with no trailing '/'. */
    public Builder baseUrl(URI baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The endpoint: its path, how its answer is read and the figures its records have. */
    public Builder endpoint(Endpoint endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** Sent as {@code Authorization: Bearer ...}, never logged; empty (default): none. */
    public Builder apiKey(Optional<String> apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /**
     * The user's own headers ({@code -Dheader.<Name>}), set after the kit's (so they win), never
     * logged; default none.
     */
    public Builder extraHeaders(Map<String, String> headers) {
      this.extraHeaders = headers;
      return this;
    }

    /**
     * Whether to ask the server to close the connection after each response (llama-server closes it
     * anyway: reusing it would fail the next request); default false.
     */
    public Builder closeConnection(boolean close) {
      this.closeConnection = close;
      return this;
    }

    /** The largest {@code max_tokens} any request asks for. */
    public Builder maxOutputTokens(int max) {
      this.maxOutputTokens = max;
      return this;
    }

    /**
     * The latencies Gatling's stats get ({@link GatlingResponseLog#recordName}): E2EL is the
     * request's own record, always there; ITL costs one record per chunk gap. Default: E2EL alone.
     */
    public Builder gatlingMetrics(Set<Metric> metrics) {
      this.gatlingMetrics = metrics;
      return this;
    }

    /**
     * Whether each completed request's generated text goes into the session ({@value
     * StreamCapture#ANSWER}), for conversations that send it back; off (default), the text is not
     * copied.
     */
    public Builder keepAnswers(boolean keep) {
      this.keepAnswers = keep;
      return this;
    }

    /**
     * Counts a streamed answer's tokens when the stream has no usage (the answer is then kept);
     * null (default): none.
     */
    public Builder outputCounter(TokenCounter counter) {
      this.outputCounter = counter;
      return this;
    }

    /**
     * The request's prompt tokens by the local tokenizer, from its session, used when the stream
     * has no usage; default: unknown (null).
     */
    public Builder countedInputTokens(Function<Session, Integer> counted) {
      this.countedInputTokens = counted;
      return this;
    }

    /** Which requests the client cancels on purpose ({@code -Dcancel.pct}); default none. */
    public Builder cancelling(Cancelling cancelling) {
      this.cancelling = cancelling;
      return this;
    }

    /**
     * Sends the requests in turn to each of these servers (replicas behind no load balancer), each
     * record naming its own; fewer than two (default): the {@link #baseUrl} alone, no name.
     */
    public Builder spreadOver(List<URI> baseUrls) {
      this.baseUrls = baseUrls;
      return this;
    }

    /**
     * Whether each record names its server even when the capture has one (each side of an
     * interleaved A/B run); default false: only servers {@link #spreadOver} several are named.
     */
    public Builder namedServer(boolean named) {
      this.namedServer = named;
      return this;
    }

    /** The options set. */
    public CaptureOptions build() {
      return new CaptureOptions(
          recorder,
          clientProbe,
          timeout,
          baseUrl,
          endpoint,
          apiKey,
          extraHeaders,
          closeConnection,
          maxOutputTokens,
          gatlingMetrics,
          keepAnswers,
          outputCounter,
          countedInputTokens,
          cancelling,
          baseUrls,
          namedServer);
    }
  }
}
