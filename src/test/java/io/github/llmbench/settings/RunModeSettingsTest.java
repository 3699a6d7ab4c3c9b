package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  /** {@code -Dhelp} beside these properties. */
  private static String help(String... kv) {
    Map<String, String> p = props(kv);
    p.put("help", "true");
    return SettingsTable.helpFor(p);
  }

  @Test
  void helpBesideAModesFlagListsWhatThatModeAccepts() {
    String search = help("search", "conc");
    assertTrue(
        search.startsWith("Settings a capacity search (-Dsearch=conc) accepts: mvn gatling:test"),
        search);
    List<String> listed = SettingsTableTest.listed(search);
    assertTrue(listed.containsAll(List.of("search", "slo", "search.min", "conc", "base.url")));
    // the others' own are refused, their flags would choose another mode
    for (String other : List.of("candidate.url", "ab.max.pairs", "serve.cmd", "sweep", "gpus")) {
      assertFalse(listed.contains(other), other + " in " + listed);
    }
    List<String> ab = SettingsTableTest.listed(help("candidate.url", "http://127.0.0.1:8001"));
    assertTrue(ab.containsAll(List.of("candidate.url", "candidate.model", "ab.budget", "rate")));
    assertFalse(ab.contains("search") || ab.contains("slo") || ab.contains("serve.params"));
  }

  @Test
  void aModesHelpIsEverySettingButTheOtherModesGroups() {
    for (RunModeSettings.Kind kind : RunModeSettings.KINDS) {
      if (kind == RunModeSettings.Planned.KIND) {
        continue;
      }
      String flag = kind.topic().orElseThrow().settings().get(0).name();
      Set<SettingsTable.Setting<?>> others = new HashSet<>();
      RunModeSettings.othersRefusedIn(kind)
          .forEach(k -> k.topic().ifPresent(t -> others.addAll(t.settings())));
      List<SettingsTable.Setting<?>> expected = new ArrayList<>(SettingsTable.ALL);
      expected.removeAll(others);
      String help = help(flag, flag.equals("candidate.url") ? "http://127.0.0.1:8001" : "conc");
      assertEquals(SettingsTableTest.names(expected), SettingsTableTest.listed(help), kind.name());
      assertTrue(help.startsWith("Settings " + kind.name() + " ("), help);
    }
    assertEquals(
        SettingsTableTest.names(SettingsTable.ALL),
        SettingsTableTest.listed(help("serve.cmd", "vllm serve m")),
        "a sweep's child runs read every setting");
  }

  @Test
  void aModesHelpEndsWithTheShapesItRefusesAndWhyWhereTheFlagSaysIt() {
    String search = help("search", "rate");
    String refused = search.substring(search.indexOf("\nLoad shapes a capacity search refuses:\n"));
    assertTrue(
        refused.contains(
            "\n    -Dinjector\n        -Dsearch=rate runs in one injector: with -Dinjector each"
                + " injector would search on its own; drop -Dinjector\n"),
        refused);
    // its line names the -Dtrials given: without them the shape alone
    assertTrue(refused.endsWith("\n    -Dtrials above 1\n"), refused);
    for (LoadShape shape : LoadShape.values()) {
      assertEquals(
          SearchSettings.KIND.refuses(shape),
          refused.lines().anyMatch(l -> l.startsWith("    -") && l.contains(shape.label())),
          shape.label());
    }
  }

  @Test
  void helpPicksTheModeTheRunWould() {
    List<Map<String, String>> runs =
        List.of(
            props("sweep", "conc:1,2", "search", "conc", "slo", "ttft.p99:1"),
            props("search", "conc", "slo", "ttft.p99:1"),
            props("base.url", "http://127.0.0.1:8000", "candidate.url", "http://127.0.0.1:8001"));
    for (Map<String, String> run : runs) {
      Map<String, String> asked = new HashMap<>(run);
      asked.put("help", "");
      String first = SettingsTable.helpFor(asked).lines().findFirst().orElseThrow();
      assertTrue(first.startsWith("Settings " + read(run).mode().modeKind().name() + " ("), first);
    }
  }

  @Test
  void withoutAModesFlagOrWithATopicHelpIsAsBefore() {
    assertEquals(SettingsTable.help(), help("conc", "4", "ladder", "2,4"));
    assertEquals(
        SettingsTable.help("sim"), SettingsTable.helpFor(props("help", "sim", "search", "conc")));
  }

  @Test
  void aBadValueOfTheModesSettingsIsRefusedAsTheRunRefusesIt() {
    for (String[] bad :
        List.of(
            new String[] {"search", "fast"},
            new String[] {"candidate.url", "::b"},
            new String[] {"search", "conc", "slo", "ttft.p99:1", "search.budget", "0"})) {
      assertEquals(
          error(props(bad)),
          assertThrows(SettingsException.class, () -> help(bad)).getMessage(),
          String.join(" ", bad));
    }
  }
}
