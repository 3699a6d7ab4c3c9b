package io.github.llmbench.gates;

import io.github.llmbench.records.RequestRecord;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * vLLM's goodput objectives ({@code --goodput ttft:500 tpot:50 e2el:2000}, in ms): a completed
 * request is good when each listed metric is at or below its objective; goodput = good requests
 * per second of the benchmark's duration.
 */
public record GoodputSpec(Map<String, Double> objectivesMs) {

  public GoodputSpec {
    objectivesMs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(objectivesMs)); // in order, for toString
  }

  static GoodputSpec parse(String value, String name) {
    Map<String, Double> objectives = new LinkedHashMap<>();
    String accepted = "objectives like ttft:500 tpot:50 e2el:2000 (ms), separated by spaces";
    for (String part : value.trim().split("\\s+")) {
      String[] kv = part.split(":", 2);
      if (kv.length != 2 || !(kv[0].equals("ttft") || kv[0].equals("tpot") || kv[0].equals("e2el"))) {
        throw new IllegalArgumentException("Invalid gate " + name + "=" + value + ": expected " + accepted);
      }
      try {
        double ms = Double.parseDouble(kv[1]);
        if (ms <= 0 || !Double.isFinite(ms)) {
          throw new NumberFormatException();
        }
        objectives.put(kv[0], ms);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Invalid gate " + name + "=" + value + ": expected " + accepted);
      }
    }
    return new GoodputSpec(objectives);
  }

  /**
   * Per-request objectives from service-level objectives over a load ({@code ttft.p99 -> 2000}):
   * for each of TTFT, TPOT and E2EL, the limit of its highest statistic named (P99, then P90,
   * median, mean); an objective on P99 TTFT of 2000 ms asks each request for 2000 ms. ITL and
   * failures have no per-request objective here, as in vLLM's {@code --goodput}.
   */
  public static GoodputSpec perRequest(Map<String, Double> slo) {
    Map<String, Double> objectives = new LinkedHashMap<>();
    for (String metric : java.util.List.of("ttft", "tpot", "e2el")) {
      for (String stat : java.util.List.of("p99", "p90", "median", "mean")) {
        Double limit = slo.get(metric + "." + stat);
        if (limit != null) {
          objectives.put(metric, limit);
          break;
        }
      }
    }
    return new GoodputSpec(objectives);
  }

  /** Whether a request meets every objective (failed requests never do). */
  public boolean good(RequestRecord r) {
    if (!r.ok()) {
      return false;
    }
    for (Map.Entry<String, Double> o : objectivesMs.entrySet()) {
      Double v =
          switch (o.getKey()) {
            case "ttft" -> r.ttftMs();
            case "tpot" -> r.tpotMs();
            default -> r.e2elMs();
          };
      // a 1-token output has no TPOT: vLLM counts it as meeting a TPOT objective
      if (v != null && v > o.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Good requests among {@code records}. */
  public long goodCount(Collection<RequestRecord> records) {
    return records.stream().filter(this::good).count();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    objectivesMs.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append(':')
        .append(v == Math.rint(v) ? String.valueOf(v.longValue()) : String.valueOf(v)));
    return sb.length() == 0 ? "completion (no latency objective)" : sb.toString();
  }
}
