package io.github.llmbench.run;

import io.github.llmbench.injection.ServerApi;
import io.github.llmbench.injection.Target;
import io.github.llmbench.injection.TargetException;
import io.github.llmbench.records.RunDirectory;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.AbFigures;
import io.github.llmbench.sweep.ChildProcess;
import io.github.llmbench.sweep.ServeCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A/B servers the kit starts ({@code -Dserve.cmd} for A, {@code -Dcandidate.serve.cmd} for B), both
 * stopped and started afresh before each block: a process's lasting speed (two processes of one
 * build can stay 6-9% apart for their whole lives, docs/gates.md) is drawn anew for each block, so
 * it is in the spread of the blocks the sequential test judges, not in every pair alike. Each side
 * keeps its port for the run (the requests' URLs are fixed before the load). Each start has a log
 * of its own ({@code server-a-2.log}: A, block 2), its first line the command with its secrets
 * masked, in a folder of the run's beside Gatling's run folders ({@code ab-servers-<time>-<pid>}):
 * the run's own folder is known only once its load has begun, after block 1's servers have started.
 * No process outlives the kit ({@link ChildProcess}'s hook).
 */
final class FreshDeployments implements AbServers {
  private final AbSettings.Deployed deployed;
  private final Side a;
  private final Side b;
  private final List<AbFigures.Block> blocks = new ArrayList<>();
  private Path logs;
  private Optional<String> apiKey = Optional.empty();

  FreshDeployments(AbSettings.Deployed deployed) {
    this.deployed = deployed;
    this.a = new Side("a", deployed.baseCommand(), ServeCommand.freePort());
    this.b = new Side("b", deployed.candidateCommand(), ServeCommand.freePort());
  }

  /** One side's server: its command, its port, its process now. */
  private static final class Side {
    final String name;
    final String command;
    final int port;
    ChildProcess process;

    Side(String name, String command, int port) {
      this.name = name;
      this.command = command;
      this.port = port;
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + port);
    }
  }

  /** Block 1's servers started and waited for; A checked as the run's target. */
  @Override
  public Target target(BenchSettings settings, PrintStream out) {
    this.apiKey = settings.apiKey();
    try {
      logs =
          Files.createDirectories(
              RunDirectory.resultsFolder()
                  .resolve(
                      "ab-servers-"
                          + LocalDateTime.now()
                              .format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"))
                          + "-"
                          + ProcessHandle.current().pid()));
      out.println("gatling-llm-bench: A/B servers' logs in " + logs.toAbsolutePath());
      start(1, out);
    } catch (IOException e) {
      throw new TargetException("cannot create the A/B servers' log folder: " + e.getMessage());
    } catch (IllegalStateException | UncheckedIOException e) {
      close();
      throw new TargetException("-Dserve.cmd / -Dcandidate.serve.cmd: " + e.getMessage());
    }
    return Target.startedBy(settings, a.url(), this, out);
  }

  @Override
  public URI candidateUrl() {
    return b.url();
  }

  /**
   * From block 2 on: both servers stopped, then started afresh and waited for, on a thread of its
   * own (a start takes seconds to minutes; Gatling's threads must not wait in it).
   */
  @Override
  public CompletableFuture<Void> beforeUnit(int unit, PrintStream out) {
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Thread restart =
        new Thread(
            () -> {
              try {
                synchronized (this) {
                  stopBoth();
                  start(unit, out);
                }
                ready.complete(null);
              } catch (RuntimeException e) {
                ready.completeExceptionally(e);
              }
            },
            "llm-ab-restart-" + unit);
    restart.setDaemon(true);
    restart.start();
    return ready;
  }

  private void start(int block, PrintStream out) {
    long t0 = System.nanoTime();
    launch(a, block);
    launch(b, block);
    for (Side s : List.of(a, b)) {
      ServerApi api = new ServerApi(s.url(), apiKey);
      s.process.awaitReady(
          () -> api.ready(Duration.ofSeconds(2)), deployed.readyTimeout(), Duration.ofMillis(200));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    blocks.add(
        new AbFigures.Block(
            block, a.process.pid(), b.process.pid(), Math.round(seconds * 10) / 10.0));
    out.printf(
        Locale.ROOT,
        "gatling-llm-bench: A/B block %d: fresh servers, A pid %d on port %d, B pid %d on port %d,"
            + " both ready in %.1f s%n",
        block,
        a.process.pid(),
        a.port,
        b.process.pid(),
        b.port,
        seconds);
  }

  private void launch(Side s, int block) {
    s.process =
        ServeCommand.of(s.command, Map.of(), s.port)
            .start(
                logs.resolve("server-" + s.name + "-" + block + ".log"),
                "A/B block " + block + ", server " + s.name.toUpperCase(Locale.ROOT),
                apiKey,
                deployed.grace());
  }

  @Override
  public Optional<Path> logs() {
    return Optional.ofNullable(logs);
  }

  /** The blocks so far. */
  @Override
  public synchronized List<AbFigures.Block> blocks() {
    return List.copyOf(blocks);
  }

  /** A unit is a block, on its own servers. */
  @Override
  public Integer blockOf(int unit) {
    return unit;
  }

  private void stopBoth() {
    for (Side s : List.of(a, b)) {
      if (s.process != null) {
        s.process.stop();
        s.process = null;
      }
    }
  }

  @Override
  public synchronized void close() {
    stopBoth();
  }
}
