package io.github.llmbench.summary;

/**
 * A run mode's own figures in the run's summary: a capacity search's answer ({@link
 * CapacityFigures}) or an interleaved A/B run's pairs ({@link AbFigures}); planned levels have
 * none. Each keeps its own field of {@code summary.json}, as before there was this type.
 */
public sealed interface ModeFigures permits CapacityFigures, AbFigures {}
