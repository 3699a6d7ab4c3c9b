package io.github.llmbench.settings;

import io.github.llmbench.settings.BenchSettings.DatasetKind;
import java.util.function.Predicate;

/**
 * What a run's load looks like beside its mode, as far as a mode may refuse it: each shape is read
 * from the settings the same way for every mode ({@link RunModeSettings.Kind#refusals()} name
 * them), and {@code -Dhelp} prints which mode takes which ({@link RunModeSettings#helpTable()}).
 */
public enum LoadShape {
  CONC("-Dconc", in -> in.reader().isSet(LoadSettings.CONC)),
  LADDER("-Dladder", in -> in.load().ladder()),
  RAMP("-Dramp", in -> in.load().ramp().isPresent()),
  OPEN("-Drate (an open model)", in -> in.load().open()),
  PROMPTS("-Dprompts (levels by count)", in -> !in.load().prompts().isEmpty()),
  TRIALS("-Dtrials above 1", in -> in.load().trials() > 1),
  TRACE("a trace dataset", in -> in.workload().dataset() == DatasetKind.TRACE),
  TURNS("-Dturns above 1", in -> in.workload().multiTurn()),
  SEARCH("-Dsearch", in -> in.reader().isSet(SearchSettings.SEARCH)),
  INJECTOR("-Dinjector", in -> in.reader().isSet(InjectorSettings.INJECTOR)),
  SWEPT(
      "-Dsweep, -Dserve.params",
      in ->
          in.reader().isSet(SweepSettings.SWEEP) || in.reader().isSet(SweepSettings.SERVE_PARAMS)),
  BASELINE("-Dbaseline", in -> in.reader().isSet(GateSettings.BASELINE)),
  RUN_NOISE("-Dgate.run.noise", in -> in.reader().isSet(GateSettings.GATE_RUN_NOISE)),
  SERVER_CALLS("-Dcache.reset, -Dprofile", in -> in.server().calls().beforeLevels()),
  HISTORY("-Dhistory", in -> in.report().history().dir().isPresent());

  private final String label;
  private final Predicate<RunModeSettings.Inputs> present;

  LoadShape(String label, Predicate<RunModeSettings.Inputs> present) {
    this.label = label;
    this.present = present;
  }

  /** The settings that make this shape, as {@code -Dhelp} names them. */
  public String label() {
    return label;
  }

  /** Whether the settings read so far have this shape. */
  boolean presentIn(RunModeSettings.Inputs in) {
    return present.test(in);
  }
}
