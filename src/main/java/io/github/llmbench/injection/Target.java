package io.github.llmbench.injection;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server under test: the one given by {@code -Dbase.url} (or several, sent to in turn), or the
 * embedded vLLM simulator started on a free loopback port. Checked before any load: each reachable,
 * and serving the models.
 */
public final class Target implements AutoCloseable {
  private final List<URI> baseUrls;
  private final List<String> models;
  private final List<ServerApi> apis;
  private final VllmSimulator simulator;

  /** What the kit started for this run besides the embedded simulator, stopped with it. */
  private final Optional<AutoCloseable> started;

  private Target(
      List<URI> baseUrls,
      List<String> models,
      List<ServerApi> apis,
      VllmSimulator simulator,
      Optional<AutoCloseable> started) {
    this.baseUrls = List.copyOf(baseUrls);
    this.models = List.copyOf(models);
    this.apis = List.copyOf(apis);
    this.simulator = simulator;
    this.started = started;
  }

  /**
   * Connects to the server (starting the simulator when there is none) and settles the model.
   *
   * @throws TargetException when the server cannot be used; the simulator is stopped again
   */
  public static Target resolve(BenchSettings settings) {
    return resolve(settings, System.out);
  }

  /**
   * As {@link #resolve(BenchSettings)}; with {@code -Dready.timeout}, first waits for the server to
   * be ready, saying so on {@code out}.
   */
  public static Target resolve(BenchSettings settings, PrintStream out) {
    VllmSimulator simulator = null;
    List<URI> baseUrls = settings.server().routing().baseUrls();
    if (baseUrls.isEmpty()) {
      simulator =
          VllmSimulator.start(
              settings
                  .simulator()
                  .config()
                  // agent sessions' prefix cache hits by step need each request's cached tokens
                  .withPromptTokensDetails(settings.workload().sessions().isPresent())
                  // the noise and the speculation draw from the run's seed: a pinned run repeats
                  // them
                  .withSeed(settings.workload().seed()));
      baseUrls = List.of(URI.create(simulator.baseUrl()));
    }
    try {
      return checked(settings, baseUrls, simulator, Optional.empty(), out);
    } catch (RuntimeException e) {
      if (simulator != null) {
        simulator.close();
      }
      throw e;
    }
  }

  /**
   * The server the kit started at {@code baseUrl} for this run ({@code servers}, stopped when the
   * target is closed, or at once when the checks fail), checked as {@link #resolve} checks one.
   *
   * @throws TargetException when the server cannot be used
   */
  public static Target startedBy(
      BenchSettings settings, URI baseUrl, AutoCloseable servers, PrintStream out) {
    try {
      return checked(settings, List.of(baseUrl), null, Optional.of(servers), out);
    } catch (RuntimeException e) {
      closeQuietly(servers);
      throw e;
    }
  }

  private static Target checked(
      BenchSettings settings,
      List<URI> baseUrls,
      VllmSimulator simulator,
      Optional<AutoCloseable> started,
      PrintStream out) {
    List<String> models = settings.server().routing().models();
    List<ServerApi> apis = new ArrayList<>();
    for (URI baseUrl : baseUrls) {
      ServerApi api =
          new ServerApi(baseUrl, settings.apiKey(), settings.server().requestOptions().headers());
      int readyTimeout = settings.server().calls().readyTimeoutSeconds();
      if (readyTimeout > 0) { // before the kit's first call: a server still loading is waited for
        api.awaitReady(readyTimeout, out);
      }
      models = checkedModels(api, baseUrl, models, !settings.server().routing().models().isEmpty());
      apis.add(api);
    }
    return new Target(baseUrls, models, apis, simulator, started);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // the check's failure is the one to report; the servers' stop has its own hook
    }
  }

  /**
   * The models the run names, checked against what the server at {@code baseUrl} lists: each must
   * be served (reachability is checked even with models given, so a wrong URL fails now, not
   * mid-run); none given, the server's first.
   *
   * @param asked whether {@code models} are {@code -Dmodel}'s, else the first server's
   */
  private static List<String> checkedModels(
      ServerApi api, URI baseUrl, List<String> models, boolean asked) {
    List<String> served = api.models();
    if (models.isEmpty()) {
      if (served.isEmpty()) {
        throw new TargetException(
            "The server at "
                + baseUrl
                + " lists no model (GET /v1/models); name one with -Dmodel=...");
      }
      return List.of(served.get(0));
    }
    for (String model : models) {
      if (!served.isEmpty() && !served.contains(model)) {
        throw new TargetException(
            (asked
                    ? "Invalid -Dmodel=" + String.join(",", models)
                    : "The first server's model " + model + " (no -Dmodel)")
                + ": the server at "
                + baseUrl
                + " serves "
                + String.join(", ", served)
                + (models.size() > 1 ? ", not " + model : ""));
      }
    }
    return models;
  }

  /**
   * The server as the workload asks it before the load: its tokenizer, chat template and context.
   */
  public PreparedWorkload.Server workloadServer() {
    return new PreparedWorkload.Server() {
      @Override
      public ServerTokenizer tokenizer() {
        return api().tokenizer(model());
      }

      @Override
      public OptionalInt chatTemplateTokens(ServerTokenizer tokenizer, String content) {
        return api().chatTemplateTokens(model(), tokenizer, content);
      }

      @Override
      public Optional<PreparedWorkload.ContextLength> contextLength() {
        return api().contextLength(model());
      }
    };
  }

  /** The first server: the one the kit asks (tokenizer, context, metrics). */
  public URI baseUrl() {
    return baseUrls.get(0);
  }

  /** Every server the requests go to, in turn. */
  public List<URI> baseUrls() {
    return baseUrls;
  }

  /** The first model: the one the kit asks about (tokenizer, context, metrics). */
  public String model() {
    return models.get(0);
  }

  /** Every model the requests name ({@code -Dmodel}), or the server's first. */
  public List<String> models() {
    return models;
  }

  /** The first server's API: the one the kit asks (tokenizer, context, its kind). */
  public ServerApi api() {
    return apis.get(0);
  }

  /** Each server's API, in the order of {@link #baseUrls()}. */
  public List<ServerApi> apis() {
    return apis;
  }

  /** Whether the server is the embedded simulator. */
  public boolean embedded() {
    return simulator != null;
  }

  @Override
  public void close() {
    if (simulator != null) {
      simulator.close();
    }
    started.ifPresent(Target::closeQuietly);
  }
}
