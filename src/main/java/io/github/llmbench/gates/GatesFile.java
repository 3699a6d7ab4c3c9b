package io.github.llmbench.gates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.records.RunFiles;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.summary.CapacityFigures;
import io.github.llmbench.summary.Summary;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** Reads a gates file ({@code -Dgates}) and a baseline run's figures ({@code -Dbaseline}). */
final class GatesFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private GatesFile() {}

  /**
   * A gates file: JSON ({@code {"tpot.p99": 300, "goodput": "ttft:500"}}) or properties ({@code
   * tpot.p99=300}); keys may carry the {@code gate.} prefix of the {@code -D} form.
   */
  static Map<String, String> read(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new SettingsException("Invalid -Dgates=" + file + ": no such file");
    }
    Map<String, String> out = new LinkedHashMap<>();
    try {
      if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json")) {
        JsonNode root = JSON.readTree(file.toFile());
        if (root == null || !root.isObject()) {
          throw new SettingsException(
              "Invalid -Dgates=" + file + ": expected a JSON object of gate -> limit");
        }
        root.fields().forEachRemaining(e -> out.put(strip(e.getKey()), e.getValue().asText()));
      } else {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          p.load(in);
        }
        p.forEach((k, v) -> out.put(strip(String.valueOf(k)), String.valueOf(v)));
      }
    } catch (IOException e) {
      throw new SettingsException(
          "Invalid -Dgates=" + file + ": cannot read it (" + e.getMessage().split("\n")[0] + ")");
    }
    return out;
  }

  private static String strip(String key) {
    return key.startsWith("gate.") ? key.substring(5) : key;
  }

  /** The baseline's figures, from a run folder or its {@code llm/summary.json}. */
  static RunFigures baselineFigures(Path baseline) {
    Path summary = Files.isDirectory(baseline) ? RunFiles.ofRun(baseline).summary() : baseline;
    if (!Files.isRegularFile(summary)) {
      throw new SettingsException(
          "Invalid -Dbaseline="
              + baseline
              + ": expected a run folder with llm/summary.json, or a summary.json");
    }
    Summary root;
    try {
      root = Summary.read(summary);
    } catch (IOException | Summary.NotASummary e) {
      throw new SettingsException(
          "Invalid -Dbaseline=" + baseline + ": " + summary + " is not a run's summary.json");
    }
    Map<String, LevelFigures> levels = new LinkedHashMap<>();
    root.levels().forEach((name, l) -> levels.put(name, LevelFigures.ofSummary(l)));
    // a capacity search's answer, and whether it is a request rate or a concurrency
    CapacityFigures capacity = root.run().capacity();
    Optional<RunFigures.Capacity> answer =
        capacity == null || capacity.capacity() == null
            ? Optional.empty()
            : Optional.of(new RunFigures.Capacity(capacity.capacity(), capacity.overRates()));
    if (levels.isEmpty() && answer.isEmpty()) {
      throw new SettingsException(
          "Invalid -Dbaseline=" + baseline + ": " + summary + " has no levels");
    }
    return new RunFigures(levels, answer);
  }
}
