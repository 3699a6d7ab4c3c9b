package io.github.llmbench.history;

import io.github.llmbench.core.Level;
import io.github.llmbench.settings.Images;
import io.github.llmbench.settings.LoadSettings;
import io.github.llmbench.settings.SearchSettings;
import io.github.llmbench.settings.ServerSettings;
import io.github.llmbench.settings.SimulatorSettings;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.summary.RunInfo;
import io.github.llmbench.summary.Summary;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What must match for two runs to be comparable: the testbed (the server's kind and the model it
 * serves, or the embedded simulator's model, GPU and engine) and the workload (the API, the levels,
 * how long, the trials, the warmup, the dataset and lengths). Not the seed or the time, not the
 * base URL (a CI job's port changes from run to run), and not what the server is: its version, or
 * the simulator's {@code sim.slowdown} and {@code sim.noise} (a key that held them would start a
 * new series exactly where an upgrade's regression shows).
 *
 * @param id a short stable hash of the fields (12 hex digits of their SHA-256)
 * @param fields each field by name, sorted
 */
public record HistoryKey(String id, Map<String, String> fields) {

  public HistoryKey {
    fields = Collections.unmodifiableMap(new TreeMap<>(fields));
  }

  /** The settings' lines ({@code summary.json}'s {@code settings}) that change the figures. */
  static final List<String> SETTINGS =
      Stream.concat(
              Stream.of(
                  ServerSettings.API.name(),
                  ServerSettings.EXTRA_BODY.name(),
                  LoadSettings.CONC.name(),
                  LoadSettings.LADDER.name(),
                  LoadSettings.RATE.name(),
                  LoadSettings.RAMP.name(),
                  LoadSettings.MAX_CONC.name(),
                  LoadSettings.DURATION.name(),
                  LoadSettings.PROMPTS.name(),
                  LoadSettings.TRIALS.name(),
                  SearchSettings.SEARCH.name(),
                  Level.WARMUP.tag(),
                  WorkloadSettings.DATASET.name(),
                  WorkloadSettings.INPUT_LEN.name(),
                  WorkloadSettings.OUTPUT_LEN.name(),
                  WorkloadSettings.RANGE_RATIO.name(),
                  "input lengths",
                  "output lengths",
                  WorkloadSettings.PREFIX_LEN.name(),
                  WorkloadSettings.PREFIX_GROUPS.name(),
                  WorkloadSettings.TURNS.name(),
                  WorkloadSettings.TRACE_SPEED.name(),
                  Images.IMAGES.name()),
              // the embedded simulator's lines that say which server it plays (not its noise)
              SimulatorSettings.keyedLines().stream())
          .toList();

  /** The key of these fields. */
  public static HistoryKey of(Map<String, String> fields) {
    StringBuilder canonical = new StringBuilder();
    new TreeMap<>(fields).forEach((k, v) -> canonical.append(k).append('=').append(v).append('\n'));
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return new HistoryKey(HexFormat.of().formatHex(hash, 0, 6), fields);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /**
   * The server a run measured.
   *
   * @param backend {@code vllm-simulator} or {@code openai-<api>} ({@link RunInfo#backend()})
   * @param model the served model's id
   * @param endpoint the API's path
   */
  public record Testbed(String backend, String model, String endpoint) {}

  /**
   * The key of a run: known before its load.
   *
   * @param settings the settings' lines ({@code summary.json}'s {@code settings})
   * @param levels the measured levels' names, in run order
   */
  public static HistoryKey of(Testbed testbed, Map<String, String> settings, List<String> levels) {
    Map<String, String> f = new TreeMap<>();
    put(f, "backend", testbed.backend());
    put(f, "model", testbed.model());
    put(f, "endpoint", testbed.endpoint());
    for (String name : SETTINGS) {
      put(f, name, settings == null ? null : settings.get(name));
    }
    f.put("levels", String.join(",", levels));
    return of(f);
  }

  /** The key of a run, from its summary. */
  public static HistoryKey of(Summary s) {
    RunInfo run = s.run();
    return of(
        new Testbed(run.backend(), run.modelId(), run.endpoint()),
        run.settings(),
        new ArrayList<>(s.measuredLevels().keySet()));
  }

  private static void put(Map<String, String> f, String name, String value) {
    if (value != null) {
      f.put(name, value);
    }
  }

  /** {@code 3f2a9c01b7de (model Qwen/Qwen3-0.6B, conc 8, ...)}: the id and a few fields. */
  public String describe() {
    List<String> shown = new ArrayList<>();
    for (String name : List.of("model", "api", "levels", "input.len", "output.len", "duration")) {
      String v = fields.get(name);
      if (v != null) {
        shown.add(name + " " + v);
      }
    }
    return id + " (" + String.join(", ", shown) + ")";
  }
}
