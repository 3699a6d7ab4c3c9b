package io.github.llmbench.settings;

import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.settings.SettingsTable.Setting;
import io.github.llmbench.simulator.Knob;
import io.github.llmbench.simulator.SimKnobs;
import io.github.llmbench.simulator.SimulatorConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The embedded simulator's group of settings ({@code -Dhelp}'s "Embedded simulator (no
 * -Dbase.url)"), used only without {@code -Dbase.url}: one {@code -Dsim.<name>} per knob of the
 * simulator's own table ({@link SimKnobs}), whose name, reader, default and help it takes as they
 * are, so that the kit and the standalone simulator read a knob the same way.
 *
 * @param config the simulator as the settings set it: each {@code -Dsim.*} given, the defaults
 *     else; the kit adds the run's seed and what the workload needs when it starts it
 */
public record SimulatorSettings(SimulatorConfig config) {

  private static final String HEADING = SettingsTable.SIMULATOR;

  /** The embedded simulator's model for a run with images: the vision sibling of the default. */
  public static final String DEFAULT_VISION_MODEL = "qwen2.5-vl-7b-instruct";

  /** The most tensor-parallel GPUs, simulated or of the roofline. */
  static final int MAX_TP = SimKnobs.MAX_TP;

  /** The settings line that gathers the {@link Knob.Part#ENGINE} knobs. */
  static final String ENGINE_LINE = SimKnobs.PREFIX + "engine";

  /** Each {@code -Dsim.*} knob with its setting, in the table's order. */
  private static final List<Bound<?>> BOUND =
      SimKnobs.ALL.stream()
          .filter(k -> k.property().isPresent())
          .<Bound<?>>map(SimulatorSettings::bound)
          .toList();

  /** This group's settings, in the order {@code -Dhelp} prints them. */
  static final List<Setting<?>> SETTINGS = BOUND.stream().<Setting<?>>map(Bound::setting).toList();

  public static final Setting<?> SIM_MODEL = setting(SimKnobs.MODEL);
  public static final Setting<?> SIM_GPU = setting(SimKnobs.GPU);

  /** A knob and its {@code -Dsim.*} setting. */
  private record Bound<T>(Knob<T> knob, Setting<T> setting) {
    SimulatorConfig applied(SettingReader r, SimulatorConfig c) {
      return r.optional(setting).map(v -> c.with(knob, v)).orElse(c);
    }

    /** The knob's line in {@code part}, if it has one there and shows it for this value. */
    Optional<String> line(SimulatorConfig c, Knob.Part part, long seed) {
      Knob.Line<T> line = knob.line();
      T value = c.get(knob);
      return line.part() == part && (line.always() || !knob.isDefault(value))
          ? Optional.of(line.words().of(value, seed))
          : Optional.empty();
    }
  }

  /** The knob's setting: its name under {@code sim.}, its help, its reader and its default. */
  private static <T> Bound<T> bound(Knob<T> knob) {
    Parser<T> parser =
        (name, raw) -> {
          try {
            return knob.reader().read(raw);
          } catch (Knob.Refused e) {
            throw SettingsException.invalid(name, raw, e.accepted());
          }
        };
    return new Bound<>(
        knob,
        new Setting<>(
            HEADING,
            knob.property().orElseThrow(),
            knob.defaultWords(),
            knob.accepted(),
            knob.meaning(),
            parser,
            Optional.of(knob.defaultValue())));
  }

  private static Setting<?> setting(Knob<?> knob) {
    return SETTINGS.stream()
        .filter(s -> s.name().equals(knob.property().orElseThrow()))
        .findFirst()
        .orElseThrow();
  }

  /**
   * Reads the group's settings and refuses a bad value, or a bad pair within the group.
   *
   * @param images whether requests carry images: the default model is then one that sees them
   */
  static SimulatorSettings read(SettingReader r, boolean images) {
    // -Dsim.model, when given, wins over the default's vision sibling
    SimulatorConfig c =
        images
            ? SimulatorConfig.defaults().withModel(DEFAULT_VISION_MODEL)
            : SimulatorConfig.defaults();
    for (Bound<?> b : BOUND) {
      c = b.applied(r, c);
    }
    if (c.maxNumBatchedTokens() < c.maxNumSeqs()) {
      throw SettingsException.invalid(
          SimKnobs.MAX_NUM_BATCHED_TOKENS.property().orElseThrow(),
          Integer.toString(c.maxNumBatchedTokens()),
          "a whole number >= sim.max_num_seqs (" + c.maxNumSeqs() + ")");
    }
    return new SimulatorSettings(c);
  }

  /** The simulated model: a catalog id, or the path of a Hugging Face config.json. */
  public String model() {
    return config.model();
  }

  /** The simulated GPU (catalog id). */
  public String gpu() {
    return config.gpu();
  }

  /** The simulated server's dialect: {@code vllm}, {@code llamacpp}, {@code sglang}, ... */
  public String dialect() {
    return config.dialect().id();
  }

  /** The model's spec: from the catalog, or from its config.json. */
  ModelSpec modelSpec() {
    return config.modelSpec();
  }

  /**
   * The run's settings lines of the simulator, in order: what it plays (always its model and GPU),
   * its engine ({@value #ENGINE_LINE}, the {@link Knob.Part#ENGINE} knobs together), then each
   * change to the engine and to the answers that is set.
   *
   * @param seed the run's seed, which the noise draws from
   */
  public Map<String, String> lines(long seed) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Knob.Part part : Knob.Part.values()) {
      if (part == Knob.Part.NONE) {
        continue;
      }
      if (part == Knob.Part.ENGINE) {
        List<String> engine = new ArrayList<>();
        BOUND.forEach(b -> b.line(config, part, seed).ifPresent(engine::add));
        out.put(ENGINE_LINE, String.join(", ", engine));
      } else {
        BOUND.forEach(
            b -> b.line(config, part, seed).ifPresent(w -> out.put(b.setting().name(), w)));
      }
    }
    return out;
  }

  /**
   * The names of the lines that say which server a run measured, for a history's key: all but those
   * of noise and a slowdown ({@link Knob.Line#keyed()}).
   */
  public static List<String> keyedLines() {
    List<String> out = new ArrayList<>();
    for (Knob.Part part : Knob.Part.values()) {
      if (part == Knob.Part.ENGINE) {
        out.add(ENGINE_LINE);
      } else if (part != Knob.Part.NONE) {
        BOUND.stream()
            .filter(b -> b.knob().line().part() == part && b.knob().line().keyed())
            .forEach(b -> out.add(b.setting().name()));
      }
    }
    return List.copyOf(out);
  }
}
