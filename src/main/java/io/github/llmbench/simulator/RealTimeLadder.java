package io.github.llmbench.simulator;

public final class RealTimeLadder implements AutoCloseable {
  RealTimeLadder(SimulatorConfig c) {}
  EngineModel.Level level(int c, int p, int in, int out) { throw new UnsupportedOperationException(); }
  String lastCpu() { return ""; }
  @Override public void close() {}
}
