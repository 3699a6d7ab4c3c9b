package io.github.llmbench.settings;

import io.github.llmbench.core.LengthDistribution;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The workload group of settings ({@code -Dhelp}'s "Workload"), read as the prompts and lengths:
 * the dataset, the input and output lengths and their spread, shared prefixes, the seed, the
 * profiles, multi-turn conversations and a trace's speed; the images a request carries are their
 * own group ({@link Images}).
 */
public record WorkloadSettings(
    DatasetKind dataset,
    Optional<Path> file,
    int inputLen,
    int outputLen,
    double rangeRatio,
    LengthDistribution inputLengths,
    LengthDistribution outputLengths,
    int prefixLen,
    int prefixGroups,
    long seed,
    boolean seedPinned,
    ProfileSelection profiles,
    boolean profilesMixed,
    int turns,
    double thinkSeconds,
    double traceSpeed,
    Images images,
    Optional<SessionSettings> sessions) {

  private static final String HEADING = SettingsTable.WORKLOAD;
  private static final Parser<String> TEXT = Parser.text();

  /**
   * The most tokens of any one length: a prompt, an answer ({@code max_tokens}), a shared prefix, a
   * dataset's, trace's or session file's length ({@code workload.TokenLengths} checks those).
   */
  public static final int MAX_LEN = 10_000_000;

  /** The most distinct prefixes of {@code -Dprefix.groups}. */
  static final int MAX_PREFIX_GROUPS = 100_000;

  static final int MAX_TURNS = 1000;

  private static final String ACCEPTED_DATASETS =
      "random, profiles, file:PATH, trace:PATH, sessions:PATH, weka:PATH or agents";

  public static final Setting<String> DATASET =
      Setting.of(HEADING, "dataset", "random", ACCEPTED_DATASETS, "where prompts come from", TEXT);
  public static final Setting<Integer> INPUT_LEN =
      Setting.of(
          HEADING,
          "input.len",
          1024,
          "a whole number from 1",
          "random: prompt tokens, exact",
          Parser.positiveInt(MAX_LEN));
  public static final Setting<Integer> OUTPUT_LEN =
      Setting.of(
          HEADING,
          "output.len",
          128,
          "a whole number from 1",
          "max_tokens of each request (with ignore_eos)",
          Parser.positiveInt(MAX_LEN));
  public static final Setting<Double> RANGE_RATIO =
      Setting.of(
          HEADING,
          "range.ratio",
          0.0,
          "a number from 0 up to 1",
          "random: lengths drawn from [len x (1 - r), len x (1 + r)]",
          Parser.fraction());
  public static final Setting<Double> INPUT_STDEV =
      Setting.of(
          HEADING,
          "input.stdev",
          0.0,
          "a number from 0",
          "random: standard deviation of the prompt lengths around input.len (normal unless"
              + " length.dist says otherwise), clipped to at least 1 and to the context",
          Parser.number(v -> v >= 0 && v <= MAX_LEN, "a number from 0"));
  public static final Setting<Double> OUTPUT_STDEV =
      Setting.of(
          HEADING,
          "output.stdev",
          0.0,
          "a number from 0",
          "random: standard deviation of the output lengths (max_tokens) around output.len",
          Parser.number(v -> v >= 0 && v <= MAX_LEN, "a number from 0"));
  public static final Setting<String> LENGTH_DIST =
      Setting.without(
          HEADING,
          "length.dist",
          "normal with input.stdev or output.stdev, else vLLM's uniform range.ratio",
          "normal, lognormal or uniform",
          "random: the family the lengths are drawn from, with the stdevs (uniform: mean +-"
              + " sqrt(3) x stdev)",
          Parser.word(List.of("normal", "lognormal", "uniform"), "normal, lognormal or uniform"));
  public static final Setting<Integer> PREFIX_LEN =
      Setting.of(
          HEADING,
          "prefix.len",
          0,
          "a whole number from 0",
          "random: tokens of the prefix shared by the requests (of its group, with prefix.groups)",
          Parser.nonNegativeInt(MAX_LEN));
  public static final Setting<Integer> PREFIX_GROUPS =
      Setting.of(
          HEADING,
          "prefix.groups",
          1,
          "a whole number from 1 to " + MAX_PREFIX_GROUPS,
          "random: distinct prefixes of prefix.len tokens, the requests taking them in turn (a"
              + " perfect prefix cache's hit rate is on the start line)",
          Parser.positiveInt(MAX_PREFIX_GROUPS));
  public static final Setting<Long> SEED =
      Setting.without(
          HEADING,
          "seed",
          "fresh per run",
          "a whole number",
          "seeds prompts, file order, profile mix and arrival gaps; repeats a run",
          Parser.anyLong());
  public static final Setting<ProfileSelection> PROFILES =
      Setting.of(
          HEADING,
          "profiles",
          ProfileSelection.parse("tiny"),
          "tiny, huge, or GROUP:P1,P2 (e.g. tiny:SS,LL)",
          "profiles: the seed study's SS/SL/LS/LL groups",
          (name, raw) -> {
            if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
              throw SettingsException.invalid(
                  name,
                  raw,
                  "tiny, huge, or GROUP:P1,P2 (the server's profiler is -Dprofile=" + raw + ")");
            }
            return ProfileSelection.parse(raw);
          });
  public static final Setting<String> PROFILE_ORDER =
      Setting.of(
          HEADING,
          "profile.order",
          "sequential",
          "sequential or mixed",
          "profiles: one after another, or drawn per request",
          Parser.word(List.of("sequential", "mixed"), "sequential or mixed"));
  public static final Setting<Integer> TURNS =
      Setting.of(
          HEADING,
          "turns",
          1,
          "a whole number from 1",
          "multi-turn: each virtual user holds a conversation of this many turns",
          Parser.positiveInt(MAX_TURNS));
  public static final Setting<Double> THINK_TIME =
      Setting.of(
          HEADING,
          "think.time",
          0.0,
          "a number of seconds from 0",
          "multi-turn: pause between an answer and the next turn",
          Parser.nonNegativeSeconds());
  public static final Setting<Double> TRACE_SPEED =
      Setting.of(
          HEADING,
          "trace.speed",
          1.0,
          "a number above 0",
          "trace replay: the trace's pace times this",
          Parser.positiveDouble());

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<SettingsTable.Setting<?>> SETTINGS =
      List.of(
          DATASET,
          INPUT_LEN,
          OUTPUT_LEN,
          RANGE_RATIO,
          INPUT_STDEV,
          OUTPUT_STDEV,
          LENGTH_DIST,
          PREFIX_LEN,
          PREFIX_GROUPS,
          SEED,
          PROFILES,
          PROFILE_ORDER,
          TURNS,
          THINK_TIME,
          TRACE_SPEED);

  /** How the dataset is named in the output: random, profiles:tiny, file:PATH, trace:PATH. */
  public String describe() {
    return switch (dataset) {
      case RANDOM -> "random";
      case PROFILES -> "profiles:" + profiles;
      case FILE -> "file:" + file.get();
      case TRACE -> "trace:" + file.get();
      case SESSIONS -> "sessions:" + file.get();
      case WEKA -> "weka:" + file.get();
      case AGENTS -> "agents";
    };
  }

  /** Whether each virtual user holds a conversation of several turns ({@code -Dturns}). */
  public boolean multiTurn() {
    return turns > 1;
  }

  /** Reads the group's settings and refuses a bad value, or a bad pair within the group. */
  static WorkloadSettings read(SettingReader r, Images images) {
    int inputLen = r.get(INPUT_LEN);
    int outputLen = r.get(OUTPUT_LEN);
    Source source = source(r.get(DATASET));
    DatasetKind dataset = source.kind();
    int turns = r.get(TURNS);
    checkConversationsAndTraces(r, dataset, turns);
    int prefixLen = r.get(PREFIX_LEN);
    int prefixGroups = r.get(PREFIX_GROUPS);
    if (prefixGroups > 1 && prefixLen == 0) {
      throw new SettingsException(
          "-Dprefix.groups=" + prefixGroups + " needs -Dprefix.len=L (the tokens of each prefix)");
    }
    Lengths lengths = lengths(r, dataset, inputLen, outputLen);
    Optional<Long> pinnedSeed = r.optional(SEED);
    // A fresh seed per run: a repeated seed repeats prompts, which a prefix cache then serves.
    long seed = pinnedSeed.orElseGet(() -> new SecureRandom().nextLong() & 0xFFFF_FFFFL);
    ProfileSelection profiles = r.get(PROFILES);
    String order = r.get(PROFILE_ORDER);
    if (dataset != DatasetKind.PROFILES && (r.isSet(PROFILES) || r.isSet(PROFILE_ORDER))) {
      throw new SettingsException("-Dprofiles and -Dprofile.order apply to -Ddataset=profiles");
    }
    return new WorkloadSettings(
        dataset,
        source.file(),
        inputLen,
        outputLen,
        lengths.rangeRatio(),
        lengths.input(),
        lengths.output(),
        prefixLen,
        prefixGroups,
        seed,
        pinnedSeed.isPresent(),
        profiles,
        order.equals("mixed"),
        turns,
        r.get(THINK_TIME),
        r.get(TRACE_SPEED),
        images,
        SessionSettings.read(r, dataset));
  }

  /** Where prompts come from: {@code -Ddataset}'s kind, and its file for a file or a trace. */
  private record Source(DatasetKind kind, Optional<Path> file) {}

  private static Source source(String raw) {
    if (raw.equals("random")) {
      return new Source(DatasetKind.RANDOM, Optional.empty());
    } else if (raw.equals("profiles")) {
      return new Source(DatasetKind.PROFILES, Optional.empty());
    } else if (raw.startsWith("file:") && raw.length() > 5) {
      return new Source(DatasetKind.FILE, Optional.of(Path.of(raw.substring(5))));
    } else if (raw.startsWith("trace:") && raw.length() > 6) {
      return new Source(DatasetKind.TRACE, Optional.of(Path.of(raw.substring(6))));
    } else if (raw.startsWith("sessions:") && raw.length() > 9) {
      return new Source(DatasetKind.SESSIONS, Optional.of(Path.of(raw.substring(9))));
    } else if (raw.startsWith("weka:") && raw.length() > 5) {
      return new Source(DatasetKind.WEKA, Optional.of(Path.of(raw.substring(5))));
    } else if (raw.equals("agents")) {
      return new Source(DatasetKind.AGENTS, Optional.empty());
    }
    throw SettingsException.invalid("dataset", raw, ACCEPTED_DATASETS);
  }

  /** A trace's requests are single turns at its own speed; think time is between turns. */
  private static void checkConversationsAndTraces(SettingReader r, DatasetKind dataset, int turns) {
    if (SessionSettings.isSessions(dataset) && (turns > 1 || r.isSet(THINK_TIME))) {
      throw new SettingsException(
          "-Dturns and -Dthink.time do not apply to agent sessions (a session file says its"
              + " calls and their delays)");
    }
    if (dataset == DatasetKind.TRACE && turns > 1) {
      throw new SettingsException(
          "-Dturns does not apply to -Ddataset=trace:PATH (a trace's requests are single turns)");
    }
    if (dataset != DatasetKind.TRACE && r.isSet(TRACE_SPEED)) {
      throw new SettingsException("-Dtrace.speed applies to -Ddataset=trace:PATH");
    }
    if (turns == 1 && r.isSet(THINK_TIME)) {
      throw new SettingsException(
          "-Dthink.time applies to multi-turn runs: add -Dturns=N (N from 2)");
    }
  }

  /**
   * The input and output lengths' spread: vLLM's uniform {@code -Drange.ratio}, or a distribution
   * of {@code -Dlength.dist}'s shape with a standard deviation each.
   */
  private record Lengths(double rangeRatio, LengthDistribution input, LengthDistribution output) {}

  private static Lengths lengths(
      SettingReader r, DatasetKind dataset, int inputLen, int outputLen) {
    double rangeRatio = r.get(RANGE_RATIO);
    double inputStdev = r.get(INPUT_STDEV);
    double outputStdev = r.get(OUTPUT_STDEV);
    Optional<String> dist = r.optional(LENGTH_DIST);
    boolean spread = inputStdev > 0 || outputStdev > 0;
    for (SettingsTable.Setting<?> s :
        List.of(INPUT_STDEV, OUTPUT_STDEV, LENGTH_DIST, PREFIX_GROUPS)) {
      if (dataset != DatasetKind.RANDOM && r.isSet(s)) {
        throw new SettingsException("-D" + s.name() + " applies to -Ddataset=random");
      }
    }
    if (spread && rangeRatio > 0) {
      throw new SettingsException(
          "-Drange.ratio and -Dinput.stdev/-Doutput.stdev both spread the lengths: give one"
              + " (range.ratio is vLLM's uniform range, a stdev a distribution's)");
    }
    LengthDistribution.Shape shape = LengthDistribution.Shape.NORMAL;
    if (dist.isPresent()) {
      shape = LengthDistribution.Shape.valueOf(dist.get().toUpperCase(Locale.ROOT));
      if (!spread && !(rangeRatio > 0 && shape == LengthDistribution.Shape.UNIFORM)) {
        throw new SettingsException(
            "-Dlength.dist="
                + dist.get()
                + " needs -Dinput.stdev=S or -Doutput.stdev=S (the spread of the lengths)");
      }
    }
    return spread
        ? new Lengths(
            rangeRatio,
            LengthDistribution.of(shape, inputLen, inputStdev),
            LengthDistribution.of(shape, outputLen, outputStdev))
        : new Lengths(
            rangeRatio,
            LengthDistribution.ofRangeRatio(inputLen, rangeRatio),
            LengthDistribution.ofRangeRatio(outputLen, rangeRatio));
  }
}
