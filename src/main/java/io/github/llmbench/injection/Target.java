package io.github.llmbench.injection;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.simulator.Dialect;
import io.github.llmbench.simulator.SimFaults;
import io.github.llmbench.simulator.SimNoise;
import io.github.llmbench.simulator.SimulatorConfig;
import io.github.llmbench.simulator.VllmSimulator;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.ServerTokenizer;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server under test: the one given by {@code -Dbase.url}, or the embedded vLLM simulator
 * started on a free loopback port. Checked before any load: reachable, and serving the model.
 */
public final class Target implements AutoCloseable {
  private final URI baseUrl;
  private final String model;
  private final ServerApi api;
  private final VllmSimulator simulator;

  private Target(URI baseUrl, String model, ServerApi api, VllmSimulator simulator) {
    this.baseUrl = baseUrl;
    this.model = model;
    this.api = api;
    this.simulator = simulator;
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
    // checked with a real server too: a bad -Dsim.faults is refused as any other bad setting
    SimFaults faults = simFaults(settings.simEngine());
    VllmSimulator simulator = null;
    URI baseUrl;
    if (settings.baseUrl().isPresent()) {
      baseUrl = settings.baseUrl().get();
    } else {
      simulator =
          VllmSimulator.start(
              SimulatorConfig.defaults()
                  .withModel(settings.simModel())
                  .withGpu(settings.simGpu())
                  .withDialect(Dialect.fromId(settings.simDialect()))
                  .withTp(settings.simEngine().tp())
                  .withMaxNumSeqs(settings.simEngine().maxNumSeqs())
                  .withMaxNumBatchedTokens(settings.simEngine().maxNumBatchedTokens())
                  .withGpuMemoryUtilization(settings.simEngine().gpuMemoryUtilization())
                  .withFaults(faults)
                  .withTokensPerChunk(settings.simEngine().tokensPerChunk())
                  .withReasoningTokens(settings.simEngine().reasoningTokens())
                  .withNoise(
                      new SimNoise(
                          settings.simEngine().noise(),
                          settings.simEngine().slowdown(),
                          settings.workload().seed())));
      baseUrl = URI.create(simulator.baseUrl());
    }
    try {
      ServerApi api =
          new ServerApi(baseUrl, settings.apiKey(), settings.requestOptions().headers());
      int readyTimeout = settings.serverCalls().readyTimeoutSeconds();
      if (readyTimeout > 0) { // before the kit's first call: a server still loading is waited for
        api.awaitReady(readyTimeout, out);
      }
      String model = settings.model().orElse(null);
      if (model == null) {
        List<String> models = api.models();
        if (models.isEmpty()) {
          throw new TargetException(
              "The server at "
                  + baseUrl
                  + " lists no model (GET /v1/models); name one with -Dmodel=...");
        }
        model = models.get(0);
      } else {
        // Reachability is checked even with a model given, so a wrong URL fails now, not mid-run.
        List<String> models = api.models();
        if (!models.isEmpty() && !models.contains(model)) {
          throw new TargetException(
              "Invalid -Dmodel="
                  + model
                  + ": the server at "
                  + baseUrl
                  + " serves "
                  + String.join(", ", models));
        }
      }
      return new Target(baseUrl, model, api, simulator);
    } catch (RuntimeException e) {
      if (simulator != null) {
        simulator.close();
      }
      throw e;
    }
  }

  /**
   * {@code -Dsim.faults}, parsed by the simulator's grammar before it starts.
   *
   * @throws SettingsException on a bad value, as any other bad setting
   */
  static SimFaults simFaults(BenchSettings.SimEngine engine) {
    try {
      return SimFaults.parse(engine.faults());
    } catch (IllegalArgumentException e) {
      throw SettingsException.invalid("sim.faults", engine.faults(), SimFaults.ACCEPTED);
    }
  }

  /**
   * The server as the workload asks it before the load: its tokenizer, chat template and context.
   */
  public PreparedWorkload.Server workloadServer() {
    return new PreparedWorkload.Server() {
      @Override
      public ServerTokenizer tokenizer() {
        return api.tokenizer(model);
      }

      @Override
      public OptionalInt chatTemplateTokens(ServerTokenizer tokenizer, String content) {
        return api.chatTemplateTokens(model, tokenizer, content);
      }

      @Override
      public Optional<PreparedWorkload.ContextLength> contextLength() {
        return api.contextLength(model);
      }
    };
  }

  public URI baseUrl() {
    return baseUrl;
  }

  public String model() {
    return model;
  }

  public ServerApi api() {
    return api;
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
  }
}
