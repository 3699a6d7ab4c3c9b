package io.github.llmbench.sweep;

import io.github.llmbench.core.SweepGrid;
import io.github.llmbench.injection.ServerApi;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SweepSettings;
import io.github.llmbench.summary.SweepSummary;
import io.github.llmbench.summary.SweepSummary.Status;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A sweep ({@link SweepSettings}): for each combination of the server's parameters the server
 * started ({@code -Dserve.cmd}), waited for, and for each combination of the workload's settings
 * one ordinary run of the load against it (a Gatling JVM of its own, {@link GatlingChild}), then
 * the server stopped; a server that does not start or dies is recorded with the end of its log and
 * the sweep goes on. After each combination the sweep's {@code summary.json} is rewritten, so a
 * sweep stopped halfway continues from it ({@code -Dsweep.resume}); at the end its page ({@code
 * sweep.html}) and result block.
 */
public final class SweepRun {

  /** Runs one combination's load. */
  public interface Runs {
    /**
     * Runs the load with {@code properties} as its settings, its results in {@code folder}.
     *
     * @return its exit status and its run folder (empty when it made none)
     */
    RunResult run(Map<String, String> properties, Path folder);
  }

  /** A run's exit status and its run folder. */
  public record RunResult(int exitCode, Optional<Path> runFolder) {}

  /** The exit status of a sweep some of whose combinations failed. */
  static final int EXIT_FAILED = 2;

  private static final int LOG_TAIL = 20;

  private final BenchSettings settings;
  private final SweepSettings sweep;
  private final Path folder;
  private final Runs runs;
  private final PrintStream out;
  private final SweepTable table;

  private SweepRun(
      BenchSettings settings, SweepSettings sweep, Path folder, Runs runs, PrintStream out) {
    this.settings = settings;
    this.sweep = sweep;
    this.folder = folder;
    this.runs = runs;
    this.out = out;
    this.table = SweepTable.of(sweep, settings.apiKey(), folder);
  }

  /**
   * Runs {@code sweep}, the mode of {@code settings}, its folder a new {@code sweep-<time>} in
   * Gatling's results folder or {@code -Dsweep.resume}'s.
   *
   * @return the exit status: 0 when every combination ran and passed, the first run's non-zero
   *     status, else {@value #EXIT_FAILED} when a combination failed
   * @throws SettingsException before any server is started, on a combination's bad setting
   */
  public static int run(BenchSettings settings, SweepSettings sweep, Runs runs, PrintStream out) {
    Path folder =
        sweep
            .resume()
            .orElseGet(
                () ->
                    RunDirectory.resultsFolder()
                        .resolve(
                            "sweep-"
                                + LocalDateTime.now()
                                    .format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"))));
    SweepRun run = new SweepRun(settings, sweep, folder, runs, out);
    run.checkCombinations();
    return run.runAll();
  }

  /** Every combination's settings are read as its run will read them: a bad one stops all now. */
  private void checkCombinations() {
    for (SweepTable.Spec spec : table.specs()) {
      try {
        BenchSettings.from(
            properties(spec, Optional.of(URI.create("http://127.0.0.1:9"))), System::getenv);
      } catch (SettingsException e) {
        throw new SettingsException("Sweep combination " + spec.name() + ": " + e.getMessage());
      }
    }
  }

  private int runAll() {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + folder + ": " + e.getMessage(), e);
    }
    out.printf(
        "gatling-llm-bench: sweep of %d combinations into %s%s%n",
        table.specs().size(),
        folder,
        table.done() > 0 ? " (" + table.done() + " done before, kept)" : "");
    table.write();
    int s = 0;
    for (Map<String, String> server : sweep.serverCombinations()) {
      List<SweepTable.Spec> pending = table.pending(server);
      if (!pending.isEmpty()) {
        runOnServer(++s, server, pending);
      }
    }
    SweepSummary summary = table.write();
    Path page = SweepPage.write(folder.resolve(SweepPage.FILE), summary);
    out.print(SweepBlock.text(summary));
    out.println("Sweep report: " + page.toAbsolutePath().toUri());
    return table.exitStatus();
  }

  /** The server of {@code params} started, its pending combinations run, the server stopped. */
  private void runOnServer(int number, Map<String, String> params, List<SweepTable.Spec> pending) {
    if (sweep.serve().isEmpty()) {
      pending.forEach(spec -> runOne(spec, Optional.empty(), Optional.empty()));
      return;
    }
    SweepSettings.Serve serve = sweep.serve().get();
    int port = ServeCommand.freePort();
    String log = "server-" + number + ".log";
    ServeCommand command = ServeCommand.of(serve.command(), params, port);
    out.printf(
        "gatling-llm-bench: sweep: starting the server for %s (log %s)%n",
        SweepGrid.name(params).isEmpty() ? "every combination" : SweepGrid.name(params),
        folder.resolve(log));
    ChildProcess server =
        command.start(folder.resolve(log), "sweep", settings.apiKey(), serve.grace());
    try {
      URI baseUrl = URI.create("http://127.0.0.1:" + port);
      ServerApi api = new ServerApi(baseUrl, settings.apiKey());
      try {
        server.awaitReady(
            () -> api.ready(Duration.ofSeconds(2)), serve.readyTimeout(), Duration.ofMillis(500));
      } catch (IllegalStateException e) {
        out.println("gatling-llm-bench: sweep: " + e.getMessage());
        pending.forEach(
            spec ->
                table.failed(
                    spec, Status.server_failed, e.getMessage(), server.lastLines(LOG_TAIL), log));
        return;
      }
      for (SweepTable.Spec spec : pending) {
        if (!server.alive()) {
          String why =
              "the server exited with code " + server.exitCode().orElse(-1) + " before this run";
          table.failed(spec, Status.server_failed, why, server.lastLines(LOG_TAIL), log);
          continue;
        }
        runOne(spec, Optional.of(baseUrl), Optional.of(log));
        if (!server.alive()) {
          table.serverDied(spec, server.exitCode().orElse(-1), server.lastLines(LOG_TAIL));
        }
      }
    } finally {
      server.stop();
    }
  }

  private void runOne(SweepTable.Spec spec, Optional<URI> baseUrl, Optional<String> log) {
    out.printf(
        "gatling-llm-bench: sweep: running %s%n", spec.name().isEmpty() ? "the load" : spec.name());
    RunResult r = runs.run(properties(spec, baseUrl), folder);
    table.ran(spec, r, log);
  }

  /** A combination's run's settings: the sweep's other settings, its own, its server. */
  private Map<String, String> properties(SweepTable.Spec spec, Optional<URI> baseUrl) {
    Map<String, String> p = new LinkedHashMap<>(sweep.runProperties());
    p.putAll(spec.workload());
    baseUrl.ifPresent(u -> p.put("base.url", u.toString()));
    return p;
  }
}
