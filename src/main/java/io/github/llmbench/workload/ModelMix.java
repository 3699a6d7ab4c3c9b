package io.github.llmbench.workload;

import io.github.llmbench.core.Seeds;
import java.util.List;

/**
 * Which model each request names when a run mixes several ({@code -Dmodel=a,b -Dmodel.weights=0.7,
 * 0.3}), as AIPerf, SGLang and inference-perf mix models or LoRA adapters: request {@code n} picks
 * by the seed and its number, so a rerun with the same seed sends each request to the same model,
 * and the shares come out as asked.
 *
 * @param weights each model's share, summing to 1
 */
public record ModelMix(List<String> models, List<Double> weights, long seed) {

  public ModelMix {
    models = List.copyOf(models);
    weights = List.copyOf(weights);
    if (models.size() != weights.size() || models.isEmpty()) {
      throw new IllegalArgumentException(models + " with shares " + weights);
    }
  }

  /** Whether requests name more than one model. */
  public boolean mixed() {
    return models.size() > 1;
  }

  /** The model request {@code n} (the run's request number) names. */
  public String pick(long n) {
    if (!mixed()) {
      return models.get(0);
    }
    // 53 random bits of the scrambled (seed, n): uniform in [0, 1)
    double u = (Seeds.mix(Seeds.mix(seed) + n) >>> 11) * 0x1.0p-53;
    double cumulative = 0;
    for (int i = 0; i < models.size() - 1; i++) {
      cumulative += weights.get(i);
      if (u < cumulative) {
        return models.get(i);
      }
    }
    return models.get(models.size() - 1);
  }
}
