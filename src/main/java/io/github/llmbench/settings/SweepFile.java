package io.github.llmbench.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.core.SweepGrid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep file ({@code -Dserve.params=@FILE}, {@code -Dsweep=@FILE}): a JSON list of objects, each
 * one combination, as {@code vllm bench sweep serve}'s {@code --serve-params} and {@code
 * --bench-params} files hold them ({@code [{"max_num_seqs": 32, "max_num_batched_tokens": 1024},
 * ...]}); a workload file may use vllm bench serve's names ({@code random_input_len}) for the kit's
 * settings.
 */
final class SweepFile {
  private SweepFile() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The combinations of {@code file}.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static SweepGrid read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "a readable JSON file ("
              + file
              + ": "
              + e.getMessage().lines().findFirst().orElse("")
              + ")");
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("a JSON list of objects, one per combination, in " + file);
    }
    List<Map<String, String>> combinations = new ArrayList<>();
    for (JsonNode o : root) {
      if (!o.isObject()) {
        throw new IllegalArgumentException("a JSON list of objects, not " + o + ", in " + file);
      }
      Map<String, String> c = new LinkedHashMap<>();
      o.fields()
          .forEachRemaining(
              e -> {
                if (e.getValue().isContainerNode() || e.getValue().isNull()) {
                  throw new IllegalArgumentException(
                      "a number, text or true/false for " + e.getKey() + " in " + file);
                }
                c.put(e.getKey(), e.getValue().asText());
              });
      combinations.add(c);
    }
    return SweepGrid.ofCombinations(combinations);
  }

  /**
   * The grid with each axis under the kit's name of its setting ({@code random_input_len}: {@code
   * input.len}).
   */
  static SweepGrid withKitNames(SweepGrid grid) {
    Map<String, List<String>> axes = new LinkedHashMap<>();
    grid.axes().forEach((k, v) -> axes.put(SettingsTable.named(k).orElse(k), v));
    return new SweepGrid(axes, grid.zipped());
  }
}
