package io.github.llmbench.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Faults injected on demand ({@code -Dsim.faults=...}, {@code --faults}), so that a load
 * generator's failure handling can be tested without an external server. A comma-separated list of
 * {@code mode:share} (share of requests, 0-1; the shares add up to at most 1; each request draws at
 * most one fault):
 *
 * <ul>
 *   <li>{@code 429:0.1} answered {@code 429 Too Many Requests} (vLLM's error JSON), not served
 *   <li>{@code 500:0.1} answered {@code 500 Internal Server Error}, not served
 *   <li>{@code error:0.1} an {@code data: {"error":{...}}} event mid-stream (after half the
 *       output), then {@code data: [DONE]}, as vLLM does when generation fails
 *   <li>{@code cut:0.1} the connection closed mid-stream, without the terminating chunk
 *   <li>{@code stall:0.1:30} no chunk for 30 s mid-stream (seconds default 10), then the rest
 * </ul>
 *
 * e.g. {@code 429:0.05,cut:0.02,stall:0.01:30}; {@code none} or empty: no faults.
 */
public record SimFaults(List<Fault> faults) {

  public enum Mode {
    HTTP_429,
    HTTP_500,
    ERROR_EVENT,
    CUT,
    STALL
  }

  public record Fault(Mode mode, double share, double stallSeconds) {}

  public static final SimFaults NONE = new SimFaults(List.of());

  public static final String ACCEPTED =
      "a comma-separated list of mode:share with mode 429, 500, error, cut or stall (stall:share:seconds),"
          + " shares from 0 to 1 adding up to at most 1, e.g. 429:0.05,cut:0.02,stall:0.01:30; or none";

  /** Parses the spec; IllegalArgumentException (naming what is accepted) on a bad one. */
  public static SimFaults parse(String spec) {
    if (spec == null || spec.isBlank() || spec.trim().equalsIgnoreCase("none")) {
      return NONE;
    }
    List<Fault> out = new ArrayList<>();
    double total = 0;
    for (String part : spec.split(",")) {
      String[] f = part.trim().split(":");
      if (f.length < 2 || f.length > 3 || (f.length == 3 && !f[0].equalsIgnoreCase("stall"))) {
        throw new IllegalArgumentException("bad fault '" + part.trim() + "'");
      }
      Mode m =
          switch (f[0].trim().toLowerCase(Locale.ROOT)) {
            case "429" -> Mode.HTTP_429;
            case "500" -> Mode.HTTP_500;
            case "error" -> Mode.ERROR_EVENT;
            case "cut" -> Mode.CUT;
            case "stall" -> Mode.STALL;
            default ->
                throw new IllegalArgumentException("unknown fault mode '" + f[0].trim() + "'");
          };
      double share;
      double stall = 10;
      try {
        share = Double.parseDouble(f[1].trim());
        if (f.length == 3) {
          stall = Double.parseDouble(f[2].trim());
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad number in fault '" + part.trim() + "'");
      }
      if (!(share >= 0 && share <= 1) || !(stall > 0 && stall <= 3600)) {
        throw new IllegalArgumentException("out of range in fault '" + part.trim() + "'");
      }
      total += share;
      out.add(new Fault(m, share, stall));
    }
    if (total > 1 + 1e-9) {
      throw new IllegalArgumentException("fault shares add up to " + total + ", more than 1");
    }
    return new SimFaults(List.copyOf(out));
  }

  public boolean any() {
    return !faults.isEmpty();
  }

  /** The fault for one request, drawn at random by the shares; null for none. */
  Fault draw() {
    if (faults.isEmpty()) {
      return null;
    }
    double u = ThreadLocalRandom.current().nextDouble();
    double acc = 0;
    for (Fault f : faults) {
      acc += f.share();
      if (u < acc) {
        return f;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    if (faults.isEmpty()) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    for (Fault f : faults) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(
              switch (f.mode()) {
                case HTTP_429 -> "429";
                case HTTP_500 -> "500";
                case ERROR_EVENT -> "error";
                case CUT -> "cut";
                case STALL -> "stall";
              })
          .append(':')
          .append(f.share());
      if (f.mode() == Mode.STALL) {
        sb.append(':').append(f.stallSeconds());
      }
    }
    return sb.toString();
  }
}
