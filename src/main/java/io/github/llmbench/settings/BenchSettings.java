package io.github.llmbench.settings;

import io.github.llmbench.catalog.Catalog;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every {@code -D} setting of the kit, read and validated in one place.
 *
 * <p>Validation happens when the settings are read, before any server is contacted, so a bad
 * value stops the run with one line ({@link SettingsException}) and no load is sent. The API key
 * is read from the environment ({@code OPENAI_API_KEY}), never from a property (properties end up
 * in build logs), and is kept out of {@link #describe()} and {@link #toString()}.
 */
public final class BenchSettings {

  /** Which OpenAI-compatible endpoint to stream from. */
  public enum Api {
    CHAT("/v1/chat/completions"),
    COMPLETIONS("/v1/completions");

    private final String path;

    Api(String path) {
      this.path = path;
    }

    public String path() {
      return path;
    }

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final String API_KEY_ENV = "OPENAI_API_KEY";

  /** The seed study's server: Qwen2.5-7B-Instruct on one RTX 4080 32 GB. */
  public static final String DEFAULT_SIM_MODEL = "qwen2.5-7b-instruct";

  public static final String DEFAULT_SIM_GPU = "rtx4080-32gb";

  private final Optional<URI> baseUrl;
  private final Api api;
  private final Optional<String> model;
  private final int conc;
  private final int durationSeconds;
  private final int inputLen;
  private final int outputLen;
  private final int timeoutSeconds;
  private final Optional<String> apiKey;
  private final String simModel;
  private final String simGpu;

  private BenchSettings(
      Optional<URI> baseUrl,
      Api api,
      Optional<String> model,
      int conc,
      int durationSeconds,
      int inputLen,
      int outputLen,
      int timeoutSeconds,
      Optional<String> apiKey,
      String simModel,
      String simGpu) {
    this.baseUrl = baseUrl;
    this.api = api;
    this.model = model;
    this.conc = conc;
    this.durationSeconds = durationSeconds;
    this.inputLen = inputLen;
    this.outputLen = outputLen;
    this.timeoutSeconds = timeoutSeconds;
    this.apiKey = apiKey;
    this.simModel = simModel;
    this.simGpu = simGpu;
  }

  /** Reads the JVM's system properties and the {@code OPENAI_API_KEY} environment variable. */
  public static BenchSettings fromSystem() {
    return from(System::getProperty, System::getenv);
  }

  /**
   * Reads settings from any property source (tests pass a map).
   *
   * @throws SettingsException on the first bad value
   */
  public static BenchSettings from(
      Function<String, String> properties, Function<String, String> environment) {
    Reader r = new Reader(properties);
    Optional<URI> baseUrl = r.optional("base.url").map(v -> parseBaseUrl("base.url", v));
    Api api = r.api("api", Api.CHAT);
    Optional<String> model = r.optional("model");
    int conc = r.positiveInt("conc", 16, 100_000);
    int duration = r.positiveInt("duration", 60, 7 * 24 * 3600);
    int inputLen = r.positiveInt("input.len", 1024, 10_000_000);
    int outputLen = r.positiveInt("output.len", 128, 10_000_000);
    int timeout = r.positiveInt("timeout", 300, 7 * 24 * 3600);
    Optional<String> key =
        Optional.ofNullable(environment.apply(API_KEY_ENV)).map(String::trim).filter(s -> !s.isEmpty());
    String simModel = r.oneOf("sim.model", DEFAULT_SIM_MODEL, Catalog.models().keySet());
    String simGpu = r.oneOf("sim.gpu", DEFAULT_SIM_GPU, Catalog.gpus().keySet());
    return new BenchSettings(
        baseUrl, api, model, conc, duration, inputLen, outputLen, timeout, key, simModel, simGpu);
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

  public Optional<URI> baseUrl() {
    return baseUrl;
  }

  public Api api() {
    return api;
  }

  public Optional<String> model() {
    return model;
  }

  public int conc() {
    return conc;
  }

  public int durationSeconds() {
    return durationSeconds;
  }

  public int inputLen() {
    return inputLen;
  }

  public int outputLen() {
    return outputLen;
  }

  public int timeoutSeconds() {
    return timeoutSeconds;
  }

  /** The embedded simulator's model (catalog id); used only without {@code base.url}. */
  public String simModel() {
    return simModel;
  }

  /** The embedded simulator's GPU (catalog id); used only without {@code base.url}. */
  public String simGpu() {
    return simGpu;
  }

  /** The API key, for the Authorization header only. Never print or persist it. */
  public Optional<String> apiKey() {
    return apiKey;
  }

  /** The effective settings, for the console and summary.json; the API key only as set / not set. */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("base.url", baseUrl.map(URI::toString).orElse("(none: embedded vLLM simulator)"));
    m.put("api", api.id());
    m.put("model", model.orElse("(first of GET /v1/models)"));
    m.put("conc", Integer.toString(conc));
    m.put("duration", durationSeconds + " s");
    m.put("input.len", Integer.toString(inputLen));
    m.put("output.len", Integer.toString(outputLen));
    m.put("timeout", timeoutSeconds + " s");
    if (baseUrl.isEmpty()) {
      m.put("sim.model", simModel);
      m.put("sim.gpu", simGpu);
    }
    m.put(API_KEY_ENV, apiKey.isPresent() ? "set (not shown)" : "not set");
    return m;
  }

  @Override
  public String toString() {
    return "BenchSettings" + describe();
  }

  /** Reads raw property values and turns them into typed, validated ones. */
  private static final class Reader {
    private final Function<String, String> source;

    Reader(Function<String, String> source) {
      this.source = source;
    }

    Optional<String> optional(String name) {
      return Optional.ofNullable(source.apply(name)).map(String::trim).filter(s -> !s.isEmpty());
    }

    int positiveInt(String name, int defaultValue, int max) {
      Optional<String> raw = optional(name);
      if (raw.isEmpty()) {
        return defaultValue;
      }
      String accepted = "a whole number from 1 to " + max;
      try {
        long v = Long.parseLong(raw.get());
        if (v < 1 || v > max) {
          throw SettingsException.invalid(name, raw.get(), accepted);
        }
        return (int) v;
      } catch (NumberFormatException e) {
        throw SettingsException.invalid(name, raw.get(), accepted);
      }
    }

    String oneOf(String name, String defaultValue, java.util.Collection<String> accepted) {
      String value = optional(name).orElse(defaultValue);
      if (!accepted.contains(value)) {
        throw SettingsException.invalid(name, value, "one of " + String.join(", ", new java.util.TreeSet<>(accepted)));
      }
      return value;
    }

    Api api(String name, Api defaultValue) {
      Optional<String> raw = optional(name);
      if (raw.isEmpty()) {
        return defaultValue;
      }
      for (Api a : Api.values()) {
        if (a.id().equals(raw.get().toLowerCase(Locale.ROOT))) {
          return a;
        }
      }
      throw SettingsException.invalid(name, raw.get(), "chat or completions");
    }
  }
}
