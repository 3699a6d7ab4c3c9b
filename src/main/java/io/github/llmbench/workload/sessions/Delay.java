package io.github.llmbench.workload.sessions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Random;

/**
 * How long a session waits before a call (after its last dependency ended, or the session's start)
 * or for a tool's answer: the agent's own time or a tool's, fixed or drawn per call from the seed.
 * Written in a session file as a number of ms, or as {@code {"dist": ..., ...}}.
 */
public sealed interface Delay {

  /** No wait. */
  Delay NONE = new Fixed(0);

  /** One wait, in ms, drawn from {@code random}. */
  double drawMs(Random random);

  /** The mean wait, in ms (for plans and the console). */
  double meanMs();

  /** The same wait every time. */
  record Fixed(double ms) implements Delay {
    @Override
    public double drawMs(Random random) {
      return ms;
    }

    @Override
    public double meanMs() {
      return ms;
    }
  }

  /** Uniform between {@code minMs} and {@code maxMs}. */
  record Uniform(double minMs, double maxMs) implements Delay {
    @Override
    public double drawMs(Random random) {
      return minMs + (maxMs - minMs) * random.nextDouble();
    }

    @Override
    public double meanMs() {
      return (minMs + maxMs) / 2;
    }
  }

  /** Exponential with mean {@code meanMs}: a tool or a person answering at random times. */
  record Exponential(double meanMs) implements Delay {
    @Override
    public double drawMs(Random random) {
      return -meanMs * Math.log(1 - random.nextDouble());
    }
  }

  /**
   * Log-normal with median {@code medianMs} and log sd {@code sigma}: the long right tail of real
   * tool latencies.
   */
  record LogNormal(double medianMs, double sigma) implements Delay {
    @Override
    public double drawMs(Random random) {
      return medianMs * Math.exp(sigma * random.nextGaussian());
    }

    @Override
    public double meanMs() {
      return medianMs * Math.exp(sigma * sigma / 2);
    }
  }

  /** What a delay field accepts, for error messages. */
  String ACCEPTED =
      "ms as a number from 0, or {\"dist\":\"fixed\",\"ms\":N}, {\"dist\":\"uniform\",\"min\":N,"
          + "\"max\":N}, {\"dist\":\"exponential\",\"mean\":N} or {\"dist\":\"lognormal\","
          + "\"median\":N,\"sigma\":S}";

  /**
   * The delay a field holds.
   *
   * @param where the field's place, for the error ({@code sessions.jsonl line 3: call "plan":
   *     "delay_ms"})
   * @throws IllegalArgumentException naming {@code where}, the value and what is accepted
   */
  static Delay parse(JsonNode node, String where) {
    if (node == null || node.isNull()) {
      return NONE;
    }
    if (node.isNumber()) {
      return new Fixed(ms(node, where));
    }
    if (!node.isObject() || !node.path("dist").isTextual()) {
      throw invalid(where, node);
    }
    String dist = node.get("dist").asText().toLowerCase(Locale.ROOT);
    return switch (dist) {
      case "fixed" -> new Fixed(ms(node.get("ms"), where + ".ms"));
      case "uniform" -> {
        double min = ms(node.get("min"), where + ".min");
        double max = ms(node.get("max"), where + ".max");
        if (max < min) {
          throw invalid(where, node);
        }
        yield new Uniform(min, max);
      }
      case "exponential" -> new Exponential(ms(node.get("mean"), where + ".mean"));
      case "lognormal" -> {
        double median = ms(node.get("median"), where + ".median");
        double sigma = ms(node.get("sigma"), where + ".sigma");
        yield new LogNormal(median, sigma);
      }
      default -> throw invalid(where, node);
    };
  }

  private static double ms(JsonNode n, String where) {
    if (n == null || !n.isNumber() || !Double.isFinite(n.asDouble()) || n.asDouble() < 0) {
      throw invalid(where, n);
    }
    return n.asDouble();
  }

  private static IllegalArgumentException invalid(String where, JsonNode value) {
    return new IllegalArgumentException(
        where
            + " is "
            + (value == null ? "missing" : value.toString())
            + " (expected "
            + ACCEPTED
            + ")");
  }
}
