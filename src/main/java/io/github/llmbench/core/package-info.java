/**
 * The terms every layer shares, from the settings to the report: a {@link
 * io.github.llmbench.core.Level} of load, a latency {@link io.github.llmbench.core.Metric} and its
 * {@link io.github.llmbench.core.Statistic}, and what a service-level objective may bound ({@link
 * io.github.llmbench.core.SloFigure}). This package depends on nothing else in the kit.
 */
package io.github.llmbench.core;
