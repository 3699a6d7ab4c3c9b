package io.github.llmbench.summary;

/** A failure reason and how many requests it ended. */
public record FailureCount(String error, int count) {}
