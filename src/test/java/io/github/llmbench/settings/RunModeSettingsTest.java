package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run's mode is chosen once as the settings are read, and what each mode refuses is its table:
 * the load shapes it does not take, and its own settings in a run of another mode.
 */
class RunModeSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static Map<String, String> props(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void noChoosingSettingMeansPlannedLevels() {
    assertEquals(RunModeSettings.Planned.LEVELS, read(Map.of()).mode());
  }

  @Test
  void aSweepLeadsWhateverModeItsRunsAsk() {
    BenchSettings s = read(props("sweep", "conc:1,2", "search", "conc", "slo", "ttft.p99:1"));
    assertInstanceOf(SweepSettings.class, s.mode());
    assertTrue(s.search().isEmpty(), "each child run reads its own search");
  }

  @Test
  void eachModesOwnSettingsAreRefusedInAPlannedRun() {
    for (RunModeSettings.Kind kind : RunModeSettings.KINDS) {
      for (SettingsTable.Setting<?> own : kind.own()) {
        String value = own == SearchSettings.SLO ? "ttft.p99:1" : "2";
        assertEquals(
            "-D" + own.name() + " applies to " + kind.name() + ": add " + kind.choose(),
            error(props(own.name(), value)));
      }
    }
  }

  @Test
  void aModesRefusalComesBeforeItsOwnSettingsAreRead() {
    // -Dslo is missing too: the shape is what the line names
    assertTrue(
        error(props("search", "conc", "conc", "8"))
            .startsWith("-Dsearch=conc chooses the levels itself"));
  }

  @Test
  void eachShapeAModeRefusesIsRefusedWithItsLine() {
    Map<LoadShape, Map<String, String>> shaped =
        Map.of(
            LoadShape.LADDER, props("ladder", "2,4"),
            LoadShape.TRIALS, props("trials", "3"),
            LoadShape.INJECTOR, props("injector", "0/2", "seed", "7"),
            LoadShape.PROMPTS, props("prompts", "20"));
    Map<RunModeSettings.Kind, Map<String, String>> chosen =
        Map.of(
            AbSettings.KIND,
                props(
                    "base.url", "http://127.0.0.1:8000", "candidate.url", "http://127.0.0.1:8001"),
            SearchSettings.KIND, props("search", "conc", "slo", "ttft.p99:1"),
            SweepSettings.KIND, props("sweep", "conc:1,2"));
    chosen.forEach(
        (kind, base) ->
            shaped.forEach(
                (shape, more) -> {
                  Map<String, String> p = new HashMap<>(base);
                  p.putAll(more);
                  if (kind.refuses(shape)) {
                    assertThrows(SettingsException.class, () -> read(p), kind.name() + shape);
                  } else {
                    assertEquals(kind, read(p).mode().modeKind(), shape.label());
                  }
                }));
  }

  @Test
  void helpPrintsWhichModeTakesWhichShape() {
    String table = RunModeSettings.helpTable();
    List<String> lines = Arrays.asList(table.split("\n"));
    for (RunModeSettings.Kind kind : RunModeSettings.KINDS) {
      assertTrue(lines.get(2).contains(kind.name()), lines.get(2));
    }
    for (LoadShape shape : LoadShape.values()) {
      String row =
          lines.stream()
              .filter(l -> l.startsWith("    " + shape.label() + " "))
              .findFirst()
              .orElseThrow();
      List<String> cells = Arrays.asList(row.substring(32).trim().split("\\s+"));
      int planned = RunModeSettings.KINDS.indexOf(RunModeSettings.Planned.KIND);
      assertEquals("yes", cells.get(planned), "planned levels take every shape: " + row);
      for (int i = 0; i < RunModeSettings.KINDS.size(); i++) {
        assertEquals(RunModeSettings.KINDS.get(i).refuses(shape) ? "no" : "yes", cells.get(i), row);
      }
    }
    assertTrue(SettingsTable.help().endsWith(table), "-Dhelp ends with the table");
  }
}
