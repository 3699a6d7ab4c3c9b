package io.github.llmbench.catalog;

/**
 * One accelerator, with the figures a roofline model needs.
 *
 * @param id catalog id, e.g. {@code rtx4090}
 * @param name marketing name
 * @param peakDenseBf16Flops dense (no sparsity) fp16/bf16 tensor-core peak, FLOP/s
 * @param memoryBandwidth DRAM bandwidth, bytes/s
 * @param memoryBytes DRAM capacity, bytes
 * @param interconnect free-text note on the GPU-to-GPU link (matters for tensor parallelism)
 * @param linkBandwidth bytes/s one GPU achieves in a tensor-parallel all-reduce over that link
 *     (NCCL bus bandwidth, not the link's nominal figure)
 * @param linkLatencySeconds fixed cost of one small all-reduce over that link (launch + handshake)
 */
public record GpuSpec(
    String id,
    String name,
    double peakDenseBf16Flops,
    double memoryBandwidth,
    long memoryBytes,
    String interconnect,
    double linkBandwidth,
    double linkLatencySeconds) {

  /**
   * A GPU on PCIe 4.0 x16 without peer-to-peer (GeForce cards): all-reduce through host memory. See
   * {@link Catalog} for where the link figures come from.
   */
  public GpuSpec(
      String id,
      String name,
      double peakDenseBf16Flops,
      double memoryBandwidth,
      long memoryBytes,
      String interconnect) {
    this(
        id,
        name,
        peakDenseBf16Flops,
        memoryBandwidth,
        memoryBytes,
        interconnect,
        Catalog.PCIE4_ALLREDUCE_BANDWIDTH,
        Catalog.PCIE4_ALLREDUCE_LATENCY);
  }
}
