package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SettingsTableTest {

  private static String error(Map<String, String> properties) {
    try {
      BenchSettings.from(properties, k -> null);
      return "no error";
    } catch (SettingsException e) {
      return e.getMessage();
    }
  }

  @Test
  void misspelledSettingsAreNamedWithTheNearMiss() {
    assertEquals(
        "Unknown setting -Dconcurrency=4: did you mean -Dconc? (-Dhelp lists every setting)",
        error(Map.of("concurrency", "4")));
    assertEquals(
        "Unknown setting -Dinput_len=256: did you mean -Dinput.len? (-Dhelp lists every setting)",
        error(Map.of("input_len", "256")));
    assertEquals(
        "Unknown setting -Dgates.tpot.p99=50: did you mean -Dgate.tpot.p99? -Dgates is one setting, with no -Dgates.* under it"
            + " (-Dhelp lists all)",
        error(Map.of("gates.tpot.p99", "50")));
    assertEquals(
        "Unknown setting -Dnum.prompts=100: did you mean -Dprompts? (-Dhelp lists every setting)",
        error(Map.of("num.prompts", "100")));
    assertEquals(
        "Unknown setting -Dnum-prompts=100: did you mean -Dprompts? (-Dhelp lists every setting)",
        error(Map.of("num-prompts", "100")));
    assertEquals(
        "Unknown setting -Drandom-mm-base-items-per-request=2: did you mean -Dimages? (-Dhelp lists"
            + " every setting)",
        error(Map.of("random-mm-base-items-per-request", "2")));
    assertEquals(
        "Unknown setting -Dlen.input=256: did you mean -Dinput.len? (-Dhelp lists every setting)",
        error(Map.of("len.input", "256")));
    assertEquals(
        "Unknown setting -Dladdder=4,8: did you mean -Dladder? (-Dhelp lists every setting)",
        error(Map.of("laddder", "4,8")));
    assertEquals(
        "Unknown setting -DConc=4: did you mean -Dconc? (-Dhelp lists every setting)",
        error(Map.of("Conc", "4")));
    assertEquals(
        "Unknown setting -Dsim.gpuu=x: did you mean -Dsim.gpu? the -Dsim.* settings are sim.model, sim.gpu, sim.tp, "
            + "sim.max_num_seqs, sim.max_num_batched_tokens, sim.gpu_memory_utilization, sim.faults, sim.noise, sim.slowdown, sim.process.sd, sim.tokens.per.chunk, sim.reasoning, sim.speculative, sim.kv.transfer, sim.dialect, sim.lora (-Dhelp lists all)",
        error(Map.of("sim.gpuu", "x")));
    assertTrue(
        error(Map.of("warmup.seconds", "5"))
            .startsWith(
                "Unknown setting -Dwarmup.seconds=5: the -Dwarmup.* settings are warmup.prompts, warmup.conc"),
        "in a namespace, no near miss: still an error");
  }

  @Test
  void theJvmsMavensAndGatlingsPropertiesPass() {
    Map<String, String> props = new HashMap<>();
    System.getProperties().forEach((k, v) -> props.put(String.valueOf(k), String.valueOf(v)));
    props.putAll(
        Map.of(
            "gatling.simulationClass",
            "x.Y",
            "exec.args",
            "a b",
            "test",
            "FooTest",
            "skipTests",
            "true",
            "maven.repo.local",
            "/tmp/m2",
            "io.netty.leakDetection.level",
            "disabled",
            "surefire.failIfNoSpecifiedTests",
            "false",
            "it.test",
            "X",
            "basedir",
            "/work",
            "header.X-Route",
            "pool-a"));
    props.put("gate.tpot.p99", "50");
    props.put("help", "true");
    assertEquals(
        Optional.empty(),
        SettingsTable.unknown(props, Set.of()),
        "none is the kit's or a near miss");
  }

  @Test
  void everySettingReachesTheJvmThatMavenForksForGatling() {
    // the Gatling Maven plugin does not pass these on to the simulation's JVM (its
    // SystemProperties)
    List<String> notPassed =
        List.of(
            "awt.",
            "file.",
            "gatling.",
            "guice.",
            "hudson.",
            "idea.",
            "java.",
            "jdk.",
            "jline.",
            "jna.",
            "log4j.",
            "maven.",
            "os.",
            "sbt.",
            "scala.",
            "sun.",
            "swoval.",
            "user.");
    for (SettingsTable.Setting s : SettingsTable.ALL) {
      assertTrue(
          notPassed.stream().noneMatch(s.name()::startsWith),
          "-D" + s.name() + " would never reach a mvn gatling:test run");
    }
  }

  @Test
  void aSimulationsOwnPropertiesPassAndFlatSettingsHaveNoSubSettings() {
    assertEquals(
        Optional.empty(),
        SettingsTable.unknown(Map.of("mode", "fast", "users", "10"), Set.of("mode", "users")));
    assertEquals(
        Optional.of(
            "Unknown setting -Dmode=fast: did you mean -Dmodel? (-Dhelp lists every setting)"),
        SettingsTable.unknown(Map.of("mode", "fast"), Set.of()));
    assertEquals(
        "Unknown setting -Dslo.ttft.p99=2000: -Dslo is one setting, with no -Dslo.* under it (-Dhelp lists all)",
        error(Map.of("slo.ttft.p99", "2000")));
    assertEquals(
        Optional.empty(),
        SettingsTable.nearMiss("rate.limit"),
        "-Drate.limit is not a misspelled -Dgate.limit");
    assertEquals(
        "Unknown setting -Dmetrics.token: the -Dmetrics.* settings are metrics.interval, metrics.urls (-Dhelp lists all)",
        error(Map.of("metrics.token", "s3cret")),
        "a value that may be a secret is not shown");
  }

  @Test
  void aHeadersValueIsNotShown() {
    assertEquals(
        "Unknown setting -Dheaders.Authorization: did you mean -Dheader.Authorization? (-Dhelp lists every setting)",
        error(Map.of("headers.Authorization", "Bearer sk-secret")));
  }

  @Test
  void helpListsEverySettingWithItsDefaultAndWhatItAccepts() {
    String help = SettingsTable.help();
    for (SettingsTable.Setting s : SettingsTable.ALL) {
      assertTrue(help.contains("-D" + s.name()), s.name());
      assertTrue(
          help.contains("default: " + s.defaultValue() + "; accepts: " + s.accepted()), s.name());
    }
  }

  /** The settings a help text lists, in its order: each line's {@code -D<name>}. */
  static List<String> listed(String help) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^  -D(\\S+)").matcher(help);
    while (m.find()) {
      out.add(m.group(1).replace("<...>", ""));
    }
    return out;
  }

  static List<String> names(List<SettingsTable.Setting<?>> settings) {
    return settings.stream().map(SettingsTable.Setting::name).toList();
  }

  @Test
  void plainHelpIsTheFullListAndTheTopicsTogetherMakeIt() {
    String full = SettingsTable.help();
    for (String plain : new String[] {"", "true", " TRUE "}) {
      assertEquals(full, SettingsTable.help(plain), "-Dhelp=" + plain);
    }
    assertEquals(names(SettingsTable.ALL), listed(full), "every setting, in the table's order");
    List<String> inTopics = new ArrayList<>();
    SettingsTable.TOPICS.forEach(t -> inTopics.addAll(names(t.settings())));
    inTopics.add(SettingsTable.HELP.name());
    assertEquals(names(SettingsTable.ALL), inTopics, "each setting in one topic, the help alone");
    assertEquals(
        SettingsTable.TOPICS.size(),
        SettingsTable.TOPICS.stream().map(SettingsTable.Topic::id).distinct().count());
  }

  @Test
  void aTopicListsExactlyItsGroupsSettingsUnderTheirHeading() {
    for (SettingsTable.Topic t : SettingsTable.TOPICS) {
      String help = SettingsTable.help(t.id());
      assertEquals(names(t.settings()), listed(help), "-Dhelp=" + t.id());
      String heading = t.settings().get(0).group();
      assertTrue(help.contains("\n" + heading + ":\n"), t.id() + ": " + help);
      assertTrue(help.contains("(-Dhelp lists every setting; a topic: server, load,"), help);
      // each setting's two lines, as the full list words them
      String full = SettingsTable.help();
      for (String line : help.lines().filter(l -> l.startsWith("  ")).toList()) {
        assertTrue(full.contains(line + "\n"), line);
      }
    }
    assertEquals(SettingsTable.help("sim"), SettingsTable.help(" Sim "));
    assertEquals(
        List.of(
            "candidate.url",
            "candidate.serve.cmd",
            "candidate.model",
            "ab.max.pairs",
            "ab.min.pairs",
            "ab.block.pairs",
            "ab.max.blocks",
            "ab.budget"),
        listed(SettingsTable.help("ab")));
  }

  @Test
  void eachModesGroupIsItsKindsTopicHoldingItsOwnSettings() {
    for (RunModeSettings.Kind kind : RunModeSettings.KINDS) {
      kind.topic()
          .ifPresent(
              t -> {
                assertTrue(SettingsTable.TOPICS.contains(t), t.id());
                assertTrue(t.settings().containsAll(kind.own()), kind.name());
              });
    }
    // their place in the order: anUnknownTopicIsOneLineNamingTheValueAndTheTopics
  }

  @Test
  void anUnknownTopicIsOneLineNamingTheValueAndTheTopics() {
    String expected =
        "Invalid -Dhelp=simulator: expected empty or true (every setting), or a topic: server,"
            + " load, workload, sessions, images, sim, report, gates, search, ab, sweep,"
            + " telemetry, export, injector, records";
    assertEquals(
        expected,
        assertThrows(SettingsException.class, () -> SettingsTable.help("simulator")).getMessage());
    assertEquals(
        expected,
        assertThrows(
                SettingsException.class,
                () -> SettingsTable.HELP.parser().parse("help", "simulator"))
            .getMessage(),
        "the setting's parser refuses it as the help does");
    assertEquals("gates", SettingsTable.HELP.parser().parse("help", "gates"));
  }

  @Test
  void aDefaultValueIsShownAsItIsTypedAndReadsBackAsItself() {
    for (SettingsTable.Setting<?> s : SettingsTable.ALL) {
      s.typedDefault()
          .ifPresent(d -> assertEquals(d, s.parser().parse(s.name(), s.defaultValue()), s.name()));
    }
    assertEquals("16", LoadSettings.CONC.defaultValue());
    assertEquals("1", LoadSettings.BURSTINESS.defaultValue(), "not 1.0");
    assertEquals(
        Optional.empty(), LoadSettings.WARMUP_CONC.typedDefault(), "the first level / 4: computed");
  }

  @Test
  void docsSettingsMdDescribesTheSameSettings() throws Exception {
    String doc = Files.readString(Path.of("docs/settings.md"));
    Set<String> documented = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| `([a-zA-Z_.<>]+)`").matcher(doc);
    while (m.find()) {
      documented.add(m.group(1).replace("<Name>", "").replace("<metric>", ""));
    }
    Set<String> inTable = new TreeSet<>();
    SettingsTable.ALL.forEach(s -> inTable.add(s.name()));
    inTable.remove("help"); // the help is its own
    documented.remove("gatling.simulationClass"); // Gatling's, documented for convenience
    assertEquals(inTable, documented, "docs/settings.md and SettingsTable list the same settings");
  }

  @Test
  void editDistance() {
    assertEquals(0, SettingsTable.distance("conc", "conc"));
    assertEquals(1, SettingsTable.distance("conc", "concs"));
    assertEquals(2, SettingsTable.distance("ladder", "ldader"));
    assertEquals(3, SettingsTable.distance("kitten", "sitting"));
  }

  /** The group files, as the registry lists them. */
  private static final List<Class<?>> GROUP_FILES =
      List.of(
          ServerSettings.class,
          LoadSettings.class,
          WorkloadSettings.class,
          SessionSettings.class,
          Images.class,
          SimulatorSettings.class,
          ReportSettings.class,
          GateSettings.class,
          SearchSettings.class,
          AbSettings.class,
          SweepSettings.class,
          TelemetrySettings.class,
          ExportSettings.class,
          InjectorSettings.class,
          GatlingRecords.class);

  @Test
  void everySettingAGroupDefinesIsInItsGroupsListAndTheRegistry() throws Exception {
    List<SettingsTable.Setting<?>> registered = new ArrayList<>();
    for (Class<?> group : GROUP_FILES) {
      Set<String> defined = new TreeSet<>();
      for (Field f : group.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())
            && SettingsTable.Setting.class.isAssignableFrom(f.getType())) {
          f.setAccessible(true);
          defined.add(((SettingsTable.Setting<?>) f.get(null)).name());
        }
      }
      Field list = group.getDeclaredField("SETTINGS");
      list.setAccessible(true);
      @SuppressWarnings("unchecked")
      List<SettingsTable.Setting<?>> listed = (List<SettingsTable.Setting<?>>) list.get(null);
      Set<String> listedNames = new TreeSet<>();
      listed.forEach(x -> listedNames.add(x.name()));
      if (group == SimulatorSettings.class) {
        // its list is the simulator's knob table's (SimKnobsTest); a few have constants too
        assertTrue(listedNames.containsAll(defined), defined.toString());
      } else {
        assertEquals(defined, listedNames, group.getSimpleName() + " lists what it defines");
      }
      registered.addAll(listed);
    }
    registered.add(SettingsTable.HELP);
    assertEquals(
        SettingsTable.ALL, registered, "the registry holds every group, in -Dhelp's order");
  }

  @Test
  void aHelpHeadingsGroupsFollowEachOther() {
    List<String> headings = new ArrayList<>();
    for (SettingsTable.Setting<?> x : SettingsTable.ALL) {
      if (headings.isEmpty() || !headings.get(headings.size() - 1).equals(x.group())) {
        assertTrue(!headings.contains(x.group()), x.name() + " splits the heading " + x.group());
        headings.add(x.group());
      }
    }
    assertEquals(6, headings.size(), headings.toString());
  }
}
