package io.github.llmbench.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * A sweep's {@code summary.json}, written after each combination (so a sweep stopped halfway is
 * continued from it, {@code -Dsweep.resume}) and read here only: {@code {"sweep": {...}}} with the
 * axes, each combination ({@code points}) with its settings, its run's folder, its levels' figures
 * and whether each is on the Pareto frontier and meets the objectives, and the best level under
 * them.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SweepSummary(Sweep sweep) {

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The file's name in the sweep's folder. */
  public static final String FILE = "summary.json";

  /**
   * The sweep.
   *
   * @param command the server command ({@code -Dserve.cmd}, secrets left out), null without one
   * @param combine {@code grid} or {@code zip}
   * @param serverAxes the server's parameters swept ({@code -Dserve.params})
   * @param workloadAxes the workload's settings swept ({@code -Dsweep})
   * @param slo the objectives the best level meets ({@code -Dslo}), by figure
   * @param gpus the GPUs behind each server ({@code -Dgpus}): a number, or the server's parameter
   *     that gives it
   * @param points each combination, in the sweep's order
   * @param frontier the names ({@code combination level}) of the frontier's points, by
   *     interactivity
   * @param best the best level under the objectives, null when none meets them
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Sweep(
      String command,
      String combine,
      Map<String, List<String>> serverAxes,
      Map<String, List<String>> workloadAxes,
      Map<String, Double> slo,
      String gpus,
      List<Point> points,
      List<String> frontier,
      Best best) {}

  /** A combination's outcome. */
  public enum Status {
    /** its run ended with a summary (its gates may still have failed: see the exit code) */
    done,
    /** its server did not start, was not ready in time or exited before its run */
    server_failed,
    /** its run ended without a summary */
    run_failed,
    /** not run yet (a sweep stopped before it) */
    pending
  }

  /**
   * One combination.
   *
   * @param name its settings, e.g. {@code max_num_seqs=64,input.len=128}
   * @param server the server's parameters of it
   * @param workload the workload's settings of it
   * @param error why it failed, null when it did not
   * @param logTail the last lines of its server's log when the server failed
   * @param serverLog its server's log, relative to the sweep's folder
   * @param run its run's folder, relative to the sweep's folder
   * @param exitCode its run's exit status
   * @param levels its measured levels' figures, by level tag
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Point(
      int index,
      String name,
      Map<String, String> server,
      Map<String, String> workload,
      Status status,
      String error,
      List<String> logTail,
      String serverLog,
      String run,
      Integer exitCode,
      Map<String, PointLevel> levels) {

    /** This combination at place {@code i} of a sweep, without figures (they are redone). */
    public Point withIndex(int i) {
      return new Point(
          i, name, server, workload, status, error, logTail, serverLog, run, exitCode, null);
    }

    /** This combination with these levels' figures (none when empty). */
    public Point withLevels(Map<String, PointLevel> l) {
      return new Point(
          index,
          name,
          server,
          workload,
          status,
          error,
          logTail,
          serverLog,
          run,
          exitCode,
          l.isEmpty() ? null : l);
    }

    /** This combination with why it went wrong and its server's last lines. */
    public Point withError(String why, List<String> tail) {
      return new Point(
          index, name, server, workload, status, why, tail, serverLog, run, exitCode, levels);
    }
  }

  /**
   * One level of a combination.
   *
   * @param outputThroughputPerGpu output throughput over the GPUs behind its server
   * @param interactivity output tokens per second per user (1000 / mean TPOT)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PointLevel(
      int completed,
      int failed,
      double outputThroughput,
      double outputThroughputPerGpu,
      Double interactivity,
      Double meanTtftMs,
      Double p99TtftMs,
      Double meanTpotMs,
      Double p99TpotMs,
      Double meanE2elMs,
      boolean onFrontier,
      boolean meetsSlo) {}

  /** The best level under the objectives. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Best(String point, String level, double outputThroughput) {}

  /** Writes it to {@code file}, replacing the one there at once (a reader never sees half). */
  public void write(Path file) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, MAPPER.writeValueAsString(this) + "\n");
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The sweep summary in {@code file}.
   *
   * @throws IllegalArgumentException when it is not one
   */
  public static SweepSummary read(Path file) {
    try {
      SweepSummary s = MAPPER.readValue(file.toFile(), SweepSummary.class);
      if (s.sweep() == null || s.sweep().points() == null) {
        throw new IllegalArgumentException(file + " is not a sweep's summary (no sweep.points)");
      }
      return s;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The summary as JSON, for the page. */
  public String toJson() {
    try {
      return MAPPER.writeValueAsString(this);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The command as files and the console show it: the API key, any secret-looking option's value
   * ({@code --api-key X}) and a URL's user masked.
   */
  public static String withoutSecrets(String command, java.util.Optional<String> apiKey) {
    return apiKey
        .map(k -> command.replace(k, "***"))
        .orElse(command)
        .replaceAll(
            "(?i)(--?[a-z-]*(api[_-]?key|token|secret|password)[a-z-]*)([ =])('[^']*'|\\S+)",
            "$1$3***")
        .replaceAll("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]*@", "$1");
  }
}
