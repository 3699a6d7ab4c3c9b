package io.github.llmbench.settings;

import io.github.llmbench.core.Level;
import io.github.llmbench.endpoints.Endpoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The registry of the kit's {@code -D} settings: the groups, in one list, each a file that holds
 * its settings (name, default, accepted values and meaning), its record of values, its reader and
 * its checks ({@link ServerSettings}, {@link LoadSettings}, ...). {@link BenchSettings} reads only
 * names listed here (its reader refuses others), {@link #unknown} refuses properties in the kit's
 * namespaces that are not listed (and near misses of listed ones), and {@code -Dhelp} prints this
 * table: help and validation cannot drift apart.
 */
public final class SettingsTable {
  private SettingsTable() {}

  /**
   * One setting: how {@code -Dhelp} words it, how its text is read, and what applies when it is not
   * set.
   *
   * @param name the property without {@code -D}; a family ends with a dot ({@code header.})
   * @param defaultValue what applies when it is not set, as {@code -Dhelp} words it
   * @param accepted what values it takes, as {@code -Dhelp} words them
   * @param parser reads a given value (trimmed, not empty), or refuses it in one line
   * @param typedDefault the value that applies when it is not set; empty where there is none or
   *     where it follows from other settings (the words in {@code defaultValue} say which)
   */
  public record Setting<T>(
      String group,
      String name,
      String defaultValue,
      String accepted,
      String meaning,
      Parser<T> parser,
      Optional<T> typedDefault) {
    boolean family() {
      return name.endsWith(".");
    }

    /**
     * A setting whose default is one value, which {@code -Dhelp} shows as typed ({@code 16}, not
     * {@code 16.0}).
     */
    static <T> Setting<T> of(
        String group,
        String name,
        T defaultValue,
        String accepted,
        String meaning,
        Parser<T> parser) {
      return new Setting<>(
          group, name, shown(defaultValue), accepted, meaning, parser, Optional.of(defaultValue));
    }

    /**
     * A setting without a default value: none, or one the code derives from other settings, as the
     * words say.
     */
    static <T> Setting<T> without(
        String group,
        String name,
        String defaultWords,
        String accepted,
        String meaning,
        Parser<T> parser) {
      return new Setting<>(group, name, defaultWords, accepted, meaning, parser, Optional.empty());
    }

    private static String shown(Object value) {
      if (value instanceof Double d) {
        return Level.plainNumber(d);
      }
      if (value instanceof Endpoint e) {
        return e.id();
      }
      // a setting's enum is written as its lower-case name ({@code jpeg}, ...)
      return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(value);
    }
  }

  /** {@code -Dhelp}'s headings; a heading may hold several groups, which then follow each other. */
  static final String SERVER = "Server and request";

  static final String LOAD = "Load shape";
  static final String WORKLOAD = "Workload";
  static final String SIMULATOR = "Embedded simulator (no -Dbase.url)";
  static final String REPORT = "Report, gates and capacity search";
  static final String SCALE = "Telemetry, scale-out and records";

  /**
   * A {@code -Dhelp=<topic>}: one group's settings, printed alone under the heading the full list
   * prints them under (a heading may hold several topics: {@code ab}, {@code gates}, ...).
   *
   * @param id what {@code -Dhelp=} names it by
   */
  record Topic(String id, List<Setting<?>> settings) {}

  /**
   * The groups of settings, each a topic, in the order {@code -Dhelp} prints them. The run modes'
   * groups are their kinds' topics ({@link RunModeSettings#KINDS}), printed after the gates in the
   * reverse of the order the modes are chosen in: each mode before those that refuse it (an A/B run
   * refuses a search) or lead it (a sweep).
   */
  static final List<Topic> TOPICS = topics();

  private static List<Topic> topics() {
    List<Topic> out =
        new ArrayList<>(
            List.of(
                new Topic("server", ServerSettings.SETTINGS),
                new Topic("load", LoadSettings.SETTINGS),
                new Topic("workload", WorkloadSettings.SETTINGS),
                new Topic("sessions", SessionSettings.SETTINGS),
                new Topic("images", Images.SETTINGS),
                new Topic("sim", SimulatorSettings.SETTINGS),
                new Topic("report", ReportSettings.SETTINGS),
                new Topic("gates", GateSettings.SETTINGS)));
    List<RunModeSettings.Kind> modes = new ArrayList<>(RunModeSettings.KINDS);
    Collections.reverse(modes);
    modes.forEach(k -> k.topic().ifPresent(out::add));
    out.addAll(
        List.of(
            new Topic("telemetry", TelemetrySettings.SETTINGS),
            new Topic("export", ExportSettings.SETTINGS),
            new Topic("injector", InjectorSettings.SETTINGS),
            new Topic("records", GatlingRecords.SETTINGS)));
    return List.copyOf(out);
  }

  /** What {@code -Dhelp} takes: nothing (or Maven's {@code true}) for every setting, or a topic. */
  private static final String HELP_ACCEPTED =
      "empty or true (every setting), or a topic: "
          + String.join(", ", TOPICS.stream().map(Topic::id).toList());

  public static final Setting<String> HELP =
      Setting.without(
          SCALE,
          "help",
          "none",
          HELP_ACCEPTED,
          "print this list (or a topic's settings; beside a run mode's flag, what that mode accepts)"
              + " and exit",
          (name, raw) -> {
            topic(raw); // refuses a topic it does not know
            return raw;
          });

  /** The settings, in the order {@code -Dhelp} prints them: the topics', then the help. */
  public static final List<Setting<?>> ALL =
      Stream.concat(TOPICS.stream().flatMap(t -> t.settings().stream()), Stream.of(HELP)).toList();

  private static final Map<String, Setting<?>> BY_NAME = new LinkedHashMap<>();

  static {
    ALL.forEach(s -> BY_NAME.put(s.name(), s));
  }

  /**
   * Names other load tools use for a kit setting (vllm bench serve's and GuideLLM's flags),
   * normalized as {@link #normalized} makes them. Not Gatling idioms such as {@code users} or
   * {@code host}: simulations of one's own read those ({@code LlmBench.start("users")}).
   */
  private static final Map<String, String> ALIASES =
      Map.ofEntries(
          Map.entry("concurrency", "conc"),
          Map.entry("max.concurrency", "conc"),
          Map.entry("num.prompts", "prompts"),
          Map.entry("num.requests", "prompts"),
          Map.entry("request.rate", "rate"),
          Map.entry("random.input.len", "input.len"),
          Map.entry("random.output.len", "output.len"),
          Map.entry("max.tokens", "output.len"),
          Map.entry("random.range.ratio", "range.ratio"),
          Map.entry("random.prefix.len", "prefix.len"),
          Map.entry("dataset.name", "dataset"),
          Map.entry("dataset.path", "dataset"),
          Map.entry("served.model.name", "model"),
          Map.entry("num.warmups", "warmup.prompts"),
          Map.entry("max.seconds", "duration"),
          Map.entry("goodput", "gate.goodput"),
          Map.entry("request.timeout", "timeout"),
          Map.entry("itl.records", "stats.records"),
          Map.entry("random.mm.base.items.per.request", "images"),
          Map.entry("image.width", "image.size"),
          Map.entry("image.height", "image.size"));

  /** The first words of properties other programs own: never the kit's, never a near miss. */
  private static final Set<String> FOREIGN =
      Set.of(
          "java",
          "javax",
          "jdk",
          "sun",
          "com",
          "org",
          "net",
          "io",
          "os",
          "user",
          "file",
          "line",
          "path",
          "native",
          "stdout",
          "stderr",
          "awt",
          "maven",
          "gatling",
          "surefire",
          "failsafe",
          "exec",
          "classworlds",
          "library",
          "logback",
          "jansi",
          "picocli",
          "http",
          "https",
          "ftp",
          "socksproxyhost",
          "socksproxyport",
          "jna",
          "jline",
          "idea",
          "guice",
          "test",
          "skiptests",
          "skipits",
          "basedir",
          "localrepository",
          "env",
          "networkaddress",
          "polyglot",
          "style",
          "kotlin",
          "scala",
          "akka",
          "pekko",
          "netty",
          "slf4j",
          "log4j",
          "junit",
          "jacoco",
          "argline",
          "it");

  /** The setting of this name, or of the family it belongs to. */
  public static Optional<Setting<?>> get(String name) {
    Setting<?> s = BY_NAME.get(name);
    if (s != null) {
      return Optional.of(s);
    }
    return ALL.stream()
        .filter(f -> f.family() && name.startsWith(f.name()) && name.length() > f.name().length())
        .findFirst();
  }

  /**
   * The first property that is not a kit setting though it looks like one, as one line: a name in
   * one of the kit's namespaces that no setting has, or a near miss of a setting's name (edit
   * distance 1 for short names, 2 otherwise; the same words with {@code _ - .} swapped or
   * reordered; another tool's name for it). Empty when every property is fine.
   *
   * @param simulationOwn properties a simulation of one's own reads itself: never refused
   */
  public static Optional<String> unknown(
      Map<String, String> properties, Set<String> simulationOwn) {
    for (String key : new TreeSet<>(properties.keySet())) {
      if (get(key).isPresent() || simulationOwn.contains(key)) {
        continue;
      }
      String first = key.split("[.]", 2)[0];
      String value = properties.get(key);
      Optional<String> near = nearMiss(key, value);
      if (NAMESPACES.contains(first) && key.contains(".")) {
        return Optional.of(
            "Unknown setting -D"
                + shown(key, value)
                + ": "
                + near.map(n -> "did you mean -D" + n + "? ").orElse("")
                + (namesIn(first).isEmpty()
                    ? "-D" + first + " is one setting, with no -D" + first + ".* under it"
                    : "the -D" + first + ".* settings are " + String.join(", ", namesIn(first)))
                + " (-Dhelp lists all)");
      }
      if (FOREIGN.contains(first.toLowerCase(Locale.ROOT))) {
        continue;
      }
      if (near.isPresent()) {
        return Optional.of(
            "Unknown setting -D"
                + shown(key, value)
                + ": did you mean -D"
                + near.get()
                + "? (-Dhelp lists every setting)");
      }
    }
    return Optional.empty();
  }

  /** The name with its value, unless the name says the value may be a secret. */
  private static String shown(String key, String value) {
    String k = key.toLowerCase(Locale.ROOT);
    boolean secret =
        List.of("header", "key", "token", "secret", "password", "auth", "cred").stream()
            .anyMatch(k::contains);
    return secret ? key : key + "=" + value;
  }

  /**
   * The first words of the kit's dotted names ({@code sim}, {@code gate}, ...) and its one-word
   * names ({@code -Dslo.ttft.p99} is not a setting either).
   */
  private static final Set<String> NAMESPACES = namespaces();

  private static Set<String> namespaces() {
    Set<String> out = new TreeSet<>();
    for (Setting<?> s : ALL) {
      out.add(s.name().split("[.]", 2)[0]);
    }
    return out;
  }

  private static List<String> namesIn(String first) {
    List<String> out = new ArrayList<>();
    for (Setting<?> s : ALL) {
      if (s.name().startsWith(first + ".")) {
        out.add(s.family() ? s.name() + "*" : s.name());
      }
    }
    return out;
  }

  /**
   * The setting {@code key} names exactly: its own name, the same words with {@code _} or {@code -}
   * for the dots, or another tool's name for it ({@code random_input_len}: {@code input.len}).
   */
  public static Optional<String> named(String key) {
    String n = normalized(key);
    if (ALIASES.containsKey(n)) {
      return Optional.of(ALIASES.get(n));
    }
    return ALL.stream().filter(s -> normalized(s.name()).equals(n)).map(Setting::name).findFirst();
  }

  /** The setting this name probably meant, if it is close to exactly one kind of name. */
  static Optional<String> nearMiss(String key) {
    return nearMiss(key, null);
  }

  /**
   * As {@link #nearMiss(String)}; of two names as near ({@code -Dprofils}: {@code profile} and
   * {@code profiles}), the one that takes the value ({@code tiny}, {@code true}) if only one does.
   */
  static Optional<String> nearMiss(String key, String value) {
    String n = normalized(key);
    if (ALIASES.containsKey(n)) {
      return Optional.of(ALIASES.get(n));
    }
    String[] words = key.split("[.]", 2);
    for (Setting<?> f : ALL) { // -Dheaders.X-Route: -Dheader.X-Route (not -Drate.x: -Dgate.x)
      String stem = f.name().substring(0, f.name().length() - 1);
      if (f.family()
          && words.length == 2
          && normalized(words[0]).startsWith(stem)
          && distance(normalized(words[0]), stem) <= 1) {
        return Optional.of(f.name() + words[1]);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Setting<?> s : ALL) {
      if (s.family() || s.name().equals("help")) {
        continue;
      }
      String m = normalized(s.name());
      if (m.equals(n) || sortedWords(m).equals(sortedWords(n))) {
        return Optional.of(s.name());
      }
      int d = distance(m, n);
      int allowed = Math.min(m.length(), n.length()) <= 4 ? 1 : 2;
      boolean better =
          d < bestDistance
              || (d == bestDistance && !takes(BY_NAME.get(best), value) && takes(s, value));
      if (d <= allowed && better) {
        best = s.name();
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Whether the setting's parser takes the value (false without one). */
  private static boolean takes(Setting<?> setting, String value) {
    if (value == null || value.isBlank()) {
      return false;
    }
    try {
      setting.parser().parse(setting.name(), value.trim());
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Lower case, with {@code _} and {@code -} read as the dot that separates words. */
  static String normalized(String name) {
    return name.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
  }

  private static String sortedWords(String normalized) {
    String[] words = normalized.split("[.]");
    Arrays.sort(words);
    return String.join(".", words);
  }

  /** Levenshtein's edit distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }

  /**
   * {@code -Dhelp}: every setting with its default, accepted values and meaning, by group; then
   * which load shapes each run mode takes.
   */
  public static String help() {
    StringBuilder sb = header(EVERY_SETTING);
    appendSettings(sb, ALL);
    sb.append(RunModeSettings.helpTable());
    return sb.toString();
  }

  /**
   * {@code -Dhelp=<value>}: with no value (or Maven's {@code true}) every setting, as {@link
   * #help()}; with a topic's id ({@code sim}, {@code gates}, {@code ab}, ...) that topic's settings
   * alone, under their heading.
   *
   * @throws SettingsException for a topic it does not know, naming the value and the topics
   */
  public static String help(String value) {
    Optional<Topic> topic = topic(value);
    if (topic.isEmpty()) {
      return help();
    }
    StringBuilder sb = header(EVERY_SETTING);
    appendSettings(sb, topic.get().settings());
    sb.append("\n(-Dhelp lists every setting; ")
        .append(HELP_ACCEPTED.substring(HELP_ACCEPTED.indexOf("a topic")))
        .append(")\n");
    return sb.toString();
  }

  /**
   * What {@code -Dhelp} prints beside the other properties: a topic's settings when it names one;
   * else, when they choose a run mode other than planned levels ({@code -Dsearch=conc}, ...), the
   * settings that mode accepts ({@link #modeHelp}); else every setting, as {@link #help()}.
   *
   * @param properties every property given, {@code help} among them
   * @throws SettingsException for a topic it does not know, or a value the mode's settings refuse
   */
  public static String helpFor(Map<String, String> properties) {
    String value = properties.get(HELP.name());
    SettingReader r = new SettingReader(properties);
    RunModeSettings.Kind mode = RunModeSettings.chosenKind(r);
    if (topic(value).isPresent() || mode == RunModeSettings.Planned.KIND) {
      return help(value);
    }
    return modeHelp(mode, r);
  }

  /**
   * The settings a run of this mode accepts: every setting but the other modes' groups, which it
   * refuses (their own settings) or which would choose another mode (their flags), as {@link
   * RunModeSettings#othersRefusedIn} says (a sweep accepts every one: its child runs read them);
   * then the load shapes it refuses.
   */
  private static String modeHelp(RunModeSettings.Kind mode, SettingReader r) {
    // the mode's values, parsed as its run parses them: a bad one is refused in one line
    mode.topic().orElseThrow().settings().forEach(r::optional);
    List<Setting<?>> others =
        RunModeSettings.othersRefusedIn(mode).stream()
            .flatMap(k -> k.topic().stream())
            .flatMap(t -> t.settings().stream())
            .toList();
    String flag = mode.flag().apply(r);
    StringBuilder sb =
        header(
            "Settings "
                + mode.name()
                + " ("
                + flag
                + ") accepts: "
                + USAGE
                + "; without "
                + flag
                + ", -Dhelp lists every setting)");
    appendSettings(sb, ALL.stream().filter(s -> !others.contains(s)).toList());
    sb.append(mode.refusalsHelp(r));
    return sb.toString();
  }

  /** The topic {@code -Dhelp=value} asks for; empty for every setting (no value, {@code true}). */
  private static Optional<Topic> topic(String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    if (v.isEmpty() || v.equals("true")) {
      return Optional.empty();
    }
    return Optional.of(
        TOPICS.stream()
            .filter(t -> t.id().equals(v))
            .findFirst()
            .orElseThrow(() -> SettingsException.invalid(HELP.name(), value, HELP_ACCEPTED)));
  }

  /** How a setting is given, and where it is told in full: in the first line of each help. */
  private static final String USAGE =
      "mvn gatling:test -D<name>=<value> ...  (docs/settings.md has the details";

  /** The full list's first line, and a topic's. */
  private static final String EVERY_SETTING = "gatling-llm-bench settings: " + USAGE + ")";

  private static StringBuilder header(String firstLine) {
    StringBuilder sb = new StringBuilder();
    sb.append(firstLine).append('\n');
    sb.append("The API key comes from the environment, OPENAI_API_KEY, never from a property.\n");
    return sb;
  }

  /** Each setting's two lines, under its heading where the heading changes. */
  private static void appendSettings(StringBuilder sb, List<Setting<?>> settings) {
    String group = null;
    for (Setting<?> s : settings) {
      if (!s.group().equals(group)) {
        group = s.group();
        sb.append('\n').append(group).append(":\n");
      }
      String name = s.family() ? s.name() + "<...>" : s.name();
      sb.append(String.format(Locale.ROOT, "  -D%-28s %s%n", name, s.meaning()));
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-30s default: %s; accepts: %s%n",
              "",
              s.defaultValue(),
              s.accepted()));
    }
  }
}
