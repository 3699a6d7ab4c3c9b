package io.github.llmbench.settings;

import io.github.llmbench.settings.RunModeSettings.Refusal;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The interleaved A/B run: trials in pairs, one on each server, in balanced blocks of two pairs (AB
 * then BA, the block's way drawn from the seed), until every relative gate has decided, the most
 * units have run or the next would overrun {@code ab.budget}. The servers are given ({@code
 * -Dcandidate.url=URL_B} beside {@code -Dbase.url=URL_A}: one process a side for the whole run, the
 * unit of the sequential test a pair) or started by the kit ({@code -Dcandidate.serve.cmd} beside
 * {@code -Dserve.cmd}: both restarted for each block of pairs, the unit a block), as {@link
 * Servers} says.
 *
 * @param servers the two servers, and what the sequential test's unit is
 * @param candidateModel the model B's requests name; empty: the run's model
 * @param budgetMinutes the most minutes of load, empty for none
 */
public record AbSettings(
    Servers servers, Optional<String> candidateModel, OptionalInt budgetMinutes)
    implements RunModeSettings {

  /**
   * The sequential test's unit and its count.
   *
   * @param name {@code pair} or {@code block}, as the lines name it
   * @param pairs the pairs in one unit
   * @param min units before the first look
   * @param max the most units
   */
  public record Units(String name, int pairs, int min, int max) {
    /** The most pairs the run may send. */
    public int maxPairs() {
      return pairs * max;
    }
  }

  /** The two servers of the run, each kind with its unit. */
  public sealed interface Servers permits Given, Deployed {
    Units units();

    /** The servers as the settings' line describes them. */
    String described();

    /** The setting that gave server B, as a refusal names it. */
    String flag();

    /**
     * What the units' processes are, as the gate's noise line says it: whether a lasting difference
     * between two processes of one build is in the units' spread.
     */
    String processes();

    /** The longest the servers may take between two units: none, or a restart of both. */
    Duration restartLimit();
  }

  /**
   * Servers the user runs ({@code -Dcandidate.url}): one process a side all run long, so a lasting
   * difference between the two processes is in every pair (the test's unit, see docs/gates.md).
   *
   * @param candidateUrl server B ({@code -Dbase.url} is A)
   */
  public record Given(URI candidateUrl, int minPairs, int maxPairs) implements Servers {
    @Override
    public Units units() {
      return new Units("pair", 1, minPairs, maxPairs);
    }

    @Override
    public String described() {
      return candidateUrl + " (B, against base.url as A; relative gates judged on the pairs)";
    }

    @Override
    public String flag() {
      return "-Dcandidate.url=" + candidateUrl;
    }

    @Override
    public String processes() {
      return "every pair on the same two processes: a lasting difference between them (two"
          + " processes of one build can differ by several per cent) reads as a change and is not"
          + " in this sd; -Dcandidate.serve.cmd with -Dserve.cmd runs blocks of fresh deployments";
    }

    @Override
    public Duration restartLimit() {
      return Duration.ZERO;
    }
  }

  /**
   * Servers the kit starts ({@code -Dserve.cmd} for A, {@code -Dcandidate.serve.cmd} for B, each
   * with {@code {port}} or the kit's {@code simulator}), both stopped and started afresh before
   * each block of {@code pairsPerBlock} pairs: a block's mean is the test's unit, and the lasting
   * offset of a process, drawn anew each block, is in the units' spread.
   *
   * @param readyTimeout how long each start may take to be ready ({@code -Dready.timeout})
   * @param grace how long a stopped server may take to end after SIGTERM, before SIGKILL
   */
  public record Deployed(
      String baseCommand,
      String candidateCommand,
      int pairsPerBlock,
      int maxBlocks,
      Duration readyTimeout,
      Duration grace)
      implements Servers {
    @Override
    public Units units() {
      return new Units("block", pairsPerBlock, MIN_PAIRS, maxBlocks);
    }

    @Override
    public String described() {
      return "B started by the kit (-Dcandidate.serve.cmd), A by -Dserve.cmd, both afresh for"
          + " each block of "
          + pairsPerBlock
          + " pairs; relative gates judged on the blocks";
    }

    @Override
    public String flag() {
      return "-Dcandidate.serve.cmd";
    }

    @Override
    public String processes() {
      return "each block on two processes started for it: their lasting offsets are in this sd";
    }

    /** Both stopped (each within its grace), then both started and ready. */
    @Override
    public Duration restartLimit() {
      return grace.multipliedBy(2).plus(readyTimeout);
    }
  }

  /** The sequential test's unit: a pair, or a block of fresh deployments. */
  public Units units() {
    return servers.units();
  }

  private static final String HEADING = SettingsTable.REPORT;

  /** The fewest pairs before a look: a spread needs some. */
  static final int MIN_PAIRS = 3;

  /** The most pairs a sequential test plans ({@code analysis.SequentialTest.MAX_PAIRS}). */
  static final int MAX_PAIRS = 200;

  /** The most pairs in a block of fresh deployments. */
  static final int MAX_BLOCK_PAIRS = 20;

  /** The most blocks: each costs two server starts. */
  static final int MAX_BLOCKS = 50;

  public static final Setting<URI> CANDIDATE_URL =
      Setting.without(
          HEADING,
          "candidate.url",
          "none",
          "an http(s) URL, e.g. http://127.0.0.1:8001",
          "server B of an interleaved A/B run beside -Dbase.url (A): trials in pairs until the"
              + " relative gates decide",
          ServerSettings::parseBaseUrl);
  public static final Setting<String> CANDIDATE_SERVE_CMD =
      Setting.without(
          HEADING,
          "candidate.serve.cmd",
          "none",
          "a command with {port}, written as for sh, or simulator [OPTIONS] (as -Dserve.cmd)",
          "server B, which the kit runs beside -Dserve.cmd (A): both anew for each block of"
              + " -Dab.block.pairs pairs, the blocks judged as the test's units",
          Parser.text());
  public static final Setting<Integer> AB_BLOCK_PAIRS =
      Setting.of(
          HEADING,
          "ab.block.pairs",
          2,
          "an even whole number from 2 to " + MAX_BLOCK_PAIRS,
          "pairs per block of fresh deployments (-Dcandidate.serve.cmd), half of them A first",
          Parser.positiveInt(MAX_BLOCK_PAIRS));
  public static final Setting<Integer> AB_MAX_BLOCKS =
      Setting.of(
          HEADING,
          "ab.max.blocks",
          10,
          "a whole number from " + MIN_PAIRS + " to " + MAX_BLOCKS,
          "the most blocks of fresh deployments; undecided gates are then inconclusive",
          Parser.positiveInt(MAX_BLOCKS));
  public static final Setting<String> CANDIDATE_MODEL =
      Setting.without(
          HEADING,
          "candidate.model",
          "the run's model",
          "a model id server B serves",
          "the model B's requests name",
          Parser.text());
  public static final Setting<Integer> AB_MAX_PAIRS =
      Setting.of(
          HEADING,
          "ab.max.pairs",
          20,
          "a whole number from " + MIN_PAIRS + " to " + MAX_PAIRS,
          "the most A/B pairs; undecided gates are then inconclusive",
          Parser.positiveInt(MAX_PAIRS));
  public static final Setting<Integer> AB_MIN_PAIRS =
      Setting.of(
          HEADING,
          "ab.min.pairs",
          MIN_PAIRS,
          "a whole number from " + MIN_PAIRS + " to " + MAX_PAIRS,
          "A/B pairs before the first look",
          Parser.positiveInt(MAX_PAIRS));
  public static final Setting<Integer> AB_BUDGET =
      Setting.without(
          HEADING,
          "ab.budget",
          "none",
          "a whole number of minutes from 1",
          "the A/B run's most minutes of load: no pair starts that would end after it",
          Parser.positiveInt(7 * 24 * 60));

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS =
      List.of(
          CANDIDATE_URL,
          CANDIDATE_SERVE_CMD,
          CANDIDATE_MODEL,
          AB_MAX_PAIRS,
          AB_MIN_PAIRS,
          AB_BLOCK_PAIRS,
          AB_MAX_BLOCKS,
          AB_BUDGET);

  /**
   * The mode: one level, timed trials, one injector, no baseline (the pairs are the run's trials),
   * no calls to the servers between trials, no history (a history is one testbed's series; an A/B
   * run's levels hold two servers' requests, and its pairs bring their own noise). The check that a
   * relative gate is there to decide is the gates' (a gates file may hold it): see {@code
   * run.InterleavedAb}.
   */
  static final RunModeSettings.Kind KIND =
      new RunModeSettings.Kind(
          "an interleaved A/B run",
          Optional.of(new SettingsTable.Topic("ab", SETTINGS)),
          r -> r.isSet(CANDIDATE_URL) || startsServers(r),
          AbSettings::flag,
          List.of(
              CANDIDATE_MODEL,
              AB_MAX_PAIRS,
              AB_MIN_PAIRS,
              AB_BLOCK_PAIRS,
              AB_MAX_BLOCKS,
              AB_BUDGET),
          "-Dcandidate.url=URL_B or -Dcandidate.serve.cmd=...",
          List.of(
              Refusal.of(
                  "runs one level (-Dconc=N or -Drate=R): drop -Dladder and -Dramp",
                  LoadShape.LADDER,
                  LoadShape.RAMP),
              Refusal.of("cannot run beside a capacity search: drop -Dsearch", LoadShape.SEARCH),
              Refusal.of(
                  "cannot replay a trace (its times set the load): use another dataset",
                  LoadShape.TRACE),
              Refusal.of(
                  "runs timed trials (-Dduration s a side): drop -Dprompts", LoadShape.PROMPTS),
              Refusal.of(
                  "runs its own trials, in pairs: drop -Dtrials (-Dab.max.pairs bounds them)",
                  LoadShape.TRIALS),
              Refusal.of("runs in one injector: drop -Dinjector", LoadShape.INJECTOR),
              Refusal.of(
                  "compares two servers, not a sweep's combinations: drop -Dsweep and"
                      + " -Dserve.params",
                  LoadShape.SWEPT),
              Refusal.of(
                  "compares B with A, not with a stored run: drop -Dbaseline", LoadShape.BASELINE),
              Refusal.line(
                  in ->
                      "-Dgate.run.noise="
                          + in.reader().raw(GateSettings.GATE_RUN_NOISE).orElse("")
                          + " is a stored baseline's run-to-run noise: an interleaved A/B run's"
                          + " pairs cancel it; drop -Dgate.run.noise",
                  LoadShape.RUN_NOISE),
              Refusal.of(
                  "does not call the servers between trials: drop -Dcache.reset and -Dprofile",
                  LoadShape.SERVER_CALLS),
              Refusal.line(
                  in ->
                      "-Dhistory="
                          + in.report().history().dir().orElseThrow()
                          + " keeps one server's series: an interleaved A/B run (-Dcandidate.url)"
                          + " holds two; record the history in the runs of one server",
                  LoadShape.HISTORY)),
          AbSettings::read);

  @Override
  public RunModeSettings.Kind modeKind() {
    return KIND;
  }

  /**
   * Whether the properties ask the kit to start both servers of an A/B run ({@code
   * -Dcandidate.serve.cmd}): then {@code -Dserve.cmd} is A's, not a sweep's, and no embedded
   * simulator runs. The one place that says so; the sweep's choice and the routing ask it.
   */
  static boolean startsServers(SettingReader r) {
    return r.isSet(CANDIDATE_SERVE_CMD);
  }

  /** The choosing flag, as the refusals name it. */
  private static String flag(SettingReader r) {
    return startsServers(r)
        ? "-Dcandidate.serve.cmd"
        : "-Dcandidate.url=" + r.raw(CANDIDATE_URL).orElse("");
  }

  /** Reads the group once the mode is chosen, refusing what an A/B run cannot compare. */
  private static AbSettings read(RunModeSettings.Inputs in) {
    SettingReader r = in.reader();
    Servers servers = startsServers(r) ? deployed(in) : given(in);
    int duration = in.load().durationSeconds();
    Optional<Integer> budget = r.optional(AB_BUDGET);
    if (budget.isPresent() && budget.get() * 60L < 2L * duration * servers.units().pairs()) {
      throw SettingsException.invalid(
          AB_BUDGET.name(),
          String.valueOf(budget.get()),
          "minutes enough for a "
              + servers.units().name()
              + ", "
              + 2 * servers.units().pairs()
              + " trials of -Dduration="
              + duration
              + " s");
    }
    return new AbSettings(
        servers,
        r.optional(CANDIDATE_MODEL),
        budget.map(OptionalInt::of).orElse(OptionalInt.empty()));
  }

  /** Servers given by URL: A's is {@code -Dbase.url}, one. */
  private static Given given(RunModeSettings.Inputs in) {
    SettingReader r = in.reader();
    ServerSettings server = in.server();
    URI url = r.optional(CANDIDATE_URL).orElseThrow();
    String flag = "-Dcandidate.url=" + url;
    if (server.routing().baseUrls().size() != 1) {
      throw new SettingsException(
          flag
              + (server.routing().baseUrls().isEmpty()
                  ? " needs -Dbase.url=URL_A, the base it is compared with (the embedded"
                      + " simulator is no side of an A/B run)"
                  : " compares one server with one: give -Dbase.url a single URL"));
    }
    if (server.routing().baseUrls().get(0).equals(url)) {
      throw new SettingsException(flag + " is -Dbase.url itself: give server B's URL");
    }
    refuseIn(
        r,
        List.of(AB_BLOCK_PAIRS, AB_MAX_BLOCKS),
        "applies to blocks of fresh deployments, which the kit starts: give"
            + " -Dcandidate.serve.cmd and -Dserve.cmd in place of the URLs");
    int min = r.get(AB_MIN_PAIRS);
    int max = r.get(AB_MAX_PAIRS);
    if (min < MIN_PAIRS) {
      throw SettingsException.invalid(
          AB_MIN_PAIRS.name(), String.valueOf(min), "a whole number from " + MIN_PAIRS);
    }
    if (min > max) {
      throw new SettingsException(
          "-Dab.min.pairs="
              + min
              + " is above -Dab.max.pairs="
              + max
              + ": the first look needs at most the most pairs");
    }
    return new Given(url, min, max);
  }

  /** Servers the kit starts, A's command {@code -Dserve.cmd}, B's {@code -Dcandidate.serve.cmd}. */
  private static Deployed deployed(RunModeSettings.Inputs in) {
    SettingReader r = in.reader();
    String flag = "-Dcandidate.serve.cmd";
    if (r.isSet(CANDIDATE_URL)) {
      throw new SettingsException(
          "-Dcandidate.url with "
              + flag
              + ": give server B once, running (-Dcandidate.url) or started by the kit ("
              + flag
              + ")");
    }
    if (!r.isSet(SweepSettings.SERVE_CMD)) {
      throw new SettingsException(
          flag + " needs -Dserve.cmd, the command that starts A (with {port}), the base");
    }
    if (!in.server().routing().baseUrls().isEmpty()) {
      throw new SettingsException(
          flag + " starts both servers, on ports the kit picks: drop -Dbase.url");
    }
    refuseIn(
        r,
        List.of(AB_MIN_PAIRS, AB_MAX_PAIRS),
        "counts pairs of servers given by URL; with "
            + flag
            + " the unit is a block of fresh deployments: -Dab.max.blocks and -Dab.block.pairs");
    int perBlock = r.get(AB_BLOCK_PAIRS);
    if (perBlock % 2 != 0) {
      throw SettingsException.invalid(
          AB_BLOCK_PAIRS.name(),
          String.valueOf(perBlock),
          "an even whole number from 2 to " + MAX_BLOCK_PAIRS + " (half the pairs A first)");
    }
    int maxBlocks = r.get(AB_MAX_BLOCKS);
    if (maxBlocks < MIN_PAIRS) {
      throw SettingsException.invalid(
          AB_MAX_BLOCKS.name(),
          String.valueOf(maxBlocks),
          "a whole number from " + MIN_PAIRS + " to " + MAX_BLOCKS);
    }
    int ready = r.get(ServerSettings.READY_TIMEOUT);
    return new Deployed(
        command(r, SweepSettings.SERVE_CMD),
        command(r, CANDIDATE_SERVE_CMD),
        perBlock,
        maxBlocks,
        Duration.ofSeconds(ready > 0 ? ready : SweepSettings.DEFAULT_READY_SECONDS),
        SweepSettings.DEFAULT_GRACE);
  }

  /** Refuses the first of {@code settings} that is set: {@code -D<name> <why>}. */
  private static void refuseIn(SettingReader r, List<Setting<?>> settings, String why) {
    for (Setting<?> s : settings) {
      if (r.isSet(s)) {
        throw new SettingsException("-D" + s.name() + " " + why);
      }
    }
  }

  /** A server's command, checked as a template with {@code {port}}, or the kit's simulator. */
  private static String command(SettingReader r, Setting<String> setting) {
    String command = r.get(setting);
    try {
      ServeTemplate template = ServeTemplate.parse(command);
      template.checkNames(Set.of());
      if (!SweepSettings.startsTheSimulator(command) && !template.names().contains("port")) {
        throw new IllegalArgumentException(
            "a command with {port} (a free port the kit picks), or simulator [OPTIONS]");
      }
    } catch (IllegalArgumentException e) {
      throw SettingsException.invalid(setting.name(), command, e.getMessage());
    }
    return command;
  }
}
