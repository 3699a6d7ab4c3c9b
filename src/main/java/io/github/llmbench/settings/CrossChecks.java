package io.github.llmbench.settings;

import io.github.llmbench.core.Level;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.endpoints.Endpoint;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The checks across groups of settings, in one place: each refuses, in one line, settings that are
 * fine alone but not together (an endpoint and the images, a trace and a rate, a search and a
 * ladder, injectors and a small level, ...). {@link BenchSettings#from} runs them as it reads the
 * groups.
 */
final class CrossChecks {
  private CrossChecks() {}

  /** A run with images on the embedded simulator needs a model that sees them. */
  static void simulatorSeesImages(
      ServerSettings server, SimulatorSettings simulator, Images images) {
    if (images.any()
        && server.embeddedSimulator()
        && simulator.modelSpec().visionPatchPixels() == 0) {
      throw SettingsException.invalid(
          "sim.model",
          simulator.model(),
          "a model that takes images with -Dimages (e.g. "
              + SimulatorSettings.DEFAULT_VISION_MODEL
              + ")");
    }
  }

  /** {@code -Dburstiness} and {@code -Dmax.conc} shape an open-model load only. */
  static void openModelSettings(SettingReader r, LoadSettings load) {
    boolean rateSearch = r.raw(SearchSettings.SEARCH).filter("rate"::equals).isPresent();
    boolean rateRamp = load.ramp().filter(x -> x.kind() == Ramp.Kind.RATE).isPresent();
    if (load.rate().isEmpty()
        && !rateSearch
        && !rateRamp
        && (r.isSet(LoadSettings.BURSTINESS) || load.maxConc().isPresent())) {
      throw new SettingsException(
          "-Dburstiness and -Dmax.conc apply to an open-model run: add -Drate=<requests per second> (or -Dsearch=rate)");
    }
  }

  /** A trace says when each request is sent: no rate, ramp or ladder over it. */
  static void traceSetsTheTimes(LoadSettings load, WorkloadSettings workload) {
    if (workload.dataset() == DatasetKind.TRACE
        && (load.open() || load.ladder() || load.ramp().isPresent())) {
      throw new SettingsException(
          "-Drate, -Dramp and -Dladder do not apply to -Ddataset=trace:PATH: the trace says when each request is sent");
    }
  }

  /**
   * The checks across settings of a run with images: an endpoint that takes them, single turns, a
   * ladder over them at one load only.
   */
  static void checkImages(
      SettingReader r, Endpoint api, LoadSettings load, WorkloadSettings workload) {
    Images images = workload.images();
    if (images.counts().isEmpty()) {
      return;
    }
    if (!api.takesImages()) {
      throw new SettingsException(
          "-Dimages needs -Dapi=chat or -Dapi=responses (the /v1/"
              + api.id()
              + " endpoint takes no images)");
    }
    if (workload.multiTurn()) {
      throw new SettingsException(
          "-Dimages applies to single-turn requests: drop -Dturns (a conversation would send its"
              + " images again with each turn)");
    }
    if (images.ladder()
        && (load.ladder()
            || load.ramp().isPresent()
            || r.isSet(SearchSettings.SEARCH)
            || workload.dataset() == DatasetKind.TRACE)) {
      SettingsTable.Setting<?> stepped =
          images.counts().size() > 1 ? Images.IMAGES : Images.IMAGE_SIZE;
      throw SettingsException.invalid(
          stepped.name(),
          r.raw(stepped).get(),
          "one value with -Dladder, -Dramp, -Dsearch or a trace; several step over them at one"
              + " load (-Dconc or -Drate)");
    }
  }

  /** What trials cannot repeat yet: a trace, a search's probes, a load shared by injectors. */
  static void checkTrials(SettingReader r, LoadSettings load, WorkloadSettings workload) {
    if (load.trials() == 1) {
      return;
    }
    String why =
        workload.dataset() == DatasetKind.TRACE
            ? "a trace replay runs once (its times set the load)"
            : r.isSet(InjectorSettings.INJECTOR)
                ? "injectors that share a load keep one timeline (run the trials as runs)"
                : null; // a capacity search refuses them itself (RunModeSettings.KINDS)
    if (why != null) {
      throw SettingsException.invalid(
          LoadSettings.TRIALS.name(), r.raw(LoadSettings.TRIALS).orElse(""), "1 here: " + why);
    }
  }

  /**
   * What an embeddings run cannot do: it generates nothing, so there is no output length to ask
   * for, no answer to send back in a conversation, and no TTFT, TPOT or ITL to record or bound.
   */
  static void checkPooling(SettingReader r, Endpoint api, WorkloadSettings workload) {
    if (api.figures().generates()) {
      return;
    }
    String flag = "-Dapi=" + api.id();
    for (SettingsTable.Setting<?> s :
        List.of(WorkloadSettings.OUTPUT_LEN, WorkloadSettings.OUTPUT_STDEV)) {
      if (r.isSet(s)) {
        throw SettingsException.invalid(
            s.name(), r.raw(s).orElse(""), "nothing with " + flag + ": it generates no tokens");
      }
    }
    if (workload.multiTurn()) {
      throw SettingsException.invalid(
          WorkloadSettings.TURNS.name(),
          r.raw(WorkloadSettings.TURNS).orElse(""),
          "1 with " + flag + ": there is no answer to carry into the next turn");
    }
    GatlingRecords records = r.get(GatlingRecords.STATS_RECORDS);
    if (records != GatlingRecords.REQUEST) {
      throw SettingsException.invalid(
          GatlingRecords.STATS_RECORDS.name(),
          records.id(),
          "request with " + flag + ": an embedding has no TTFT, TPOT or ITL of its own");
    }
    Optional<String> slo = r.raw(SearchSettings.SLO);
    if (slo.isPresent() && POOLING_FREE_METRIC.matcher(slo.get()).find()) {
      throw SettingsException.invalid(
          SearchSettings.SLO.name(),
          slo.get(),
          "objectives on e2el or failed.pct with " + flag + ": it has no TTFT, TPOT or ITL");
    }
  }

  /** An objective on a figure a pooling request does not have. */
  private static final Pattern POOLING_FREE_METRIC =
      Pattern.compile("(^|[\\s,])(ttft|tpot|itl)\\b");

  /** Injectors that share a load: each needs its share of every level, prompt count and warmup. */
  static void injectorsShareTheLoad(
      InjectorSettings injector, LoadSettings load, WorkloadSettings workload) {
    if (!injector.sharded()) {
      return;
    }
    int count = injector.count();
    if (workload.dataset() == DatasetKind.TRACE) {
      throw new SettingsException(
          "-Dinjector does not apply to -Ddataset=trace:PATH: one injector replays a trace");
    }
    if (load.levels().size() > 1 && !load.prompts().isEmpty()) {
      throw new SettingsException(
          "A ladder shared by injectors stops its levels after -Dduration: the injectors keep one"
              + " timeline (-Dstart.at, then -Dduration + -Ddrain per level); drop -Dprompts");
    }
    if (load.ramp().filter(x -> x.kind() == Ramp.Kind.CONCURRENCY).isPresent()) {
      Ramp ramp = load.ramp().get();
      if (Math.min(ramp.from(), ramp.to()) < count || Math.abs(ramp.to() - ramp.from()) < count) {
        throw new SettingsException(
            "-Dramp.conc="
                + Level.plainNumber(ramp.from())
                + ":"
                + Level.plainNumber(ramp.to())
                + " shared by -Dinjector's "
                + count
                + " injectors: each needs at least one request in flight at both ends and a ramp"
                + " of its own (both ends and their difference at least "
                + count
                + ")");
      }
    } else if (!load.open()) {
      for (int c : load.levels()) {
        if (c < count) {
          throw new SettingsException(
              "Level "
                  + Level.closed(c).tag()
                  + " is smaller than -Dinjector's "
                  + count
                  + " injectors: each needs at least one request in flight (use at most "
                  + c
                  + " injectors, or a larger level)");
        }
      }
    }
    for (int p : load.prompts()) {
      if (p < count) {
        throw new SettingsException(
            "-Dprompts="
                + p
                + " is smaller than -Dinjector's "
                + count
                + " injectors: each needs at least one request");
      }
    }
    if (load.warmupPrompts() > 0 && (load.warmupPrompts() < count || load.warmupConc() < count)) {
      throw new SettingsException(
          "-Dwarmup.prompts and -Dwarmup.conc must be at least -Dinjector's "
              + count
              + " injectors: each sends its share of the warmup");
    }
    if (!workload.seedPinned()) {
      // each would draw its own seed, send its own prompts, and the records could not merge
      throw new SettingsException(
          "Invalid -Dinjector="
              + injector
              + " without -Dseed: injectors split one run's requests by its seed, so give every"
              + " injector the same one, e.g. -Dseed=42");
    }
  }
}
