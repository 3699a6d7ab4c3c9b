package io.github.llmbench.run;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.llmbench.analysis.GateJudgement;
import io.github.llmbench.analysis.LatencyStats;
import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.analysis.SequentialTest;
import io.github.llmbench.analysis.ServingMetrics;
import io.github.llmbench.analysis.ServingMetricsCalculator;
import io.github.llmbench.core.Level;
import io.github.llmbench.gates.Gate;
import io.github.llmbench.gates.GateMetric;
import io.github.llmbench.gates.GateResult;
import io.github.llmbench.gates.GateSet;
import io.github.llmbench.gates.GoodputSpec;
import io.github.llmbench.gates.LevelFigures;
import io.github.llmbench.gates.RunFigures;
import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.AbPairsLoad;
import io.github.llmbench.injection.AdaptiveLevels;
import io.github.llmbench.injection.CandidateServer;
import io.github.llmbench.injection.PairPlan;
import io.github.llmbench.injection.Phase;
import io.github.llmbench.injection.RequestChains;
import io.github.llmbench.injection.Target;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestOrigin.Side;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.report.section.AbSection;
import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.summary.AbFigures;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

/**
 * An interleaved A/B run as it goes ({@code -Dcandidate.url} or {@code -Dcandidate.serve.cmd}):
 * picks each trial from the {@link PairPlan} while the relative gates have not all decided, units
 * remain and the budget allows another; before each unit, the servers' turn ({@link
 * AbServers#beforeUnit}: fresh ones for each block where the kit starts them); after each unit has
 * drained, judges each relative gate on that unit's records (a pair's, or a block's pooled on each
 * side). The Gatling load is {@link AbPairsLoad}'s; the judging sits here, by the run's end,
 * because it reads the analysis and the gates.
 */
final class AbRun implements LoadMode.Running, AdaptiveLevels<PairPlan.Trial> {
  private final AbSettings ab;
  private final AbSettings.Units units;
  private final AbServers servers;
  private final CandidateServer candidate;

  /** The requests to server B. */
  private final RequestChains candidateChains;

  private final Target target;
  private final Level level;
  private final PairPlan plan;
  private final List<AbGateTrack> tracks;
  private final long trialMs;
  private final LongSupplier clockMs;
  private final RunRecorder recorder;
  private final List<Double> percentiles;
  private final PrintStream out;
  private final List<AbFigures.Pair> pairs = new ArrayList<>();
  private long startedMs = -1;
  private int trials;
  private final AbStop stops;
  private String stoppedBy;

  /** The next unit's servers, being made ready since the unit before drained. */
  private CompletableFuture<Void> preparing = CompletableFuture.completedFuture(null);

  private AbRun(Builder b) {
    this.ab = b.ab;
    this.units = b.ab.units();
    this.servers = b.servers;
    this.candidate = b.candidate;
    this.candidateChains = b.candidateChains;
    this.target = b.target;
    this.level = b.level;
    this.plan = new PairPlan(b.seed);
    this.tracks = b.tracks;
    this.trialMs = b.trialSeconds * 1000L;
    this.clockMs = System::currentTimeMillis;
    this.recorder = b.recorder;
    this.percentiles = b.percentiles;
    this.out = b.out;
    this.stops =
        new AbStop(
            units,
            ab.budgetMinutes().isPresent()
                ? OptionalLong.of(ab.budgetMinutes().getAsInt() * 60_000L)
                : OptionalLong.empty(),
            trialMs);
    this.stoppedBy = stops.maxReached();
  }

  /** What a run is made of, set by name. */
  private static final class Builder {
    AbSettings ab;
    AbServers servers;
    CandidateServer candidate;
    RequestChains candidateChains;
    Target target;
    Level level;
    long seed;
    List<AbGateTrack> tracks;
    int trialSeconds;
    RunRecorder recorder;
    List<Double> percentiles;
    PrintStream out;
  }

  /**
   * The A/B run {@code -Dcandidate.url} asks for, server B checked, its requests' chains made.
   *
   * @throws SettingsException when no relative gate is there to decide, or one cannot be judged on
   *     pairs
   */
  static AbRun begin(AbSettings ab, AbServers servers, LoadMode.Context context) {
    BenchSettings settings = context.settings();
    RunGates gates = context.gates();
    Target target = context.target();
    List<Phase> phases = context.phases();
    Level level =
        phases.stream().map(Phase::level).filter(Level::measured).findFirst().orElseThrow();
    GateSet.Judging judging = gates.set().judging();
    List<Gate> relative = relativeGates(gates.set(), level, ab);
    GateJudgement.Family family =
        new GateJudgement.Family(relative.size(), 1 - judging.confidence(), judging.bonferroni());
    List<AbGateTrack> tracks = new ArrayList<>();
    AbSettings.Units units = ab.units();
    for (Gate g : relative) {
      tracks.add(
          new AbGateTrack(
              g, 1 - family.perGate(), judging.power(), units, ab.servers().processes(), family));
    }
    Builder b = new Builder();
    b.ab = ab;
    b.servers = servers;
    b.target = target;
    b.level = level;
    b.seed = settings.workload().seed();
    b.tracks = tracks;
    b.trialSeconds = settings.load().durationSeconds();
    b.recorder = context.recorder();
    Set<Double> ps = new LinkedHashSet<>(LatencyStats.DEFAULT_PERCENTILES);
    ps.addAll(gates.set().percentiles());
    b.percentiles = List.copyOf(ps);
    b.out = context.out();
    b.candidate =
        CandidateServer.check(
            settings, servers.candidateUrl(), ab.candidateModel(), target.model(), context.out());
    b.candidateChains =
        RequestChains.forCandidate(
            settings,
            target,
            b.candidate,
            context.workload(),
            context.recorder(),
            context.clientProbe());
    return new AbRun(b);
  }

  /** The relative gates, each one the pairs can judge; at least one. */
  private static List<Gate> relativeGates(GateSet set, Level level, AbSettings ab) {
    String flag = ab.servers().flag();
    List<Gate> relative = set.gates().stream().filter(g -> g.limit().relative()).toList();
    if (relative.isEmpty()) {
      throw new SettingsException(
          flag
              + " has nothing to decide: add a relative gate, the regression it must catch, e.g."
              + " -Dgate.tpot.mean=+10%");
    }
    for (Gate g : relative) {
      String why = whyNotJudged(g, level);
      if (why != null) {
        throw new SettingsException(
            "Invalid gate -Dgate." + g.name() + " with " + flag + ": " + why);
      }
    }
    return relative;
  }

  /** Why a relative gate cannot be judged on pairs, or null. */
  private static String whyNotJudged(Gate g, Level level) {
    GateMetric m = g.metric();
    boolean pairFigure =
        m instanceof GateMetric.Latency
            || m == GateMetric.OUTPUT_THROUGHPUT
            || m == GateMetric.REQUEST_THROUGHPUT
            || m == GateMetric.INPUT_THROUGHPUT;
    if (!pairFigure) {
      return "a pair judges a latency (tpot.mean, ttft.p99, ...) or a throughput"
          + " (output_throughput.min, ...)";
    }
    if (g.level() != null && !g.level().equals(level)) {
      return "the run's level is " + level.tag();
    }
    double pct = g.limit().value();
    if (g.upperBound() ? !(pct > 0) : !(pct < 0 && pct > -100)) {
      return "the limit names the regression to catch: above +0% for a latency, between -100%"
          + " and -0% for a throughput";
    }
    return null;
  }

  /** The load: the warmup (to A and B in turn), then the pairs. */
  @Override
  public PopulationBuilder load(LoadMode.Levels levels) {
    return AbPairsLoad.of(
        level,
        units.maxPairs(),
        levels.settings().load(),
        levels.settings().workload().seed(),
        levels.phases().stream().filter(p -> !p.level().measured()).toList(),
        levels.drained()::apply,
        levels.chains(),
        candidateChains,
        this);
  }

  /**
   * The longest the pairs may last: the budget, else every pair, with time for stragglers.
   *
   * @param trialSeconds one trial's length ({@code -Dduration})
   */
  static Duration loadLimit(AbSettings ab, int trialSeconds, int timeoutSeconds) {
    AbSettings.Units units = ab.units();
    long perTrial = trialSeconds + timeoutSeconds + 2L; // a slot's tick besides
    long pairsSeconds = 2L * units.maxPairs() * perTrial;
    long restarts = ab.servers().restartLimit().toSeconds() * (units.max() - 1L);
    if (ab.budgetMinutes().isPresent()) {
      pairsSeconds =
          Math.min(
              pairsSeconds, ab.budgetMinutes().getAsInt() * 60L + 2L * units.pairs() * perTrial);
    }
    return Duration.ofSeconds(pairsSeconds + restarts + 2L * units.maxPairs());
  }

  /** The next trial, or empty when the run is over. */
  @Override
  public synchronized Optional<PairPlan.Trial> next() {
    long now = clockMs.getAsLong();
    if (startedMs < 0) {
      startedMs = now;
    }
    int trialsPerUnit = 2 * units.pairs();
    if (trials % trialsPerUnit == 0) { // a new unit: only while there is something to decide
      int unitsRun = trials / trialsPerUnit;
      Optional<String> stop = stopBeforeUnit(unitsRun, now);
      if (stop.isPresent()) {
        stoppedBy = stop.get();
        return Optional.empty();
      }
      Optional<String> failed = preparedFailure(unitsRun + 1);
      if (failed.isPresent()) {
        stoppedBy = "a server failed to start for " + units.name() + " " + (unitsRun + 1);
        out.println("gatling-llm-bench: A/B: " + stoppedBy + ": " + failed.get());
        return Optional.empty();
      }
    }
    return Optional.of(plan.trial(trials++));
  }

  /**
   * Why unit {@code unit}'s servers could not be made ready, or empty: unit 1's were before the
   * warmup, the others' since the unit before drained ({@link #drained}).
   */
  private Optional<String> preparedFailure(int unit) {
    if (unit == 1) {
      return Optional.empty();
    }
    try {
      preparing.join();
      return Optional.empty();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return Optional.of(String.valueOf(cause.getMessage()));
    }
  }

  /** Why no unit follows the {@code unitsRun} run so far, at {@code nowMs}; empty: one does. */
  private Optional<String> stopBeforeUnit(int unitsRun, long nowMs) {
    return stops.beforeUnit(
        unitsRun, tracks.stream().allMatch(AbGateTrack::decided), nowMs - startedMs);
  }

  /**
   * Whether the next unit's servers are ready (or failed): the load waits, not blocked, till then.
   */
  @Override
  public synchronized boolean readyForNext() {
    return preparing.isDone();
  }

  /** After a trial has drained: once its unit's last pair has, judges the unit. */
  @Override
  public synchronized void drained(PairPlan.Trial t, Level trialLevel) {
    if (t.endsPair() && t.pair() % units.pairs() == 0) {
      int unit = t.pair() / units.pairs();
      judge(unit);
      // asked again as the next unit starts, with the restart's time counted (next())
      if (stopBeforeUnit(unit, clockMs.getAsLong()).isEmpty()) {
        // nothing is in flight now: the next unit's servers (fresh ones, where the kit starts
        // them) are made ready off Gatling's threads while its slot waits (readyForNext)
        preparing = servers.beforeUnit(unit + 1, out);
      }
    }
  }

  /** Each gate's look at unit {@code unit}: its pairs' requests pooled on each side. */
  private void judge(int unit) {
    int firstPair = (unit - 1) * units.pairs() + 1;
    int lastPair = unit * units.pairs();
    List<RequestRecord> a = new ArrayList<>();
    List<RequestRecord> b = new ArrayList<>();
    int[] perPairA = new int[units.pairs()];
    int[] perPairB = new int[units.pairs()];
    for (RequestRecord r : recorder.finishedSoFar()) {
      int pair = RequestOrigin.pairOf(r.origin());
      if (pair >= firstPair && pair <= lastPair) {
        boolean sideA = RequestOrigin.sideOf(r.origin()) == Side.A;
        (sideA ? a : b).add(r);
        (sideA ? perPairA : perPairB)[pair - firstPair]++;
      }
    }
    for (int pair = firstPair; pair <= lastPair; pair++) {
      pairs.add(
          new AbFigures.Pair(
              pair,
              plan.firstSide(pair).name(),
              perPairA[pair - firstPair],
              perPairB[pair - firstPair],
              servers.blockOf(unit)));
    }
    LevelFigures fa = figures(a);
    LevelFigures fb = figures(b);
    StringBuilder line =
        new StringBuilder(
            units.pairs() == 1
                ? String.format(
                    Locale.ROOT, "A/B pair %d (%s first):", unit, plan.firstSide(unit).name())
                : String.format(
                    Locale.ROOT, "A/B block %d (pairs %d-%d):", unit, firstPair, lastPair));
    for (AbGateTrack track : tracks) {
      boolean before = track.decided();
      SequentialTest.Look look =
          track.add(fa.get(track.gate().metric()), fb.get(track.gate().metric()));
      line.append(' ').append(track.gate().name()).append(' ');
      if (look == null) {
        line.append(before ? "decided " + track.decision() : "no figure on a side");
      } else {
        line.append(
            String.format(
                Locale.ROOT,
                "%s %.3f after %d " + units.name() + "s, %s;",
                track.orientation(),
                look.ratio(),
                look.pairs(),
                look.decision()));
      }
    }
    out.println(line);
  }

  private LevelFigures figures(List<RequestRecord> side) {
    ServingMetrics m = ServingMetricsCalculator.compute(side, null, percentiles);
    return LevelFigures.of(m, Optional.empty(), Double.NaN);
  }

  /** The run's answer for {@code summary.json}, the console and the page. */
  synchronized AbFigures figures() {
    return new AbFigures(
        target.baseUrl().toString(),
        candidate.baseUrl().toString(),
        target.model(),
        candidate.model(),
        level.tag(),
        (int) (trialMs / 1000),
        pairs,
        tracks.stream().map(AbGateTrack::figures).toList(),
        stoppedBy,
        units.name(),
        servers.blocks(),
        servers.logs().map(p -> p.toAbsolutePath().toString()).orElse(null));
  }

  /** The relative gates' results, from the decisions. */
  synchronized List<GateResult> gateResults(boolean inconclusivePasses) {
    return tracks.stream().map(t -> t.result(level.tag(), inconclusivePasses)).toList();
  }

  /** The run's answer: the pairs' block, and the pairs in the summary. */
  @Override
  public LoadMode.Answer answer(RunAnalysis analysis, Optional<GoodputSpec> goodput) {
    AbFigures pairs = figures();
    return new LoadMode.Answer(AbSection.format(pairs), Optional.of(pairs), Optional.empty());
  }

  /**
   * The relative gates from the pairs' decisions; the others on the run's figures, as in any run.
   */
  @Override
  public List<GateResult> judge(RunGates gates, RunFigures runFigures) {
    if (gates.set().isEmpty()) {
      return List.of();
    }
    GateSet set = gates.set();
    GateSet absolute =
        new GateSet(
            set.gates().stream().filter(g -> !g.limit().relative()).toList(),
            set.goodput(),
            set.judging());
    List<GateResult> results =
        new ArrayList<>(
            new RunGates(absolute, Optional.empty(), RunFigures.NONE, gates.noise())
                .check(runFigures));
    results.addAll(gateResults(set.judging().inconclusivePasses()));
    return results;
  }
}
