package io.github.llmbench.simulator;

import io.github.llmbench.catalog.GpuPower;
import java.util.Locale;

/**
 * The simulator's stand-in for NVIDIA's DCGM exporter: each GPU's power draw and the energy it has
 * used, from the cost model's steps. A step draws {@code idle + (limit - idle) x busy share x
 * intensity} ({@link CostModel.Step#intensity()}: memory-bound decode draws less than a
 * compute-bound prefill), the time between steps the idle draw. Served under DCGM's names ({@code
 * DCGM_FI_DEV_POWER_USAGE} in W, {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} in mJ) with a {@code
 * simulated="true"} label, so reports say where the figures come from. The engine thread writes,
 * any thread reads.
 */
final class SimPower {

  /**
   * How quickly the power reading follows the steps, as a meter that averages over a quarter
   * second.
   */
  private static final double READING_SECONDS = 0.25;

  private final GpuPower gpu;
  private final int gpus;
  private final String gpuName;
  private double joulesPerGpu; // up to lastNanos
  private long lastNanos;
  private double readingWatts;

  /** An H100's draw, for engines built without a GPU (tests). */
  static SimPower standIn() {
    return new SimPower(new GpuPower(70, 700), 1, "simulated GPU", System.nanoTime());
  }

  SimPower(GpuPower gpu, int gpus, String gpuName, long nowNanos) {
    this.gpu = gpu;
    this.gpus = gpus;
    this.gpuName = gpuName;
    this.lastNanos = nowNanos;
    this.readingWatts = gpu.idleWatts();
  }

  /** A step ran from {@code startNanos} to {@code endNanos}, its kernels busy that many seconds. */
  synchronized void step(long startNanos, long endNanos, double busySeconds, double intensity) {
    idleUntil(startNanos);
    double seconds = (endNanos - Math.max(startNanos, lastNanos)) / 1e9;
    if (seconds <= 0) {
      return;
    }
    double busyShare = Math.min(1, busySeconds / ((endNanos - startNanos) / 1e9));
    double watts = gpu.idleWatts() + (gpu.boardWatts() - gpu.idleWatts()) * busyShare * intensity;
    advance(seconds, watts);
    lastNanos = endNanos;
  }

  private void idleUntil(long nanos) {
    if (nanos > lastNanos) {
      advance((nanos - lastNanos) / 1e9, gpu.idleWatts());
      lastNanos = nanos;
    }
  }

  private void advance(double seconds, double watts) {
    joulesPerGpu += seconds * watts;
    readingWatts += (watts - readingWatts) * (1 - Math.exp(-seconds / READING_SECONDS));
  }

  /** Each GPU's energy since the simulator started, in joules, as of {@code nowNanos}. */
  synchronized double joulesPerGpu(long nowNanos) {
    idleUntil(nowNanos);
    return joulesPerGpu;
  }

  /** Each GPU's power reading now, in W. */
  synchronized double watts(long nowNanos) {
    idleUntil(nowNanos);
    return readingWatts;
  }

  /** DCGM's lines, one per GPU, as of {@code nowNanos}. */
  String render(long nowNanos) {
    double joules = joulesPerGpu(nowNanos);
    double watts = watts(nowNanos);
    StringBuilder sb = new StringBuilder(1024);
    sb.append("# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n")
        .append("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n");
    for (int i = 0; i < gpus; i++) {
      sb.append("DCGM_FI_DEV_POWER_USAGE").append(labels(i)).append(' ');
      sb.append(String.format(Locale.ROOT, "%.3f", watts)).append('\n');
    }
    sb.append("# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot")
        .append(" (in mJ).\n")
        .append("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n");
    for (int i = 0; i < gpus; i++) {
      sb.append("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").append(labels(i)).append(' ');
      sb.append(Math.round(joules * 1000)).append('\n');
    }
    return sb.toString();
  }

  private String labels(int gpuIndex) {
    return "{gpu=\""
        + gpuIndex
        + "\",UUID=\"GPU-simulated-"
        + gpuIndex
        + "\",device=\"nvidia"
        + gpuIndex
        + "\",modelName=\""
        + gpuName.replace("\"", "'")
        + "\",Hostname=\"vllm-simulator\",simulated=\"true\"}";
  }
}
