package io.github.llmbench.run;

import io.github.llmbench.gates.RelativeBase;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.LoadPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.Target;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.RunModeSettings;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * An interleaved A/B run ({@code -Dcandidate.url}): the warmup to both servers, then trials of the
 * run's one level in pairs, one on each server ({@link AbRun}), until every relative gate has
 * decided on the pairs, which are its evidence (no stored baseline).
 */
public record InterleavedAbMode(AbSettings ab, AbServers servers) implements LoadMode {

  static Optional<RunMode> of(RunModeSettings mode) {
    return mode instanceof AbSettings a
        ? Optional.of(new InterleavedAbMode(a, AbServers.of(a.servers())))
        : Optional.empty();
  }

  /** Server A: given, or the first of the servers the kit starts for each block. */
  @Override
  public Target target(BenchSettings settings, PrintStream out) {
    return servers.target(settings, out);
  }

  @Override
  public RunGates gates(BenchSettings settings) {
    return RunGates.of(settings, RelativeBase.OWN_PAIRS);
  }

  /** The warmup's limit, then the pairs'. */
  @Override
  public Duration maxDuration(List<Phase> phases, BenchSettings settings) {
    int timeout = settings.server().timeoutSeconds();
    return LoadPlan.maxDuration(phases, timeout, 0)
        .plus(AbRun.loadLimit(ab, settings.load().durationSeconds(), timeout));
  }

  /** Each record names its side's server. */
  @Override
  public boolean namesServers() {
    return true;
  }

  /**
   * Server B too, so that each side's server answers the same scrapes (on a small server a scrape
   * costs a step; scraping A alone would slow A's trials only).
   */
  @Override
  public List<URI> otherServers() {
    return List.of(servers.candidateUrl());
  }

  @Override
  public Running begin(Context context) {
    return AbRun.begin(ab, servers, context);
  }
}
