package io.github.llmbench.run;

import io.github.llmbench.injection.Target;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.summary.AbFigures;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The two servers of an A/B run as the run uses them: where A and B answer, and what happens to
 * them before each unit of the sequential test. Chosen once from the settings' {@link
 * AbSettings.Servers}: given by URL (nothing happens between units) or started by the kit afresh
 * for each block ({@link FreshDeployments}).
 */
sealed interface AbServers extends AutoCloseable permits AbServers.Given, FreshDeployments {

  static AbServers of(AbSettings.Servers servers) {
    return servers instanceof AbSettings.Deployed d
        ? new FreshDeployments(d)
        : new Given(((AbSettings.Given) servers).candidateUrl());
  }

  /** Server A as the run's target, checked before any load; the kit's servers started first. */
  Target target(BenchSettings settings, PrintStream out);

  /** Server B's URL. */
  URI candidateUrl();

  /**
   * Makes the servers ready for unit {@code unit} (from 2), once every trial before it has drained:
   * started now, off the caller's thread where it takes time.
   *
   * @return done when the unit may begin; failed (an {@code IllegalStateException}) when a server
   *     could not be started, and the run stops there
   */
  CompletableFuture<Void> beforeUnit(int unit, PrintStream out);

  /** The folder of the servers' logs, empty where the servers are given. */
  Optional<Path> logs();

  /** The servers each block ran on, in order; empty where the servers are given. */
  List<AbFigures.Block> blocks();

  /** The block of fresh servers unit {@code unit} ran on, null where the servers are given. */
  Integer blockOf(int unit);

  @Override
  void close();

  /** Servers the user runs ({@code -Dcandidate.url}): one process a side all run long. */
  record Given(URI candidateUrl) implements AbServers {
    @Override
    public Target target(BenchSettings settings, PrintStream out) {
      return Target.resolve(settings, out);
    }

    @Override
    public CompletableFuture<Void> beforeUnit(int unit, PrintStream out) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public List<AbFigures.Block> blocks() {
      return List.of();
    }

    @Override
    public Optional<Path> logs() {
      return java.util.Optional.empty();
    }

    @Override
    public Integer blockOf(int unit) {
      return null;
    }

    @Override
    public void close() {}
  }
}
