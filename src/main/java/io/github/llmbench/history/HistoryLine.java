package io.github.llmbench.history;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.summary.Summary;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run in {@code history.jsonl}: what it was (its folder's name, when it ended, its key) and,
 * per measured level, each figure's per-trial values ({@link HistoryFigures}). The server's base
 * URL is kept for people (without user info, as in {@code summary.json}); it is not in the key.
 *
 * @param version the line's format ({@link #VERSION}); a reader reads newer lines as far as it
 *     knows their fields
 * @param run the run folder's name
 * @param time when the run ended, ISO-8601 in UTC
 * @param key the key's id
 * @param keyFields the key's fields
 * @param levels per level, per figure, the trials' values (null where a trial lacks the figure)
 * @param gatesFailed whether the run failed a gate (a regression, or a broken run): its trials are
 *     kept out of the noise later runs learn ({@link HistoryNoise}); null in lines written before
 *     the field, read as passed
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HistoryLine(
    int version,
    String run,
    String time,
    String key,
    Map<String, String> keyFields,
    String baseUrl,
    Map<String, Map<String, List<Double>>> levels,
    Boolean gatesFailed) {

  /** The format this kit writes. */
  public static final int VERSION = 1;

  public HistoryLine {
    keyFields = keyFields == null ? Map.of() : Collections.unmodifiableMap(keyFields);
    levels = levels == null ? Map.of() : Collections.unmodifiableMap(levels);
  }

  /** The line of a run that ended at {@code end}, from its summary, its key from the summary. */
  public static HistoryLine of(String run, Instant end, Summary s) {
    return of(run, end, HistoryKey.of(s), s);
  }

  /** The line of a run that ended at {@code end}, under its key, its figures from its summary. */
  public static HistoryLine of(String run, Instant end, HistoryKey key, Summary s) {
    Map<String, Map<String, List<Double>>> levels = new LinkedHashMap<>();
    s.measuredLevels().forEach((name, l) -> levels.put(name, HistoryFigures.of(l)));
    return new HistoryLine(
        VERSION, run, end.toString(), key.id(), key.fields(), s.run().baseUrl(), levels, null);
  }

  /** This line with its run's gates' outcome, once they are judged. */
  public HistoryLine withGatesFailed(boolean failed) {
    return new HistoryLine(version, run, time, key, keyFields, baseUrl, levels, failed);
  }

  /** Whether the run failed a gate; a line without the field passed. */
  @JsonIgnore
  public boolean failedGates() {
    return Boolean.TRUE.equals(gatesFailed);
  }

  /** The key again. */
  @JsonIgnore
  public HistoryKey historyKey() {
    return new HistoryKey(key, keyFields);
  }

  /** A figure's trials at a level: empty when the level or figure is missing. */
  public List<Double> trials(String level, String figure) {
    Map<String, List<Double>> l = levels.get(level);
    List<Double> v = l == null ? null : l.get(figure);
    return v == null ? List.of() : v;
  }

  /** A figure's value at a level: the mean of its trials' values, NaN when it has none. */
  public double value(String level, String figure) {
    double sum = 0;
    int n = 0;
    for (Double v : trials(level, figure)) {
      if (v != null && Double.isFinite(v)) {
        sum += v;
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }
}
