package io.github.llmbench.run;

/**
 * How a run goes, chosen once from the settings' mode ({@link RunModes#of}): one load in this JVM
 * ({@link LoadMode}: planned levels, a capacity search, an interleaved A/B run), or child runs led
 * from it ({@link SweepLeader}). Every decision that depends on the mode asks the mode.
 */
public sealed interface RunMode permits LoadMode, SweepLeader {}
