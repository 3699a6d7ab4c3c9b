package io.github.llmbench.run;

import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.catalog.GpuSpec;
import io.github.llmbench.catalog.HfConfig;
import io.github.llmbench.catalog.ModelSpec;
import io.github.llmbench.injection.Target;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.SettingsException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The model and GPU the roofline compares the run with; either is null when none is known (the
 * roofline is then skipped, and says how).
 */
record RooflineInputs(ModelSpec model, GpuSpec gpu) {

  static RooflineInputs of(BenchSettings settings, Target target) {
    return new RooflineInputs(model(settings, target), gpu(settings, target));
  }

  /**
   * {@code -Dmodel.spec} (a catalog id or a Hugging Face {@code config.json}), else the simulator's
   * model, else the catalog entry whose Hugging Face id is the served model's name.
   */
  private static ModelSpec model(BenchSettings settings, Target target) {
    Optional<String> spec = settings.report().roofline().modelSpec();
    if (spec.isPresent()) {
      if (Catalog.models().containsKey(spec.get())) {
        return Catalog.model(spec.get());
      }
      try {
        return HfConfig.read(Path.of(spec.get()));
      } catch (RuntimeException e) {
        throw new SettingsException(
            "Invalid -Dmodel.spec="
                + spec.get()
                + ": expected a catalog id ("
                + String.join(", ", Catalog.models().keySet())
                + ") or a Hugging Face config.json ("
                + e.getMessage()
                + ")");
      }
    }
    if (target.embedded()) {
      return Catalog.models().containsKey(settings.simulator().model())
          ? Catalog.model(settings.simulator().model())
          : HfConfig.read(Path.of(settings.simulator().model()));
    }
    return Catalog.models().values().stream()
        .filter(m -> m.hfId().equalsIgnoreCase(target.model()))
        .findFirst()
        .orElse(null);
  }

  /** {@code -Droofline.gpu}, else the simulator's GPU. */
  private static GpuSpec gpu(BenchSettings settings, Target target) {
    if (settings.report().roofline().gpu().isPresent()) {
      return Catalog.gpu(settings.report().roofline().gpu().get());
    }
    return target.embedded() ? Catalog.gpu(settings.simulator().gpu()) : null;
  }
}
