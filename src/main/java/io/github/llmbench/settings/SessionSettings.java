package io.github.llmbench.settings;

import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.SettingsTable.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Agent sessions ({@code -Ddataset=sessions:PATH}, {@code weka:PATH} or {@code agents}): the header
 * that names each session to the server, the shape of synthetic sessions, and the cap on a recorded
 * trace's idle gaps.
 *
 * @param header the header each call carries with its session's id ({@code -Dsession.header},
 *     vLLM's routers read {@code X-Session-ID}), empty for none
 * @param shape synthetic sessions' shape ({@code -Dsession.shape}), used by {@code agents}
 * @param idleCapSeconds the longest wait replayed from a recorded trace ({@code weka:PATH})
 */
public record SessionSettings(Optional<String> header, Shape shape, double idleCapSeconds) {

  private static final String HEADING = SettingsTable.WORKLOAD;

  private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

  /**
   * Synthetic sessions' shape: an orchestrator of {@code depth} steps, {@code fanout} sub-agents
   * between two steps, lengths in tokens, and the agent's own wait before each call.
   */
  public record Shape(
      int depth,
      int fanout,
      int taskTokens,
      int stepTokens,
      int subagentTokens,
      int systemTokens,
      int outputTokens,
      double thinkMs) {

    static final Shape DEFAULT = new Shape(3, 2, 256, 64, 128, 512, 64, 0);

    /** The form {@code -Dsession.shape} takes, with the defaults. */
    static final String FORM =
        "KEY:VALUE,... with KEY one of depth (1-20), fanout (0-16), task, step, sub, system,"
            + " output (tokens) and think (ms); e.g. depth:3,fanout:2,task:256,step:64,sub:128,"
            + "system:512,output:64,think:0 (the defaults)";
  }

  public static final Setting<String> SESSION_HEADER =
      Setting.without(
          HEADING,
          "session.header",
          "none",
          "an HTTP header name, e.g. X-Session-ID",
          "agent sessions: each call names its session in this header (router affinity)",
          Parser.text());
  public static final Setting<String> SESSION_SHAPE =
      Setting.of(
          HEADING,
          "session.shape",
          "depth:3,fanout:2,task:256,step:64,sub:128,system:512,output:64,think:0",
          "KEY:VALUE,... (depth, fanout, task, step, sub, system, output, think)",
          "-Ddataset=agents: the synthetic sessions' shape",
          Parser.text());
  public static final Setting<Double> SESSION_IDLE_CAP =
      Setting.of(
          HEADING,
          "session.idle.cap",
          60.0,
          "seconds above 0",
          "-Ddataset=weka:PATH: the longest recorded wait replayed",
          Parser.positiveDouble());

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS = List.of(SESSION_HEADER, SESSION_SHAPE, SESSION_IDLE_CAP);

  /** The dataset kinds that are agent sessions. */
  public static boolean isSessions(DatasetKind kind) {
    return kind == DatasetKind.SESSIONS || kind == DatasetKind.WEKA || kind == DatasetKind.AGENTS;
  }

  /**
   * Reads the group for a session dataset (empty for others, where any of its settings is refused).
   */
  static Optional<SessionSettings> read(SettingReader r, DatasetKind dataset) {
    if (!isSessions(dataset)) {
      for (Setting<?> s : SETTINGS) {
        if (r.isSet(s)) {
          throw new SettingsException(
              "-D"
                  + s.name()
                  + " applies to agent sessions: -Ddataset=sessions:PATH, weka:PATH or agents");
        }
      }
      return Optional.empty();
    }
    if (dataset != DatasetKind.AGENTS && r.isSet(SESSION_SHAPE)) {
      throw new SettingsException("-Dsession.shape applies to -Ddataset=agents");
    }
    if (dataset != DatasetKind.WEKA && r.isSet(SESSION_IDLE_CAP)) {
      throw new SettingsException("-Dsession.idle.cap applies to -Ddataset=weka:PATH");
    }
    Optional<String> header = r.optional(SESSION_HEADER);
    if (header.isPresent()) {
      String h = header.get();
      if (!HEADER_NAME.matcher(h).matches()
          || h.equalsIgnoreCase("x-request-id")
          || h.equalsIgnoreCase("content-type")) {
        throw SettingsException.invalid(
            "session.header",
            h,
            "an HTTP header name (letters, digits, '-'), not x-request-id or content-type, e.g."
                + " X-Session-ID");
      }
    }
    return Optional.of(
        new SessionSettings(header, shape(r.get(SESSION_SHAPE)), r.get(SESSION_IDLE_CAP)));
  }

  /** {@code -Dsession.shape}'s keys over the defaults. */
  static Shape shape(String raw) {
    Shape d = Shape.DEFAULT;
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("depth", (double) d.depth());
    v.put("fanout", (double) d.fanout());
    v.put("task", (double) d.taskTokens());
    v.put("step", (double) d.stepTokens());
    v.put("sub", (double) d.subagentTokens());
    v.put("system", (double) d.systemTokens());
    v.put("output", (double) d.outputTokens());
    v.put("think", d.thinkMs());
    for (String part : raw.split(",")) {
      String[] kv = part.trim().split(":");
      String key = kv[0].trim().toLowerCase(Locale.ROOT);
      double value;
      try {
        value = kv.length == 2 ? Double.parseDouble(kv[1].trim()) : Double.NaN;
      } catch (NumberFormatException e) {
        value = Double.NaN;
      }
      if (!v.containsKey(key) || !accepted(key, value)) {
        throw SettingsException.invalid("session.shape", raw, Shape.FORM);
      }
      v.put(key, value);
    }
    return new Shape(
        v.get("depth").intValue(),
        v.get("fanout").intValue(),
        v.get("task").intValue(),
        v.get("step").intValue(),
        v.get("sub").intValue(),
        v.get("system").intValue(),
        v.get("output").intValue(),
        v.get("think"));
  }

  private static boolean accepted(String key, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return false;
    }
    boolean whole = value == Math.rint(value);
    return switch (key) {
      case "depth" -> whole && value >= 1 && value <= 20;
      case "fanout" -> whole && value >= 0 && value <= 16;
      case "think" -> value >= 0 && value <= 3_600_000;
      case "system" -> whole && value >= 0 && value <= WorkloadSettings.MAX_LEN;
      default -> whole && value >= 1 && value <= WorkloadSettings.MAX_LEN;
    };
  }
}
