package io.github.llmbench.capture;

/**
 * One inbound SSE event as Gatling hands it over: its arrival time (epoch ms, stamped on the event
 * loop after parsing) and Gatling's JSON rendering of the event ({@code {"data":...}}).
 */
public record TimedMessage(long arrivalMs, String message) {}
