package io.github.llmbench.records;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One finished request, as written to {@code llm/requests.jsonl}: the only input of the analysis.
 *
 * <p>Times are epoch milliseconds ({@code startMs}, {@code endMs}) or durations in milliseconds.
 * Latency fields are null for a failed request: failures never enter latency statistics.
 *
 * @param id request id, unique within the run
 * @param level the load level the request belongs to, e.g. {@code c128}
 * @param startMs t0: just before the request was sent
 * @param endMs when the request ended (last chunk, failure or timeout); used for concurrency
 * @param ttftMs time to first chunk carrying generated text
 * @param tpotMs (e2el - ttft) / (output tokens - 1); null when output tokens <= 1
 * @param e2elMs arrival of the last chunk carrying text - t0
 * @param itlMs gaps between consecutive chunks carrying text (per chunk, not per token)
 * @param inputTokens {@code usage.prompt_tokens}, null when the server sent no usage
 * @param outputTokens {@code usage.completion_tokens}, or the text-chunk count when estimated
 * @param outputTokensEstimated true when outputTokens is a chunk count (no usage chunk)
 * @param ok true when the request completed: status 200, [DONE] received, no error event
 * @param error short reason of a failure, null when ok
 * @param httpStatus the HTTP status when known, else null
 * @param profile the workload profile (SS, SL, LS, LL) of a profile run, else null
 * @param serverTimings the server's own timings of the request (llama.cpp's {@code timings}),
 *     null (and left out of the line) when the server sent none, as vLLM
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
public record RequestRecord(
    @JsonProperty("id") String id,
    @JsonProperty("level") String level,
    @JsonProperty("start_ms") long startMs,
    @JsonProperty("end_ms") long endMs,
    @JsonProperty("ttft_ms") Double ttftMs,
    @JsonProperty("tpot_ms") Double tpotMs,
    @JsonProperty("e2el_ms") Double e2elMs,
    @JsonProperty("itl_ms") List<Double> itlMs,
    @JsonProperty("input_tokens") Integer inputTokens,
    @JsonProperty("output_tokens") Integer outputTokens,
    @JsonProperty("output_tokens_estimated") boolean outputTokensEstimated,
    @JsonProperty("ok") boolean ok,
    @JsonProperty("error") String error,
    @JsonProperty("http_status") Integer httpStatus,
    @JsonProperty("profile") String profile,
    @JsonProperty("server_timings") @JsonInclude(JsonInclude.Include.NON_NULL) ServerTimings serverTimings) {

  public RequestRecord {
    itlMs = itlMs == null ? List.of() : List.copyOf(itlMs);
  }

  /** A record outside profile runs. */
  public RequestRecord(
      String id, String level, long startMs, long endMs, Double ttftMs, Double tpotMs, Double e2elMs,
      List<Double> itlMs, Integer inputTokens, Integer outputTokens, boolean outputTokensEstimated,
      boolean ok, String error, Integer httpStatus) {
    this(id, level, startMs, endMs, ttftMs, tpotMs, e2elMs, itlMs, inputTokens, outputTokens,
        outputTokensEstimated, ok, error, httpStatus, null, null);
  }

  /** A record without server timings. */
  public RequestRecord(
      String id, String level, long startMs, long endMs, Double ttftMs, Double tpotMs, Double e2elMs,
      List<Double> itlMs, Integer inputTokens, Integer outputTokens, boolean outputTokensEstimated,
      boolean ok, String error, Integer httpStatus, String profile) {
    this(id, level, startMs, endMs, ttftMs, tpotMs, e2elMs, itlMs, inputTokens, outputTokens,
        outputTokensEstimated, ok, error, httpStatus, profile, null);
  }

  /** A request that failed before or during its stream: no latency figures. */
  public static RequestRecord failed(
      String id, String level, String profile, long startMs, long endMs, String error, Integer httpStatus,
      Integer promptTokens) {
    return new RequestRecord(id, level, startMs, Math.max(endMs, startMs), null, null, null, List.of(),
        promptTokens, null, false, false, error, httpStatus, profile, null);
  }

  /** This record tagged with a profile. */
  public RequestRecord withProfile(String newProfile) {
    return new RequestRecord(id, level, startMs, endMs, ttftMs, tpotMs, e2elMs, itlMs, inputTokens,
        outputTokens, outputTokensEstimated, ok, error, httpStatus, newProfile, serverTimings);
  }
}
