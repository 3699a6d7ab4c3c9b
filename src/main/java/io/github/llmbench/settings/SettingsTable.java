package io.github.llmbench.settings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every {@code -D} setting of the kit: its name, default, accepted values and meaning. {@link
 * BenchSettings} reads only names listed here (its reader refuses others), {@link #unknown} refuses
 * properties in the kit's namespaces that are not listed (and near misses of listed ones), and
 * {@code -Dhelp} prints this table: help and validation cannot drift apart.
 */
public final class SettingsTable {
  private SettingsTable() {}

  /**
   * One setting.
   *
   * @param name the property without {@code -D}; a family ends with a dot ({@code header.})
   * @param defaultValue what applies when it is not set, in words where it is not one value
   * @param accepted what values it takes
   */
  public record Setting(String group, String name, String defaultValue, String accepted, String meaning) {
    boolean family() {
      return name.endsWith(".");
    }
  }

  private static final String SERVER = "Server and request";
  private static final String LOAD = "Load shape";
  private static final String WORKLOAD = "Workload";
  private static final String SIMULATOR = "Embedded simulator (no -Dbase.url)";
  private static final String REPORT = "Report, gates and capacity search";
  private static final String SCALE = "Telemetry, scale-out and records";

  /** The settings, in the order {@code -Dhelp} prints them. */
  public static final List<Setting> ALL = List.of(
      new Setting(SERVER, "base.url", "none: the embedded simulator", "an http(s) URL, e.g. http://127.0.0.1:8000", "the server to load"),
      new Setting(SERVER, "api", "chat", "chat or completions", "the endpoint: /v1/chat/completions or /v1/completions"),
      new Setting(SERVER, "model", "the first id of GET /v1/models", "a model id the server serves", "the model name sent in each request"),
      new Setting(SERVER, "timeout", "300", "a whole number of seconds from 1", "how long a request may take from its send to the end of its response"),
      new Setting(SERVER, "extra.body", "none", "a JSON object, e.g. {\"temperature\":0.6}", "merged into every request body (its keys win), as vllm bench serve --extra-body"),
      new Setting(SERVER, "header.", "none", "-Dheader.<Name>=<value>, an HTTP header name", "a header on every request; values are never printed"),
      new Setting(SERVER, "tokenizer", "none: the server's /tokenize", "a tokenizer.json, or a folder holding one", "count tokens here (servers without /tokenize or usage)"),

      new Setting(LOAD, "conc", "16", "a whole number from 1 to 100000", "one closed-model level: this many requests in flight"),
      new Setting(LOAD, "ladder", "none", "whole numbers separated by commas, e.g. 8,16,32", "several closed-model levels, each drained before the next"),
      new Setting(LOAD, "duration", "60", "a whole number of seconds from 1", "how long each level (or rate probe) keeps starting requests"),
      new Setting(LOAD, "prompts", "none", "a whole number, or one per ladder level", "instead of duration: exactly this many requests per level"),
      new Setting(LOAD, "warmup.prompts", "0", "a whole number from 0", "requests sent before the measured levels, left out of every summary"),
      new Setting(LOAD, "warmup.conc", "the first level / 4", "a whole number from 1", "concurrency of the warmup"),
      new Setting(LOAD, "rate", "none", "a number of requests per second above 0", "open model: arrivals at this rate (level r<rate>)"),
      new Setting(LOAD, "burstiness", "1", "a number above 0 (1 = Poisson)", "open model: gamma shape of the arrival gaps, as vLLM's"),
      new Setting(LOAD, "max.conc", "none", "a whole number from 1", "open model: at most this many requests in flight"),

      new Setting(WORKLOAD, "dataset", "random", "random, profiles, file:PATH or trace:PATH", "where prompts come from"),
      new Setting(WORKLOAD, "input.len", "1024", "a whole number from 1", "random: prompt tokens, exact"),
      new Setting(WORKLOAD, "output.len", "128", "a whole number from 1", "max_tokens of each request (with ignore_eos)"),
      new Setting(WORKLOAD, "range.ratio", "0", "a number from 0 up to 1", "random: lengths drawn from [len x (1 - r), len x (1 + r)]"),
      new Setting(WORKLOAD, "prefix.len", "0", "a whole number from 0", "random: tokens of one prefix shared by every request"),
      new Setting(WORKLOAD, "seed", "fresh per run", "a whole number", "seeds prompts, file order, profile mix and arrival gaps; repeats a run"),
      new Setting(WORKLOAD, "profiles", "tiny", "tiny, huge, or GROUP:P1,P2 (e.g. tiny:SS,LL)", "profiles: the seed study's SS/SL/LS/LL groups"),
      new Setting(WORKLOAD, "profile.order", "sequential", "sequential or mixed", "profiles: one after another, or drawn per request"),
      new Setting(WORKLOAD, "turns", "1", "a whole number from 1", "multi-turn: each virtual user holds a conversation of this many turns"),
      new Setting(WORKLOAD, "think.time", "0", "a number of seconds from 0", "multi-turn: pause between an answer and the next turn"),
      new Setting(WORKLOAD, "trace.speed", "1", "a number above 0", "trace replay: the trace's pace times this"),

      new Setting(SIMULATOR, "sim.model", "qwen2.5-7b-instruct", "a catalog id, or the path of a Hugging Face config.json", "the simulated model"),
      new Setting(SIMULATOR, "sim.gpu", "rtx4080-32gb", "a catalog GPU id", "the simulated GPU"),
      new Setting(SIMULATOR, "sim.tp", "1", "a whole number from 1 to 64", "the simulated tensor-parallel GPUs"),
      new Setting(SIMULATOR, "sim.max_num_seqs", "256", "a whole number from 1", "vLLM's --max-num-seqs"),
      new Setting(SIMULATOR, "sim.max_num_batched_tokens", "2048", "a whole number >= sim.max_num_seqs", "vLLM's --max-num-batched-tokens"),
      new Setting(SIMULATOR, "sim.gpu_memory_utilization", "0.9", "a number above 0 and at most 1", "vLLM's --gpu-memory-utilization (KV-cache size)"),
      new Setting(SIMULATOR, "sim.faults", "none", "MODE:SHARE,... e.g. 429:0.05,500:0.05,error:0.05,cut:0.02,stall:0.01:30", "faults on demand"),
      new Setting(SIMULATOR, "sim.dialect", "vllm", "vllm or llamacpp", "the simulated server's stream and endpoint shapes"),

      new Setting(REPORT, "model.spec", "the simulator's model, or the catalog entry named like the served one", "a catalog id or a Hugging Face config.json", "the roofline's model"),
      new Setting(REPORT, "gpu", "the simulator's GPU; none for a real server", "a catalog GPU id", "the roofline's GPU"),
      new Setting(REPORT, "tp", "sim.tp, or 1 for a real server", "a whole number from 1 to 64", "the roofline's tensor-parallel GPUs"),
      new Setting(REPORT, "gate.", "failed.pct <= 1", "-Dgate.[LEVEL.]METRIC=LIMIT (e.g. gate.tpot.p99=50, gate.c64.failed.pct=1, +10%), gate.goodput=ttft:MS tpot:MS", "a performance gate: the run fails (exit 2) when it breaks"),
      new Setting(REPORT, "gates", "none", "a gates file, JSON or properties", "gates from a file"),
      new Setting(REPORT, "baseline", "none", "a run folder, or its llm/summary.json", "the run that relative gates (+10%) refer to"),
      new Setting(REPORT, "llmbench.exit.on.gates", "true", "true or false", "false: a broken gate is reported, the command still succeeds"),
      new Setting(REPORT, "search", "none", "conc or rate", "search the highest concurrency or request rate meeting -Dslo"),
      new Setting(REPORT, "slo", "none", "METRIC:LIMIT,... e.g. ttft.p99:2000,tpot.p99:100", "the capacity search's objectives"),
      new Setting(REPORT, "search.min", "1", "a number above 0 (whole for conc)", "the search's first probe"),
      new Setting(REPORT, "search.max", "1024 (conc), 100 (rate)", "a number above 0 (whole for conc)", "the search's highest probe"),
      new Setting(REPORT, "search.precision", "0.1", "a number above 0 and below 1", "the search ends when its bracket is this close"),
      new Setting(REPORT, "search.budget", "30", "a whole number of minutes from 1", "the search's time budget"),

      new Setting(SCALE, "metrics.interval", "1", "a number of seconds from 0 (0: off)", "scrape the server's /metrics (and metrics.urls) this often"),
      new Setting(SCALE, "metrics.urls", "none", "http:// URLs separated by commas", "more Prometheus endpoints, e.g. a DCGM exporter"),
      new Setting(SCALE, "injector", "0/1", "i/N with 0 <= i < N", "this process is injector i of N sharing the load"),
      new Setting(SCALE, "start.at", "none", "epoch ms or an ISO-8601 instant", "when the first phase starts (every injector)"),
      new Setting(SCALE, "drain", "30", "a whole number of seconds from 0", "a shared ladder's time after each level's duration"),
      new Setting(SCALE, "stats.records", "request", "request, latency or all", "Gatling's records per stream: the request (E2EL); latency: + TTFT, TPOT; all: + ITL per chunk gap"),
      new Setting(SCALE, "help", "none", "any value", "print this list and exit"));

  private static final Map<String, Setting> BY_NAME = new LinkedHashMap<>();

  static {
    ALL.forEach(s -> BY_NAME.put(s.name(), s));
  }

  /**
   * Names other load tools use for a kit setting (vllm bench serve's and GuideLLM's flags),
   * normalized as {@link #normalized} makes them. Not Gatling idioms such as {@code users} or
   * {@code host}: simulations of one's own read those ({@code LlmBench.start("users")}).
   */
  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("concurrency", "conc"), Map.entry("max.concurrency", "conc"),
      Map.entry("num.prompts", "prompts"), Map.entry("num.requests", "prompts"),
      Map.entry("request.rate", "rate"),
      Map.entry("random.input.len", "input.len"), Map.entry("random.output.len", "output.len"),
      Map.entry("max.tokens", "output.len"), Map.entry("random.range.ratio", "range.ratio"),
      Map.entry("random.prefix.len", "prefix.len"), Map.entry("dataset.name", "dataset"), Map.entry("dataset.path", "dataset"),
      Map.entry("served.model.name", "model"), Map.entry("num.warmups", "warmup.prompts"),
      Map.entry("max.seconds", "duration"), Map.entry("goodput", "gate.goodput"), Map.entry("request.timeout", "timeout"),
      Map.entry("itl.records", "stats.records"));

  /** The first words of properties other programs own: never the kit's, never a near miss. */
  private static final Set<String> FOREIGN = Set.of(
      "java", "javax", "jdk", "sun", "com", "org", "net", "io", "os", "user", "file", "line", "path", "native", "stdout",
      "stderr", "awt", "maven", "gatling", "surefire", "failsafe", "exec", "classworlds", "library", "logback", "jansi",
      "picocli", "http", "https", "ftp", "socksproxyhost", "socksproxyport", "jna", "jline", "idea", "guice", "test",
      "skiptests", "skipits", "basedir", "localrepository", "env", "networkaddress", "polyglot", "style", "kotlin", "scala",
      "akka", "pekko", "netty", "slf4j", "log4j", "junit", "jacoco", "argline", "it");

  /** The setting of this name, or of the family it belongs to. */
  public static Optional<Setting> get(String name) {
    Setting s = BY_NAME.get(name);
    if (s != null) {
      return Optional.of(s);
    }
    return ALL.stream().filter(f -> f.family() && name.startsWith(f.name()) && name.length() > f.name().length()).findFirst();
  }

  /**
   * The first property that is not a kit setting though it looks like one, as one line: a name in
   * one of the kit's namespaces that no setting has, or a near miss of a setting's name (edit
   * distance 1 for short names, 2 otherwise; the same words with {@code _ - .} swapped or
   * reordered; another tool's name for it). Empty when every property is fine.
   *
   * @param simulationOwn properties a simulation of one's own reads itself: never refused
   */
  public static Optional<String> unknown(Map<String, String> properties, Set<String> simulationOwn) {
    for (String key : new TreeSet<>(properties.keySet())) {
      if (get(key).isPresent() || simulationOwn.contains(key)) {
        continue;
      }
      String first = key.split("[.]", 2)[0];
      String value = properties.get(key);
      Optional<String> near = nearMiss(key);
      if (NAMESPACES.contains(first) && key.contains(".")) {
        return Optional.of("Unknown setting -D" + shown(key, value) + ": "
            + near.map(n -> "did you mean -D" + n + "? ").orElse("")
            + (namesIn(first).isEmpty() ? "-D" + first + " is one setting, with no -D" + first + ".* under it"
                : "the -D" + first + ".* settings are " + String.join(", ", namesIn(first))) + " (-Dhelp lists all)");
      }
      if (FOREIGN.contains(first.toLowerCase(Locale.ROOT))) {
        continue;
      }
      if (near.isPresent()) {
        return Optional.of("Unknown setting -D" + shown(key, value) + ": did you mean -D" + near.get() + "? (-Dhelp lists every setting)");
      }
    }
    return Optional.empty();
  }

  /** The name with its value, unless the name says the value may be a secret. */
  private static String shown(String key, String value) {
    String k = key.toLowerCase(Locale.ROOT);
    boolean secret = List.of("header", "key", "token", "secret", "password", "auth", "cred").stream().anyMatch(k::contains);
    return secret ? key : key + "=" + value;
  }

  /**
   * The first words of the kit's dotted names ({@code sim}, {@code gate}, ...) and its one-word
   * names ({@code -Dslo.ttft.p99} is not a setting either).
   */
  private static final Set<String> NAMESPACES = namespaces();

  private static Set<String> namespaces() {
    Set<String> out = new TreeSet<>();
    for (Setting s : ALL) {
      out.add(s.name().split("[.]", 2)[0]);
    }
    return out;
  }

  private static List<String> namesIn(String first) {
    List<String> out = new ArrayList<>();
    for (Setting s : ALL) {
      if (s.name().startsWith(first + ".")) {
        out.add(s.family() ? s.name() + "*" : s.name());
      }
    }
    return out;
  }

  /** The setting this name probably meant, if it is close to exactly one kind of name. */
  static Optional<String> nearMiss(String key) {
    String n = normalized(key);
    if (ALIASES.containsKey(n)) {
      return Optional.of(ALIASES.get(n));
    }
    String[] words = key.split("[.]", 2);
    for (Setting f : ALL) { // -Dheaders.X-Route: -Dheader.X-Route (not -Drate.x: -Dgate.x)
      String stem = f.name().substring(0, f.name().length() - 1);
      if (f.family() && words.length == 2 && normalized(words[0]).startsWith(stem) && distance(normalized(words[0]), stem) <= 1) {
        return Optional.of(f.name() + words[1]);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Setting s : ALL) {
      if (s.family() || s.name().equals("help")) {
        continue;
      }
      String m = normalized(s.name());
      if (m.equals(n) || sortedWords(m).equals(sortedWords(n))) {
        return Optional.of(s.name());
      }
      int d = distance(m, n);
      int allowed = Math.min(m.length(), n.length()) <= 4 ? 1 : 2;
      if (d <= allowed && d < bestDistance) {
        best = s.name();
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
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
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }

  /** {@code -Dhelp}: every setting with its default, accepted values and meaning, by group. */
  public static String help() {
    StringBuilder sb = new StringBuilder();
    sb.append("gatling-llm-bench settings: mvn gatling:test -D<name>=<value> ...  (docs/settings.md has the details)\n");
    sb.append("The API key comes from the environment, OPENAI_API_KEY, never from a property.\n");
    String group = null;
    for (Setting s : ALL) {
      if (!s.group().equals(group)) {
        group = s.group();
        sb.append('\n').append(group).append(":\n");
      }
      String name = s.family() ? s.name() + "<...>" : s.name();
      sb.append(String.format(Locale.ROOT, "  -D%-28s %s%n", name, s.meaning()));
      sb.append(String.format(Locale.ROOT, "  %-30s default: %s; accepts: %s%n", "", s.defaultValue(), s.accepted()));
    }
    return sb.toString();
  }
}
