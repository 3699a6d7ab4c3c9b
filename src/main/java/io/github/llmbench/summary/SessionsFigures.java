package io.github.llmbench.summary;

import static io.github.llmbench.summary.LevelSummary.finite;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.llmbench.analysis.SessionFigures;
import io.github.llmbench.core.Statistic;
import java.util.List;

/**
 * A level's agent sessions in {@code summary.json} ({@code levels.<level>.sessions}): the task time
 * of the sessions that completed, the calls they took, where their time went, and TTFT and prompt
 * length by step.
 *
 * @param sessions sessions of the level
 * @param completed those whose every call completed
 * @param meanCalls calls sent per session
 * @param meanRequests requests per session (tool rounds are requests of their own)
 * @param serverShare the share of the sessions' time with a call at the server
 * @param toolShare the share awaiting a tool's answer, nothing at the server
 * @param agentShare the share in the agent's own waits
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionsFigures(
    int sessions,
    long completed,
    Double meanTaskMs,
    Double medianTaskMs,
    Double p90TaskMs,
    Double p99TaskMs,
    Double maxTaskMs,
    Double meanCalls,
    Double meanRequests,
    Double serverShare,
    Double toolShare,
    Double agentShare,
    List<Step> steps) {

  /** The requests of one step of the sessions. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Step(
      int step,
      int completed,
      int failed,
      Double meanInputTokens,
      Double meanTtftMs,
      Double p99TtftMs,
      Double prefixCacheHitRate) {}

  /** A level's session figures, null outside sessions. */
  static SessionsFigures of(SessionFigures s) {
    if (s.isEmpty()) {
      return null;
    }
    boolean any = s.taskMs().count() > 0;
    return new SessionsFigures(
        s.tasks().size(),
        s.completed(),
        any ? finite(s.taskMs().mean()) : null,
        any ? finite(s.taskMs().median()) : null,
        any ? finite(s.taskMs().value(Statistic.P90)) : null,
        any ? finite(s.taskMs().value(Statistic.P99)) : null,
        s.tasks().stream()
            .filter(SessionFigures.Task::completed)
            .mapToDouble(SessionFigures.Task::taskMs)
            .boxed()
            .max(Double::compare)
            .orElse(null),
        finite(s.meanCalls()),
        finite(s.meanRequests()),
        finite(s.serverShare()),
        finite(s.toolShare()),
        finite(s.agentShare()),
        s.steps().stream()
            .map(
                st ->
                    new Step(
                        st.step(),
                        st.completed(),
                        st.failed(),
                        finite(st.meanInputTokens()),
                        finite(st.ttftMeanMs()),
                        finite(st.ttftP99Ms()),
                        finite(st.cacheHitRate())))
            .toList());
  }
}
