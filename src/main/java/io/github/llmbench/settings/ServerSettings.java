package io.github.llmbench.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.endpoints.Endpoints;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The server-and-request group of settings ({@code -Dhelp}'s "Server and request"): where requests
 * go, to which endpoint, how long one may take, what each carries besides the kit's fields, which
 * ones the client cancels, and the kit's own calls to the server around the load.
 *
 * @param tokenizerPath {@code -Dtokenizer}: a Hugging Face tokenizer.json (or a model folder
 *     holding one) to count tokens with here
 * @param calls {@code -Dready.timeout}, {@code -Dprofile} and {@code -Dcache.reset}
 */
public record ServerSettings(
    Routing routing,
    Endpoint api,
    int timeoutSeconds,
    Cancellation cancellation,
    RequestOptions requestOptions,
    Optional<String> tokenizerPath,
    ServerCalls calls) {

  private static final String HEADING = SettingsTable.SERVER;
  private static final Parser<String> TEXT = Parser.text();

  public static final Setting<List<URI>> BASE_URL =
      Setting.without(
          HEADING,
          "base.url",
          "none: the embedded simulator",
          "an http(s) URL, e.g. http://127.0.0.1:8000, or several separated by commas",
          "the server to load; several (replicas behind no load balancer) get the requests in"
              + " turn, and the page has figures per URL",
          ServerSettings::parseBaseUrls);
  public static final Setting<Endpoint> API =
      Setting.of(
          HEADING,
          "api",
          Endpoints.CHAT,
          Endpoints.idsText(),
          "the endpoint: " + Endpoints.helpText(),
          ServerSettings::parseEndpoint);
  public static final Setting<String> MODEL =
      Setting.without(
          HEADING,
          "model",
          "the first id of GET /v1/models",
          "a model id the server serves, or several separated by commas",
          "the model name sent in each request; several (models or LoRA adapters) are mixed by"
              + " model.weights, and the page has figures per model",
          TEXT);
  public static final Setting<List<Double>> MODEL_WEIGHTS =
      Setting.without(
          HEADING,
          "model.weights",
          "equal",
          "one number above 0 per -Dmodel, separated by commas, e.g. 0.7,0.3",
          "the share of requests each model of -Dmodel gets (picked by the seed; normalised)",
          Parser.positiveNumbers());
  public static final Setting<Integer> TIMEOUT =
      Setting.of(
          HEADING,
          "timeout",
          300,
          "a whole number of seconds from 1",
          "how long a request may take from its send to the end of its response",
          Parser.positiveInt(LoadSettings.MAX_SECONDS));
  public static final Setting<Double> CANCEL_PCT =
      Setting.of(
          HEADING,
          "cancel.pct",
          0.0,
          "a number from 0 to 100",
          "share of measured requests (picked by the seed) the client cancels cancel.after s after"
              + " the send, closing the connection as a browser tab does: counted as cancelled,"
              + " neither OK nor failed",
          Parser.number(v -> v >= 0 && v <= 100, "a number from 0 to 100"));
  public static final Setting<Double> CANCEL_AFTER =
      Setting.of(
          HEADING,
          "cancel.after",
          0.0,
          "a number of seconds from 0",
          "seconds after its send a cancelled request is cancelled (0: at once, AIPerf's default)",
          Parser.nonNegativeSeconds());
  public static final Setting<String> EXTRA_BODY =
      Setting.without(
          HEADING,
          "extra.body",
          "none",
          "a JSON object, e.g. {\"temperature\":0.6}",
          "merged into every request body (its keys win), as vllm bench serve --extra-body",
          TEXT);
  public static final Setting<String> HEADER =
      Setting.without(
          HEADING,
          "header.",
          "none",
          "-Dheader.<Name>=<value>, an HTTP header name",
          "a header on every request; values are never printed",
          TEXT);
  public static final Setting<String> TOKENIZER =
      Setting.without(
          HEADING,
          "tokenizer",
          "none: the server's /tokenize",
          "a tokenizer.json, or a folder holding one",
          "count tokens here (servers without /tokenize or usage)",
          TEXT);

  /** {@code vllm bench serve --profile}: the server's torch profiler around the measured load. */
  public static final Setting<Boolean> PROFILE =
      Setting.of(
          HEADING,
          "profile",
          false,
          "true or false",
          "POST /start_profile before the first measured level, /stop_profile after the last (vLLM"
              + " run with a profiler dir)",
          // -Dprofile sits one letter from -Dprofiles (the profiles dataset): say which is which
          (name, raw) ->
              switch (raw.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default ->
                    throw SettingsException.invalid(
                        name,
                        raw,
                        "true or false (the server's profiler; the profiles dataset's groups are"
                            + " -Dprofiles="
                            + raw
                            + ")");
              });

  public static final Setting<Integer> READY_TIMEOUT =
      Setting.of(
          HEADING,
          "ready.timeout",
          0,
          "a whole number of seconds from 0 (0: no wait)",
          "before anything else, wait up to this long for GET /health or GET /v1/models to answer"
              + " 200 (a server still loading), as vllm bench serve --ready-check-timeout-sec",
          Parser.nonNegativeInt(LoadSettings.MAX_SECONDS));
  public static final Setting<Boolean> CACHE_RESET =
      Setting.of(
          HEADING,
          "cache.reset",
          false,
          "true or false",
          "reset the server's prefix cache before each measured level: POST /reset_prefix_cache"
              + " (vLLM, VLLM_SERVER_DEV_MODE=1), /flush_cache (SGLang)",
          Parser.trueOrFalse());

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(
          BASE_URL,
          API,
          MODEL,
          MODEL_WEIGHTS,
          TIMEOUT,
          CANCEL_PCT,
          CANCEL_AFTER,
          EXTRA_BODY,
          HEADER,
          TOKENIZER,
          PROFILE,
          READY_TIMEOUT,
          CACHE_RESET);

  /** Reads the group's settings and refuses a bad value, or a bad pair within the group. */
  static ServerSettings read(SettingReader r) {
    return new ServerSettings(
        readRouting(r),
        r.get(API),
        r.get(TIMEOUT),
        readCancellation(r),
        readRequestOptions(r),
        r.optional(TOKENIZER),
        new ServerCalls(r.get(READY_TIMEOUT), r.get(PROFILE), r.get(CACHE_RESET)));
  }

  /** The first server of {@code -Dbase.url}: the one the kit asks (models, tokenizer, metrics). */
  public Optional<URI> baseUrl() {
    return routing.baseUrls().stream().findFirst();
  }

  /** Whether the run's server is the embedded simulator ({@link Routing#embeddedSimulator}). */
  public boolean embeddedSimulator() {
    return routing.embeddedSimulator();
  }

  /** The first model of {@code -Dmodel}: the one the kit asks about (tokenizer, context). */
  public Optional<String> model() {
    return routing.models().stream().findFirst();
  }

  /**
   * Where requests go: in turn to each server of {@code baseUrls} (none: the embedded simulator),
   * each naming one of {@code models} (none: the server's first) picked by the seed with these
   * shares.
   *
   * @param weights each model's share, summing to 1 (one per model; empty without models)
   * @param startedByKit whether the kit starts the servers as processes of their own, on ports it
   *     picks ({@code -Dcandidate.serve.cmd} beside {@code -Dserve.cmd}): no {@code baseUrls}, and
   *     no embedded simulator either
   */
  public record Routing(
      List<URI> baseUrls, List<String> models, List<Double> weights, boolean startedByKit) {
    public Routing {
      baseUrls = List.copyOf(baseUrls);
      models = List.copyOf(models);
      weights = List.copyOf(weights);
    }

    /** Whether the run's server is the embedded simulator: no URL, and none the kit starts. */
    public boolean embeddedSimulator() {
      return baseUrls.isEmpty() && !startedByKit;
    }

    /** Whether requests go to more than one server. */
    public boolean severalServers() {
      return baseUrls.size() > 1;
    }

    /** Whether requests name more than one model. */
    public boolean severalModels() {
      return models.size() > 1;
    }
  }

  private static Routing readRouting(SettingReader r) {
    List<URI> urls = r.optional(BASE_URL).orElse(List.of());
    List<String> models = new ArrayList<>();
    Optional<String> rawModel = r.optional(MODEL);
    if (rawModel.isPresent()) {
      for (String part : rawModel.get().split(",", -1)) {
        String m = part.trim();
        if (m.isEmpty() || models.contains(m)) {
          throw SettingsException.invalid(
              "model", rawModel.get(), "model ids separated by commas, each once");
        }
        models.add(m);
      }
    }
    Optional<List<Double>> weights = r.optional(MODEL_WEIGHTS);
    if (weights.isPresent() && weights.get().size() != models.size()) {
      throw new SettingsException(
          "-Dmodel.weights="
              + r.raw(MODEL_WEIGHTS).get()
              + " gives "
              + weights.get().size()
              + " shares for "
              + models.size()
              + " models of -Dmodel: one share per model (e.g. -Dmodel=a,b -Dmodel.weights=0.7,0.3)");
    }
    List<Double> shares = new ArrayList<>();
    if (!models.isEmpty()) {
      List<Double> w = weights.orElse(Collections.nCopies(models.size(), 1.0));
      double sum = w.stream().mapToDouble(Double::doubleValue).sum();
      w.forEach(x -> shares.add(x / sum));
    }
    return new Routing(urls, models, shares, AbSettings.startsServers(r));
  }

  /**
   * What every streaming request carries besides the kit's own fields, as {@code vllm bench
   * serve}'s {@code --extra-body} and {@code --header}: {@code -Dextra.body=JSON} (a JSON object
   * merged into each body; its keys win over the kit's) and {@code -Dheader.<Name>=<value>} (also
   * sent on the kit's calls before the load: a gateway that wants a header wants it there too).
   * Header values may be secrets: they are never printed or written.
   */
  public record RequestOptions(Optional<String> extraBodyJson, Map<String, String> headers) {
    /** The keys of every streaming body the kit writes itself. */
    public static final List<String> KIT_KEYS =
        List.of(
            "model",
            "messages",
            "prompt",
            "max_tokens",
            "max_completion_tokens",
            "stream",
            "stream_options",
            "ignore_eos");

    public RequestOptions {
      headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    public static RequestOptions none() {
      return new RequestOptions(Optional.empty(), Map.of());
    }

    /** A fresh copy of the extra body (callers may merge into it), empty without one. */
    public ObjectNode extraBody() {
      return extraBodyJson.map(RequestOptions::parseObject).orElseGet(JSON::createObjectNode);
    }

    /** The kit's own keys that the extra body replaces, e.g. {@code [max_tokens]}. */
    public List<String> overriddenKitKeys() {
      ObjectNode body = extraBody();
      return KIT_KEYS.stream().filter(body::has).toList();
    }

    /**
     * The extra body's {@code max_tokens} (or {@code max_completion_tokens}) when it sets a whole
     * number, which every request then asks for.
     */
    public OptionalInt maxTokens() {
      ObjectNode body = extraBody();
      JsonNode v =
          body.has("max_tokens") ? body.get("max_tokens") : body.get("max_completion_tokens");
      return v != null && v.canConvertToInt() && v.isIntegralNumber()
          ? OptionalInt.of(v.asInt())
          : OptionalInt.empty();
    }

    private static ObjectNode parseObject(String json) {
      try {
        return (ObjectNode) JSON.readTree(json);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // checked when the settings were read
      }
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Requests the client cancels on purpose, as users close a tab ({@code -Dcancel.pct}, {@code
   * -Dcancel.after}, AIPerf's request cancellation): which ones follows from the run's seed.
   *
   * @param pct the share of measured requests cancelled, in percent (0: none)
   * @param afterSeconds how long after its send a request is cancelled
   */
  public record Cancellation(double pct, double afterSeconds) {
    public static final Cancellation NONE = new Cancellation(0, 0);

    public boolean any() {
      return pct > 0;
    }
  }

  /**
   * The kit's own calls to the server around the load, as {@code vllm bench serve}'s switches:
   * {@code -Dready.timeout} (seconds to wait for the server to be ready before anything else; 0:
   * none), {@code -Dprofile} (its profiler around the measured levels), {@code -Dcache.reset} (its
   * prefix cache emptied before each measured level).
   */
  public record ServerCalls(int readyTimeoutSeconds, boolean profile, boolean cacheReset) {
    public static final ServerCalls NONE = new ServerCalls(0, false, false);

    /** Whether a call is made before a measured level starts. */
    public boolean beforeLevels() {
      return profile || cacheReset;
    }
  }

  /** {@code -Dextra.body} (a JSON object) and {@code -Dheader.<Name>} (an HTTP header name). */
  static RequestOptions readRequestOptions(SettingReader r) {
    Optional<String> extra = r.optional(EXTRA_BODY);
    if (extra.isPresent()) {
      String accepted = "a JSON object, e.g. {\"temperature\":0.6,\"top_p\":0.95}";
      JsonNode json;
      try {
        json = JSON.readTree(extra.get());
      } catch (IOException e) {
        String why =
            e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
        throw SettingsException.invalid(
            "extra.body", extra.get(), accepted + " (" + why.lines().findFirst().orElse(why) + ")");
      }
      if (json == null || !json.isObject()) {
        throw SettingsException.invalid("extra.body", extra.get(), accepted);
      }
      // a length every request asks for: the range of -Doutput.len's, as a number
      for (String key : List.of("max_tokens", "max_completion_tokens")) {
        JsonNode v = json.get(key);
        if (v != null
            && v.isNumber()
            && !(v.isIntegralNumber()
                && v.canConvertToLong()
                && v.asLong() >= 1
                && v.asLong() <= WorkloadSettings.MAX_LEN)) {
          throw SettingsException.invalid(
              "extra.body",
              extra.get(),
              "\"" + key + "\" a whole number of tokens from 1 to " + WorkloadSettings.MAX_LEN);
        }
      }
    }
    Map<String, String> headers = new TreeMap<>();
    r.properties()
        .forEach(
            (k, v) -> {
              if (k.startsWith("header.")) {
                String name = k.substring("header.".length());
                // RFC 9110 token characters; the value is not echoed (it may be a secret)
                if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                  throw new SettingsException(
                      "Invalid -D"
                          + k
                          + ": expected -Dheader.<Name>=<value> with an HTTP header name (letters, digits, -)");
                }
                if (v == null || v.isEmpty() || v.chars().anyMatch(c -> c == '\r' || c == '\n')) {
                  throw new SettingsException(
                      "Invalid -D"
                          + k
                          + " (value not shown): expected a value of one line, not empty");
                }
                headers.put(name, v);
              }
            });
    return new RequestOptions(extra, headers);
  }

  private static Cancellation readCancellation(SettingReader r) {
    double pct = r.get(CANCEL_PCT);
    if (pct == 0 && r.isSet(CANCEL_AFTER)) {
      throw new SettingsException(
          "-Dcancel.after applies with -Dcancel.pct=P (the share of requests cancelled)");
    }
    return pct == 0 ? Cancellation.NONE : new Cancellation(pct, r.get(CANCEL_AFTER));
  }

  /** The most servers {@code -Dbase.url} may name. */
  static final int MAX_BASE_URLS = 64;

  /** {@code -Dapi}'s value: an endpoint's id ({@code chat}, {@code embeddings}...), any case. */
  static Endpoint parseEndpoint(String name, String raw) {
    return Endpoints.byId(raw)
        .orElseThrow(() -> SettingsException.invalid(name, raw, Endpoints.idsText()));
  }

  /** {@code -Dbase.url}: one URL or several, separated by commas, each once. */
  static List<URI> parseBaseUrls(String property, String value) {
    List<URI> out = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      URI uri = parseBaseUrl(property, part);
      if (out.contains(uri)) {
        throw SettingsException.invalid(
            property, value, "URLs separated by commas, each once (" + uri + " is there twice)");
      }
      out.add(uri);
    }
    if (out.size() > MAX_BASE_URLS) {
      throw SettingsException.invalid(
          property, value, "at most " + MAX_BASE_URLS + " URLs separated by commas");
    }
    return List.copyOf(out);
  }

  static URI parseBaseUrl(String property, String value) {
    String accepted = "an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000";
    URI uri;
    try {
      uri = new URI(value.trim());
    } catch (URISyntaxException e) {
      throw SettingsException.invalid(property, value, accepted);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || uri.getRawUserInfo() != null) {
      throw SettingsException.invalid(property, value, accepted);
    }
    String s = uri.toString();
    // Users paste ".../v1" from their OpenAI client config; the kit adds /v1 itself.
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.endsWith("/v1")) {
      s = s.substring(0, s.length() - 3);
    }
    return URI.create(s);
  }
}
