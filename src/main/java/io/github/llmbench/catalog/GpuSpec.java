package io.github.llmbench.catalog;

/**
 * One accelerator, with the figures a roofline model needs.
 *
 * @param id                  catalog id, e.g. {@code rtx4090}
 * @param name                marketing name
 * @param peakDenseBf16Flops  dense (no sparsity) fp16/bf16 tensor-core peak, FLOP/s
 * @param memoryBandwidth     DRAM bandwidth, bytes/s
 * @param memoryBytes         DRAM capacity, bytes
 * @param interconnect        free-text note on the GPU-to-GPU link (matters for tensor parallelism)
 */
public record GpuSpec(
    String id,
    String name,
    double peakDenseBf16Flops,
    double memoryBandwidth,
    long memoryBytes,
    String interconnect) {}
