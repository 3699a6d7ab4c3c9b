package io.github.llmbench.analysis;

import io.github.llmbench.records.CachedTokens;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * What an agent's user waits for, over a level's agent sessions: each session's task time (its
 * start, before any wait for its first call, to its last call's end; from its first call's send
 * where its records do not say its start), the calls and requests it took, and where its time went
 * (a call in flight at the server, a tool's answer awaited, or the agent's own wait); and TTFT and
 * prompt length by step (a call's depth in its session), the context growth. Pure, from the
 * requests' records alone; empty for records outside sessions.
 *
 * @param tasks each session, in order of its start
 * @param taskMs task time of the sessions whose every call completed
 * @param steps one row per step, in step order
 */
public record SessionFigures(List<Task> tasks, LatencyStats taskMs, List<Step> steps) {

  public static final SessionFigures NONE =
      new SessionFigures(List.of(), LatencyStats.EMPTY, List.of());

  /**
   * One session of the level.
   *
   * @param session its id in the records, e.g. {@code review#3}
   * @param startMs its start (epoch ms), else its first call's send
   * @param endMs its last call's end
   * @param calls its calls that were sent
   * @param requests its requests (a call's tool rounds are requests of their own)
   * @param completed whether every request of it completed
   * @param serverMs time with at least one of its calls in flight
   * @param toolMs time with none in flight and a tool's answer awaited
   */
  public record Task(
      String session,
      long startMs,
      long endMs,
      int calls,
      int requests,
      boolean completed,
      double serverMs,
      double toolMs) {

    public double taskMs() {
      return endMs - startMs;
    }

    /** The agent's own waits: the rest of the task. */
    public double agentMs() {
      return Math.max(0, taskMs() - serverMs - toolMs);
    }
  }

  /**
   * The requests of one step.
   *
   * @param step 1 for calls that wait for nothing
   * @param completed its completed requests
   * @param failed its failed requests
   * @param meanInputTokens the server's prompt tokens of the completed ones, NaN when unknown
   * @param cacheHitRate the share of their prompt tokens the server's prefix cache served, over
   *     those whose server said ({@code cached_tokens}), NaN when none said
   */
  public record Step(
      int step,
      int completed,
      int failed,
      double meanInputTokens,
      double ttftMeanMs,
      double ttftP99Ms,
      double cacheHitRate) {}

  public SessionFigures {
    tasks = List.copyOf(tasks);
    steps = List.copyOf(steps);
  }

  public boolean isEmpty() {
    return tasks.isEmpty();
  }

  /** Sessions whose every request completed. */
  public long completed() {
    return tasks.stream().filter(Task::completed).count();
  }

  public double meanCalls() {
    return tasks.stream().mapToInt(Task::calls).average().orElse(Double.NaN);
  }

  public double meanRequests() {
    return tasks.stream().mapToInt(Task::requests).average().orElse(Double.NaN);
  }

  /** The share of the sessions' summed task time spent with a call at the server. */
  public double serverShare() {
    return share(Task::serverMs);
  }

  /** The share spent awaiting tools' answers, nothing at the server. */
  public double toolShare() {
    return share(Task::toolMs);
  }

  /** The share spent in the agent's own waits. */
  public double agentShare() {
    return share(Task::agentMs);
  }

  private double share(ToDoubleFunction<Task> part) {
    double total = tasks.stream().mapToDouble(Task::taskMs).sum();
    return total > 0 ? tasks.stream().mapToDouble(part).sum() / total : Double.NaN;
  }

  /** Completed sessions whose task took at most {@code objectiveMs}. */
  public long withinTask(double objectiveMs) {
    return tasks.stream().filter(t -> t.completed() && t.taskMs() <= objectiveMs).count();
  }

  /** The figures of a level's records (those of sessions). */
  public static SessionFigures of(Collection<RequestRecord> records) {
    List<Task> tasks = tasks(records);
    if (tasks.isEmpty()) {
      return NONE;
    }
    List<Double> completedMs = new ArrayList<>();
    for (Task t : tasks) {
      if (t.completed()) {
        completedMs.add(t.taskMs());
      }
    }
    return new SessionFigures(tasks, LatencyStats.of(completedMs), steps(records));
  }

  /** Each session of the records, in order of its start. */
  public static List<Task> tasks(Collection<RequestRecord> records) {
    Map<String, List<RequestRecord>> bySession = new LinkedHashMap<>();
    for (RequestRecord r : records) {
      RequestOrigin.SessionPlace p = r.origin() == null ? null : r.origin().sessionPlace();
      if (p != null) {
        bySession.computeIfAbsent(p.session(), s -> new ArrayList<>()).add(r);
      }
    }
    List<Task> out = new ArrayList<>();
    bySession.forEach((session, rs) -> out.add(task(session, rs)));
    out.sort(Comparator.comparingLong(Task::startMs));
    return out;
  }

  private static Task task(String session, List<RequestRecord> rs) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    boolean completed = true;
    Set<String> calls = new HashSet<>();
    List<long[]> atServer = new ArrayList<>();
    Map<String, TreeMap<Integer, RequestRecord>> rounds = new LinkedHashMap<>();
    for (RequestRecord r : rs) {
      RequestOrigin.SessionPlace p = r.origin().sessionPlace();
      start = Math.min(start, r.startMs());
      if (p.sessionStartMs() != RequestRecord.ABSENT) {
        start = Math.min(start, p.sessionStartMs());
      }
      end = Math.max(end, r.endMs());
      completed &= r.ok();
      calls.add(p.call());
      atServer.add(new long[] {r.startMs(), r.endMs()});
      rounds.computeIfAbsent(p.call(), c -> new TreeMap<>()).put(p.round(), r);
    }
    List<long[]> atTools = new ArrayList<>();
    for (TreeMap<Integer, RequestRecord> call : rounds.values()) {
      RequestRecord before = null;
      for (RequestRecord r : call.values()) {
        if (before != null && r.startMs() > before.endMs()) {
          atTools.add(new long[] {before.endMs(), r.startMs()});
        }
        before = r;
      }
    }
    long[] serverAndTool = covered(atServer, atTools);
    return new Task(
        session,
        start,
        end,
        calls.size(),
        rs.size(),
        completed,
        serverAndTool[0],
        serverAndTool[1]);
  }

  /**
   * The time covered by {@code first}'s intervals, and the time covered by {@code second}'s but
   * none of {@code first}'s.
   */
  static long[] covered(List<long[]> first, List<long[]> second) {
    long[] bounds =
        Stream.concat(first.stream(), second.stream())
            .flatMapToLong(i -> Arrays.stream(i))
            .sorted()
            .distinct()
            .toArray();
    long a = 0;
    long b = 0;
    for (int i = 1; i < bounds.length; i++) {
      long from = bounds[i - 1];
      long to = bounds[i];
      if (inAny(first, from, to)) {
        a += to - from;
      } else if (inAny(second, from, to)) {
        b += to - from;
      }
    }
    return new long[] {a, b};
  }

  private static boolean inAny(List<long[]> intervals, long from, long to) {
    for (long[] i : intervals) {
      if (i[0] <= from && to <= i[1]) {
        return true;
      }
    }
    return false;
  }

  private static List<Step> steps(Collection<RequestRecord> records) {
    TreeMap<Integer, List<RequestRecord>> byStep = new TreeMap<>();
    for (RequestRecord r : records) {
      RequestOrigin.SessionPlace p = r.origin() == null ? null : r.origin().sessionPlace();
      if (p != null) {
        byStep.computeIfAbsent(p.step(), s -> new ArrayList<>()).add(r);
      }
    }
    List<Step> out = new ArrayList<>();
    byStep.forEach(
        (step, rs) -> {
          List<Double> ttft = new ArrayList<>();
          long inputSum = 0;
          int inputCount = 0;
          long cachedSum = 0;
          long cachedOf = 0;
          for (RequestRecord r : rs) {
            if (r.ok() && r.ttftMs() != null) {
              ttft.add(r.ttftMs());
              if (r.inputTokens() != null) {
                inputSum += r.inputTokens();
                inputCount++;
                Integer cached = CachedTokens.of(r);
                if (cached != null) {
                  cachedSum += cached;
                  cachedOf += r.inputTokens();
                }
              }
            }
          }
          out.add(
              new Step(
                  step,
                  ttft.size(),
                  rs.size() - ttft.size(),
                  inputCount == 0 ? Double.NaN : (double) inputSum / inputCount,
                  ttft.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
                  ttft.isEmpty() ? Double.NaN : Percentiles.percentile(ttft, 99),
                  cachedOf == 0 ? Double.NaN : (double) cachedSum / cachedOf));
        });
    return out;
  }
}
