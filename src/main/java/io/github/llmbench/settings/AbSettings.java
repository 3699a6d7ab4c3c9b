package io.github.llmbench.settings;

import io.github.llmbench.settings.RunModeSettings.Refusal;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The interleaved A/B run ({@code -Dcandidate.url=URL_B} beside {@code -Dbase.url=URL_A}): trials
 * in pairs, one on each server, in balanced blocks of two pairs (AB then BA, the block's way drawn
 * from the seed), until every relative gate has decided, {@code ab.max.pairs} pairs have run or the
 * next pair would overrun {@code ab.budget}.
 *
 * @param candidateUrl server B, the candidate ({@code -Dbase.url} is A, the base)
 * @param candidateModel the model B's requests name; empty: the run's model
 * @param minPairs pairs before the first look, at least 3
 * @param maxPairs the most pairs
 * @param budgetMinutes the most minutes of load, empty for none
 */
public record AbSettings(
    URI candidateUrl,
    Optional<String> candidateModel,
    int minPairs,
    int maxPairs,
    OptionalInt budgetMinutes)
    implements RunModeSettings {

  private static final String HEADING = SettingsTable.REPORT;

  /** The fewest pairs before a look: a spread needs some. */
  static final int MIN_PAIRS = 3;

  /** The most pairs a sequential test plans ({@code analysis.SequentialTest.MAX_PAIRS}). */
  static final int MAX_PAIRS = 200;

  public static final Setting<URI> CANDIDATE_URL =
      Setting.without(
          HEADING,
          "candidate.url",
          "none",
          "an http(s) URL, e.g. http://127.0.0.1:8001",
          "server B of an interleaved A/B run beside -Dbase.url (A): trials in pairs until the"
              + " relative gates decide",
          ServerSettings::parseBaseUrl);
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
      List.of(CANDIDATE_URL, CANDIDATE_MODEL, AB_MAX_PAIRS, AB_MIN_PAIRS, AB_BUDGET);

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
          r -> r.isSet(CANDIDATE_URL),
          r -> "-Dcandidate.url=" + r.raw(CANDIDATE_URL).orElse(""),
          List.of(CANDIDATE_MODEL, AB_MAX_PAIRS, AB_MIN_PAIRS, AB_BUDGET),
          "-Dcandidate.url=URL_B",
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

  /** Reads the group once the mode is chosen, refusing what an A/B run cannot compare. */
  private static AbSettings read(RunModeSettings.Inputs in) {
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
    int duration = in.load().durationSeconds();
    Optional<Integer> budget = r.optional(AB_BUDGET);
    if (budget.isPresent() && budget.get() * 60L < 2L * duration) {
      throw SettingsException.invalid(
          AB_BUDGET.name(),
          String.valueOf(budget.get()),
          "minutes enough for a pair, two trials of -Dduration=" + duration + " s");
    }
    return new AbSettings(
        url,
        r.optional(CANDIDATE_MODEL),
        min,
        max,
        budget.map(OptionalInt::of).orElse(OptionalInt.empty()));
  }
}
