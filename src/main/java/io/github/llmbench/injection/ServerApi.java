package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.core.Level;
import io.github.llmbench.workload.PreparedWorkload.ContextLength;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The few calls made to the server before the load starts, outside Gatling: its model list and its
 * tokenizer. Bounded in time, so an unreachable server fails the run within 10 s.
 */
public final class ServerApi {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(4);
  static final Duration REQUEST_TIMEOUT =
      Duration.ofSeconds(5); // with the connect timeout: under 10 s
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI baseUrl;
  private final Optional<String> apiKey;
  private final HttpClient client;
  private final Map<String, String> headers;
  private volatile String serverHeader;
  private volatile JsonNode modelList;
  private volatile ServerKind kind;
  private volatile Optional<JsonNode> tgiInfo;

  public ServerApi(URI baseUrl, Optional<String> apiKey) {
    this(baseUrl, apiKey, Map.of());
  }

  /**
   * @param headers the user's own headers ({@code -Dheader.<Name>}), sent on every call too
   */
  public ServerApi(URI baseUrl, Optional<String> apiKey, Map<String, String> headers) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.headers = Map.copyOf(headers);
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  /**
   * The ids of {@code GET /v1/models}, in the server's order; empty when the server has no usable
   * model list.
   *
   * @throws TargetException when the server is unreachable or refuses the API key
   */
  public List<String> models() {
    HttpResponse<String> response = send(request("/v1/models").GET().build(), "GET /v1/models");
    serverHeader = response.headers().firstValue("Server").orElse(null);
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw new TargetException(
          "The server at "
              + baseUrl
              + " refused GET /v1/models with HTTP "
              + response.statusCode()
              + ": set the environment variable OPENAI_API_KEY to its API key");
    }
    if (response.statusCode() != 200) {
      return List.of(); // some OpenAI-compatible servers have no model list: -Dmodel then names it
    }
    List<String> ids = new ArrayList<>();
    try {
      modelList = JSON.readTree(response.body());
      JsonNode data = modelList.path("data");
      for (JsonNode m : data) {
        if (m.hasNonNull("id")) {
          ids.add(m.get("id").asText());
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    return ids;
  }

  /** The {@code Server} header of the {@code GET /v1/models} answer (after {@link #models}). */
  public Optional<String> serverHeader() {
    return Optional.ofNullable(serverHeader);
  }

  /**
   * Which server this is (after {@link #models}): llama.cpp by its {@code Server} header, vLLM,
   * SGLang and trtllm-serve by the {@code owned_by} of their model cards, TGI by its {@code GET
   * /info}; asked once.
   */
  public ServerKind kind() {
    ServerKind k = kind;
    if (k == null) {
      k = detectKind();
      kind = k;
    }
    return k;
  }

  private ServerKind detectKind() {
    if (closesConnectionAfterStream()) {
      return ServerKind.LLAMACPP;
    }
    JsonNode list = modelList;
    if (list != null) {
      for (JsonNode m : list.path("data")) {
        ServerKind owner = ServerKind.ofOwner(m.path("owned_by").asText(null));
        if (owner != ServerKind.OTHER) {
          return owner;
        }
      }
    }
    return tgiInfo().isPresent() ? ServerKind.TGI : ServerKind.OTHER;
  }

  /** TGI's {@code GET /info} when the server answers it with {@code max_total_tokens}. */
  private Optional<JsonNode> tgiInfo() {
    Optional<JsonNode> info = tgiInfo;
    if (info == null) {
      info = get("/info").filter(i -> i.path("max_total_tokens").canConvertToInt());
      tgiInfo = info;
    }
    return info;
  }

  /**
   * Whether the server closes the connection after each streamed response although it announces
   * keep-alive: llama.cpp's {@code llama-server} ({@code Server: llama.cpp}) does. A client that
   * reuses such a connection races the server's close and its next request fails at once, so the
   * kit then asks for a new connection per request ({@code Connection: close}).
   */
  public boolean closesConnectionAfterStream() {
    return serverHeader()
        .map(h -> h.toLowerCase(Locale.ROOT).startsWith("llama.cpp"))
        .orElse(false);
  }

  /**
   * The server's tokenizer: {@code POST /tokenize} in vLLM's form ({@code {"model","prompt"}} ->
   * {@code {"count","tokens"}}; SGLang's too), llama.cpp's ({@code {"content"}} -> {@code
   * {"tokens":[...]}}) or TGI's ({@code {"inputs"}} -> {@code [{"id",...}]}), whichever the server
   * answers, and {@code POST /detokenize} in the same form ({@code {"model","tokens"}} -> {@code
   * {"prompt"}}, SGLang's {@code {"text"}}, or {@code {"tokens"}} -> {@code {"content"}}) when it
   * has one; {@link ServerTokenizer#NONE} when no form counts (trtllm-serve has no public tokenizer
   * endpoint).
   */
  public ServerTokenizer tokenizer(String model) {
    for (Form form : Form.values()) {
      HttpTokenizer t = new HttpTokenizer(form, model, true);
      if (t.count("hello").isPresent()) {
        int[] ids = t.encode("hello").orElse(new int[0]);
        boolean decodes = ids.length > 0 && t.decode(ids).isPresent();
        return new HttpTokenizer(form, model, decodes);
      }
    }
    return ServerTokenizer.NONE;
  }

  /**
   * The shapes of the tokenizer endpoints: vLLM's (SGLang's too, whose {@code /detokenize} answers
   * {@code text} where vLLM's says {@code prompt}), llama.cpp's, and TGI's ({@code {"inputs"}} -> a
   * list of tokens, no {@code /detokenize}).
   */
  enum Form {
    VLLM("vLLM"),
    LLAMA_CPP("llama.cpp"),
    TGI("TGI");

    final String label;

    Form(String label) {
      this.label = label;
    }
  }

  private final class HttpTokenizer implements ServerTokenizer {
    private final Form form;
    private final String model;
    private final boolean decodes;

    HttpTokenizer(Form form, String model, boolean decodes) {
      this.form = form;
      this.model = model;
      this.decodes = decodes;
    }

    @Override
    public String describe() {
      return form.label + " /tokenize" + (decodes ? " + /detokenize" : " (no /detokenize)");
    }

    @Override
    public OptionalInt count(String text) {
      Optional<JsonNode> json = post("/tokenize", textBody(text, true));
      if (json.isEmpty()) {
        return OptionalInt.empty();
      }
      if (form == Form.TGI) {
        JsonNode list = json.get();
        return list.isArray() && (list.isEmpty() || list.get(0).has("id"))
            ? OptionalInt.of(json.get().size())
            : OptionalInt.empty();
      }
      JsonNode count = json.get().path("count");
      if (form == Form.VLLM && count.canConvertToInt()) {
        return OptionalInt.of(count.asInt());
      }
      JsonNode tokens = json.get().path("tokens");
      // llama-server answers vLLM's form with 200 and an empty list: only a list with tokens counts
      // for that form's detection ("hello"), any list afterwards
      return form == Form.LLAMA_CPP && tokens.isArray()
          ? OptionalInt.of(tokens.size())
          : OptionalInt.empty();
    }

    @Override
    public Optional<int[]> encode(String text) {
      return post("/tokenize", textBody(text, false))
          .map(j -> form == Form.TGI ? j : j.path("tokens"))
          .filter(JsonNode::isArray)
          .map(
              t -> {
                int[] ids = new int[t.size()];
                for (int i = 0; i < ids.length; i++) {
                  JsonNode id = t.get(i);
                  ids[i] = (form == Form.TGI ? id.path("id") : id).asInt();
                }
                return ids;
              });
    }

    @Override
    public Optional<String> decode(int[] ids) {
      var body = JSON.createObjectNode();
      if (form == Form.VLLM) {
        body.put("model", model);
      }
      if (form == Form.TGI) {
        return Optional.empty();
      }
      var tokens = body.putArray("tokens");
      for (int id : ids) {
        tokens.add(id);
      }
      return post("/detokenize", body)
          .map(
              j ->
                  form == Form.VLLM
                      ? j.has("prompt") ? j.get("prompt") : j.get("text")
                      : j.get("content"))
          .filter(JsonNode::isTextual)
          .map(JsonNode::asText);
    }

    /**
     * The tokenize body. Counting keeps the server's default for special tokens (the callers
     * subtract the count of "" where it matters); ids are asked for without special tokens.
     */
    private ObjectNode textBody(String text, boolean forCount) {
      var body = JSON.createObjectNode();
      if (form == Form.VLLM) {
        body.put("model", model).put("prompt", text);
        if (!forCount) {
          body.put("add_special_tokens", false);
        }
      } else if (form == Form.TGI) {
        body.put("inputs", text);
      } else {
        body.put("content", text);
      }
      return body;
    }
  }

  /** The JSON answer of a POST, or empty on any failure (the tokenizer endpoints are optional). */
  private Optional<JsonNode> post(String path, JsonNode body) {
    try {
      return optionalJson(
          request(path)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The JSON answer of a GET, or empty on any failure (e.g. {@code /props}: llama.cpp's only). */
  private Optional<JsonNode> get(String path) {
    return optionalJson(request(path).GET().build());
  }

  private Optional<JsonNode> optionalJson(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200
          ? Optional.ofNullable(JSON.readTree(response.body()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * How many tokens (prompt + output) one request may have: vLLM's (and SGLang's) {@code
   * max_model_len} of {@code GET /v1/models}; TGI's {@code max_total_tokens} of {@code GET /info};
   * llama.cpp's per-slot {@code n_ctx} of {@code GET /props} (the server's {@code -c} divided among
   * its {@code -np} slots), else its models' {@code meta.n_ctx} or {@code meta.n_ctx_train}. Empty
   * when the server tells none of them.
   */
  public Optional<ContextLength> contextLength(String model) {
    JsonNode card = modelCard(model);
    if (card != null && card.path("max_model_len").canConvertToInt()) {
      return Optional.of(
          new ContextLength(card.get("max_model_len").asInt(), "max_model_len of GET /v1/models"));
    }
    Optional<JsonNode> tgi = kind() == ServerKind.TGI ? tgiInfo() : Optional.empty();
    if (tgi.isPresent()) {
      return Optional.of(
          new ContextLength(
              tgi.get().get("max_total_tokens").asInt(), "max_total_tokens of GET /info"));
    }
    Optional<JsonNode> props = get("/props");
    JsonNode slot =
        props.map(p -> p.path("default_generation_settings").path("n_ctx")).orElse(null);
    if (slot != null && slot.canConvertToInt() && slot.asInt() > 0) {
      int slots = props.get().path("total_slots").asInt(0);
      int trained = card == null ? 0 : card.path("meta").path("n_ctx_train").asInt(0);
      // llama-server's HTTP answers do not say whether its KV cache is unified: every slot of a
      // unified one reports the whole context, which without -c is the model's trained context,
      // while separate contexts (-c split over -np) each hold a share of it
      boolean shared = slots > 1 && slot.asInt() == trained;
      return Optional.of(
          new ContextLength(
              slot.asInt(),
              shared
                  ? "n_ctx of GET /props, shared by its " + slots + " slots"
                  : "n_ctx per slot of GET /props",
              shared ? slots : 0));
    }
    for (String key : List.of("n_ctx", "n_ctx_train")) {
      JsonNode v = card == null ? null : card.path("meta").path(key);
      if (v != null && v.canConvertToInt() && v.asInt() > 0) {
        return Optional.of(new ContextLength(v.asInt(), "meta." + key + " of GET /v1/models"));
      }
    }
    return Optional.empty();
  }

  /**
   * The tokens a chat request adds around its content (the chat template and generation prompt), as
   * the server counts them: vLLM's {@code /tokenize} of {@code messages}, or llama.cpp's {@code
   * /apply-template} then {@code /tokenize}; empty when the server cannot tell.
   */
  public OptionalInt chatTemplateTokens(String model, ServerTokenizer tokenizer, String content) {
    OptionalInt plain =
        tokenizer
            .encode(content)
            .map(ids -> OptionalInt.of(ids.length))
            .orElse(OptionalInt.empty());
    if (plain.isEmpty()) {
      return OptionalInt.empty();
    }
    var messages = JSON.createArrayNode();
    messages.addObject().put("role", "user").put("content", content);
    var vllm = JSON.createObjectNode().put("model", model).put("add_generation_prompt", true);
    vllm.set("messages", messages);
    Optional<JsonNode> counted =
        post("/tokenize", vllm).filter(j -> j.path("count").canConvertToInt());
    if (counted.isPresent()) {
      return OptionalInt.of(counted.get().get("count").asInt() - plain.getAsInt());
    }
    var llama = JSON.createObjectNode();
    llama.set("messages", messages);
    Optional<String> templated =
        post("/apply-template", llama)
            .map(j -> j.get("prompt"))
            .filter(JsonNode::isTextual)
            .map(JsonNode::asText);
    if (templated.isEmpty()) {
      return OptionalInt.empty();
    }
    var tokenize =
        JSON.createObjectNode()
            .put("content", templated.get())
            .put("add_special", true)
            .put("parse_special", true);
    return post("/tokenize", tokenize)
        .map(j -> j.path("tokens"))
        .filter(JsonNode::isArray)
        .map(t -> OptionalInt.of(t.size() - plain.getAsInt()))
        .orElse(OptionalInt.empty());
  }

  /**
   * The {@code data} entry of {@code GET /v1/models} for the model (as read by {@link #models}).
   */
  private JsonNode modelCard(String model) {
    JsonNode list = modelList;
    if (list == null) {
      return null;
    }
    for (JsonNode m : list.path("data")) {
      if (model.equals(m.path("id").asText(null))) {
        return m;
      }
    }
    return null;
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT);
    apiKey.ifPresent(k -> b.header("Authorization", "Bearer " + k));
    headers.forEach(
        (name, value) -> {
          try {
            b.setHeader(name, value);
          } catch (IllegalArgumentException restricted) {
            // the JDK's client sets Host, Connection and the like itself; the load's requests carry
            // them
          }
        });
    return b;
  }

  private HttpResponse<String> send(HttpRequest request, String what) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw unreachable(what, why(e, REQUEST_TIMEOUT));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable(what, "interrupted");
    }
  }

  /** Why no answer came, in a few words. */
  private static String why(IOException e, Duration timeout) {
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof HttpTimeoutException) {
      return "no answer within " + Level.plainNumber(timeout.toMillis() / 1000.0) + " s";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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
    HttpRequest r =
        request(path).timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build();
    try {
      return new Answer(client.send(r, HttpResponse.BodyHandlers.discarding()).statusCode(), null);
    } catch (IOException e) {
      return new Answer(0, why(e, timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, "interrupted");
    }
  }

  /** How often {@link #awaitReady} asks, and how often it says it is still waiting. */
  static final Duration READY_POLL = Duration.ofMillis(500);

  static final Duration READY_PROGRESS = Duration.ofSeconds(5);

  /**
   * Waits until the server is ready, as {@code vllm bench serve --ready-check-timeout-sec}: {@code
   * GET /health} answers 200, or {@code GET /v1/models} answers 200 with a model (or refuses the
   * API key: the server is up, and {@link #models} then says what is wrong). Asks every {@link
   * #READY_POLL}, with a line on {@code out} every {@link #READY_PROGRESS} and once ready.
   *
   * @throws TargetException when it is not ready within {@code timeoutSeconds}
   */
  public void awaitReady(int timeoutSeconds, PrintStream out) {
    awaitReady(timeoutSeconds, out, READY_PROGRESS);
  }

  /** As {@link #awaitReady(int, PrintStream)}, a line every {@code progress} while it waits. */
  void awaitReady(int timeoutSeconds, PrintStream out, Duration progress) {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    long nextProgress = start + progress.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      // one probe never outlasts the wait: the last one ends at the deadline
      Duration probe = Duration.ofNanos(Math.max(100_000_000L, Math.min(left, 2_000_000_000L)));
      Optional<String> notReady = notReady(probe);
      long now = System.nanoTime();
      if (notReady.isEmpty()) {
        if (now - start > READY_POLL.toNanos()) {
          out.printf(
              Locale.ROOT,
              "gatling-llm-bench: %s is ready after %.1f s%n",
              baseUrl,
              (now - start) / 1e9);
        }
        return;
      }
      if (now >= deadline) {
        throw new TargetException(
            "The server at "
                + baseUrl
                + " was not ready within "
                + timeoutSeconds
                + " s (-Dready.timeout="
                + timeoutSeconds
                + "): "
                + notReady.get());
      }
      if (now >= nextProgress) {
        out.printf(
            Locale.ROOT,
            "gatling-llm-bench: waiting for %s to be ready (%d s of %d): %s%n",
            baseUrl,
            TimeUnit.NANOSECONDS.toSeconds(now - start),
            timeoutSeconds,
            notReady.get());
        nextProgress += progress.toNanos();
      }
      try {
        Thread.sleep(Math.max(1, Math.min(READY_POLL.toMillis(), (deadline - now) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TargetException("Interrupted while waiting for the server at " + baseUrl);
      }
    }
  }

  /** Empty when the server is ready, else what it answered (or why it did not). */
  private Optional<String> notReady(Duration timeout) {
    String health;
    try {
      HttpResponse<String> h =
          client.send(
              request("/health").timeout(timeout).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      if (h.statusCode() == 200) {
        return Optional.empty();
      }
      health = "GET /health: HTTP " + h.statusCode();
    } catch (IOException e) {
      return Optional.of(why(e, timeout)); // nothing answers: /v1/models would not either
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
    try {
      HttpResponse<String> m =
          client.send(
              request("/v1/models").timeout(timeout).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      int status = m.statusCode();
      if (status == 401 || status == 403) {
        return Optional.empty();
      }
      if (status == 200) {
        JsonNode data = JSON.readTree(m.body()).path("data");
        if (data.isArray() && !data.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(health + ", GET /v1/models: no model yet");
      }
      return Optional.of(health + ", GET /v1/models: HTTP " + status);
    } catch (IOException e) {
      return Optional.of(health + ", GET /v1/models: " + why(e, timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }

  private TargetException unreachable(String what, String why) {
    return new TargetException("Cannot reach the server at " + baseUrl + " (" + what + "): " + why);
  }
}
