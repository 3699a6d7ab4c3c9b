package io.github.llmbench.summary;

/** A level's goodput: requests/s meeting the objectives and their share in percent. */
public record LevelGoodput(double perSecond, double pct) {}
