package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import io.github.llmbench.settings.SettingsTable;
import io.github.llmbench.settings.SimulatorSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The knobs' table drives both front ends: a knob set through {@code -Dsim.X} or through its flag
 * gives the same {@link SimulatorConfig}, refused with the same words; the {@code -Dsim.*} settings
 * are the table's, with its words, as {@code -Dhelp} printed them before the table.
 */
class SimKnobsTest {

  /** A value that is not the default, for each knob with a {@code -Dsim.*} name and a flag. */
  private static final Map<Knob<?>, String> SAMPLES =
      Map.ofEntries(
          Map.entry(SimKnobs.MODEL, "sim-tiny"),
          Map.entry(SimKnobs.GPU, "rtx4090"),
          Map.entry(SimKnobs.TP, "2"),
          Map.entry(SimKnobs.MAX_NUM_SEQS, "64"),
          Map.entry(SimKnobs.MAX_NUM_BATCHED_TOKENS, "4096"),
          Map.entry(SimKnobs.GPU_MEMORY_UTILIZATION, "0.8"),
          Map.entry(SimKnobs.FAULTS, "429:0.1,cut:0.05"),
          Map.entry(SimKnobs.NOISE, "0.1"),
          Map.entry(SimKnobs.SLOWDOWN, "1.5"),
          Map.entry(SimKnobs.PROCESS_SD, "0.04"),
          Map.entry(SimKnobs.TOKENS_PER_CHUNK, "4"),
          Map.entry(SimKnobs.REASONING, "12"),
          Map.entry(SimKnobs.KV_TRANSFER, "25"),
          Map.entry(SimKnobs.DIALECT, "sglang"));

  private static List<Knob<?>> withBoth() {
    return SimKnobs.ALL.stream()
        .filter(k -> k.property().isPresent() && !k.flags().isEmpty())
        .toList();
  }

  private static SimulatorConfig fromProperties(Map<String, String> properties) {
    return BenchSettings.from(properties, k -> null).simulator().config();
  }

  /** The standalone simulator's config for these flags, on the kit's port and default seed. */
  private static SimulatorConfig fromFlags(List<String> flags) {
    List<String> args = new ArrayList<>(flags);
    args.addAll(List.of("--seed", "0"));
    return VllmSimulatorMain.parse(args.toArray(String[]::new)).withPort(0);
  }

  @Test
  void everyKnobWithBothNamesHasASampleHere() {
    assertEquals(
        withBoth().stream().map(Knob::toString).collect(Collectors.toSet()),
        SAMPLES.keySet().stream().map(Knob::toString).collect(Collectors.toSet()),
        "a new knob with both names: give it a sample");
  }

  @Test
  void aKnobSetThroughItsPropertyOrItsFlagGivesTheSameConfig() {
    assertEquals(SimulatorConfig.defaults(), fromProperties(Map.of()), "none set");
    assertEquals(SimulatorConfig.defaults(), fromFlags(List.of()), "none set");
    Map<String, String> all = new HashMap<>();
    List<String> allFlags = new ArrayList<>();
    for (Knob<?> k : withBoth()) {
      String property = k.property().orElseThrow();
      String value = SAMPLES.get(k);
      SimulatorConfig viaProperty = fromProperties(Map.of(property, value));
      assertNotEquals(SimulatorConfig.defaults(), viaProperty, property + "=" + value);
      for (String flag : k.flags()) {
        assertEquals(viaProperty, fromFlags(List.of(flag, value)), flag + " " + value);
      }
      all.put(property, value);
      allFlags.add(k.flags().get(0) + "=" + value);
    }
    assertEquals(fromProperties(all), fromFlags(allFlags), "all at once");
  }

  @Test
  void speculationAsTheKitWritesItAndAsVllmsFlagsDo() {
    assertEquals(
        fromProperties(Map.of("sim.speculative", "3:0.5")),
        fromFlags(List.of("--num-speculative-tokens", "3", "--spec-acceptance", "0.5")));
    assertEquals(
        fromProperties(Map.of("sim.speculative", "3:0.7")),
        fromFlags(List.of("--num-speculative-tokens", "3")),
        "0.7 unless given");
  }

  @Test
  void bothRefuseABadValueInTheSameWords() {
    for (Knob<?> k : withBoth()) {
      String property = k.property().orElseThrow();
      String kit =
          assertThrows(SettingsException.class, () -> fromProperties(Map.of(property, "x!")))
              .getMessage();
      String prefix = "Invalid -D" + property + "=x!: expected ";
      assertTrue(kit.startsWith(prefix), kit);
      String flag = k.flags().get(0);
      String cli =
          assertThrows(
                  IllegalArgumentException.class,
                  () -> VllmSimulatorMain.parse(new String[] {flag, "x!"}))
              .getMessage();
      assertEquals(
          flag + ": 'x!' is invalid (accepted: " + kit.substring(prefix.length()) + ")", cli);
    }
  }

  @Test
  void theSimSettingsAreTheTablesPropertiesWithItsWords() {
    List<String> properties = new ArrayList<>();
    for (Knob<?> k : SimKnobs.ALL) {
      if (k.property().isEmpty()) {
        assertTrue(
            SettingsTable.get(SimKnobs.PREFIX + k.flags().get(0).substring(2)).isEmpty(),
            k + " is the standalone simulator's alone");
        continue;
      }
      SettingsTable.Setting<?> s = SettingsTable.get(k.property().get()).orElseThrow();
      assertEquals(k.defaultWords(), s.defaultValue(), s.name());
      assertEquals(k.accepted(), s.accepted(), s.name());
      assertEquals(k.meaning(), s.meaning(), s.name());
      assertEquals(k.defaultValue(), s.typedDefault().orElseThrow(), s.name());
      properties.add(s.name());
    }
    assertEquals(
        properties,
        listed(SettingsTable.help("sim")),
        "-Dhelp=sim: the table's -Dsim.* knobs, in its order");
  }

  private static List<String> listed(String help) {
    return help.lines()
        .filter(l -> l.startsWith("  -D"))
        .map(l -> l.substring(4).split(" ")[0])
        .toList();
  }

  /** {@code -Dhelp=sim}'s lines, as {@code -Dhelp} printed them before the knobs' table. */
  @Test
  void theSimTopicIsAsBeforeTheTable() {
    String before =
        """
          -Dsim.model                    the simulated model
                                         default: qwen2.5-7b-instruct; accepts: a catalog id, or the path of a Hugging Face config.json
          -Dsim.gpu                      the simulated GPU
                                         default: rtx4080-32gb; accepts: a catalog GPU id
          -Dsim.tp                       the simulated tensor-parallel GPUs
                                         default: 1; accepts: a whole number from 1 to 64
          -Dsim.max_num_seqs             vLLM's --max-num-seqs
                                         default: 256; accepts: a whole number from 1
          -Dsim.max_num_batched_tokens   vLLM's --max-num-batched-tokens
                                         default: 2048; accepts: a whole number >= sim.max_num_seqs
          -Dsim.gpu_memory_utilization   vLLM's --gpu-memory-utilization (KV-cache size)
                                         default: 0.9; accepts: a number above 0 and at most 1
          -Dsim.faults                   faults on demand
                                         default: none; accepts: MODE:SHARE,... e.g. 429:0.05,500:0.05,error:0.05,cut:0.02,stall:0.01:30
          -Dsim.noise                    each engine step's time x a random factor of mean 1: step-to-step CV this, plus a drift of CV half this over ~5 s; drawn from the run's seed
                                         default: 0; accepts: a number from 0 to 1 (0.1: 10%)
          -Dsim.slowdown                 every engine step takes this many times as long
                                         default: 1; accepts: a number above 0, at most 100 (1.1: 10% slower)
          -Dsim.tokens.per.chunk         each stream chunk carries this many tokens (vLLM's dialect)
                                         default: 1; accepts: a whole number from 1 to 64
          -Dsim.reasoning                a chat answer's first N tokens are thinking, streamed as delta.reasoning (vLLM's)
                                         default: 0; accepts: a whole number from 0
          -Dsim.speculative              the simulator decodes speculatively: each step verifies K drafts, keeps them up to the first rejected one and streams what it kept in one chunk
                                         default: none; accepts: none, or K:P with K drafts per step (1 to 16) and P each one's chance to be kept (0 to 1), e.g. 3:0.7
          -Dsim.kv.transfer              the simulator serves disaggregated: each prompt's KV goes from a prefill to a decode instance over a link of this rate before the first token
                                         default: none; accepts: none, or the link's rate in GB/s (above 0, at most 10000), e.g. 25
          -Dsim.dialect                  the simulated server's stream and endpoint shapes
                                         default: vllm; accepts: vllm, llamacpp, sglang, tgi or trtllm
          -Dsim.lora                     LoRA adapters the simulator serves besides its model (vLLM's --lora-modules), to mix with -Dmodel
                                         default: none; accepts: adapter names separated by commas, e.g. sql,chat
        """;
    // in order, each setting's two lines together; a knob added since may stand between them
    List<String> help = SettingsTable.help("sim").lines().toList();
    int at = help.indexOf("Embedded simulator (no -Dbase.url):");
    List<String> lines = before.lines().toList();
    for (int i = 0; i < lines.size(); i += 2) {
      int next = help.subList(at + 1, help.size()).indexOf(lines.get(i));
      assertTrue(next >= 0, "missing or out of order: " + lines.get(i));
      at += 1 + next;
      assertEquals(lines.get(i + 1), help.get(at + 1), lines.get(i));
    }
    assertTrue(SettingsTable.help().contains(String.join("\n", help.subList(2, help.size() - 2))));
  }

  @Test
  void theUsageNamesEveryFlagWithItsMeaning() {
    String usage = VllmSimulatorMain.usage();
    Set<String> named = new java.util.HashSet<>();
    for (Knob<?> k : SimKnobs.ALL) {
      if (k.flags().isEmpty()) {
        continue;
      }
      assertTrue(usage.contains("[" + k.flags().get(0) + " " + k.usage() + "]"), k.toString());
      assertTrue(usage.contains(" " + k.meaning() + "\n"), k.toString());
      k.flags().forEach(f -> assertTrue(named.add(f), f + " names one knob"));
    }
    assertTrue(
        usage.startsWith("usage: VllmSimulatorMain [--port 8000] [--model qwen2.5-7b-instruct|"),
        usage);
    String unknown =
        assertThrows(
                IllegalArgumentException.class,
                () -> VllmSimulatorMain.parse(new String[] {"--frobnicate", "1"}))
            .getMessage();
    for (Knob<?> k : SimKnobs.ALL) {
      if (!k.flags().isEmpty()) {
        assertTrue(unknown.contains(k.flags().get(0)), unknown);
      }
    }
  }

  @Test
  void aHistorysKeyHoldsTheServerPlayedNotItsNoise() {
    assertEquals(
        Set.of(
            "sim.model",
            "sim.gpu",
            "sim.dialect",
            "sim.engine",
            "sim.faults",
            "sim.tokens.per.chunk",
            "sim.reasoning",
            "sim.speculative",
            "sim.kv.transfer"),
        Set.copyOf(SimulatorSettings.keyedLines()));
  }

  @Test
  void aKnobsValueIsKeptUnderItsEntry() {
    SimulatorConfig c = SimulatorConfig.defaults().with(SimKnobs.TOKENS_PER_CHUNK, 3);
    assertEquals(3, c.get(SimKnobs.TOKENS_PER_CHUNK));
    assertEquals(3, c.tokensPerChunk());
    assertEquals(c, SimulatorConfig.defaults().withTokensPerChunk(3));
    Map<Knob<?>, Object> defaults = new LinkedHashMap<>();
    for (Knob<?> k : SimKnobs.ALL) {
      if (k.own() && k != SimKnobs.PORT) {
        defaults.put(k, SimulatorConfig.defaults().get(k));
        assertEquals(k.defaultValue(), defaults.get(k), k.toString());
      }
    }
    try {
      SimulatorConfig.defaults().get(SimKnobs.SPEC_ACCEPTANCE);
      fail("--spec-acceptance sets part of the speculation's value");
    } catch (IllegalArgumentException e) {
      assertEquals("--spec-acceptance has no value of its own", e.getMessage());
    }
  }
}
