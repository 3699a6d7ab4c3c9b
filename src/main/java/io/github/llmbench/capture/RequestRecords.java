package io.github.llmbench.capture;

import io.github.llmbench.records.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one request's parsed stream into its {@link RequestRecord}: the per-request metric
 * formulas, as vLLM's serving benchmark defines them except where noted in the README.
 *
 * <ul>
 *   <li>TTFT = first chunk carrying text - t0 (vLLM starts at the first chunk with choices, which
 *       for chat is the empty role chunk);
 *   <li>ITL = gaps between consecutive chunks carrying text (per chunk, not per token);
 *   <li>E2EL = last chunk carrying text - t0;
 *   <li>output tokens = {@code usage.completion_tokens}, else the number of text chunks (flagged
 *       as estimated);
 *   <li>TPOT = (E2EL - TTFT) / (output tokens - 1), only when output tokens > 1.
 * </ul>
 */
public final class RequestRecords {

  private RequestRecords() {}

  /**
   * @param failure why Gatling failed the request (HTTP status, timeout, cut stream), or null
   * @param httpStatus the status when known
   */
  public static RequestRecord of(
      String id,
      String level,
      long t0,
      long endMs,
      ParsedStream stream,
      String failure,
      Integer httpStatus) {
    String error = failure != null ? failure : stream.error();
    if (error == null && stream.textArrivalsMs().isEmpty()) {
      error = "no generated text in the stream";
    }
    if (error != null) {
      return RequestRecord.failed(id, level, null, t0, endMs, error, httpStatus, stream.promptTokens());
    }
    List<Long> arrivals = stream.textArrivalsMs();
    long first = arrivals.get(0);
    long last = arrivals.get(arrivals.size() - 1);
    List<Double> itl = new ArrayList<>(arrivals.size() - 1);
    for (int i = 1; i < arrivals.size(); i++) {
      itl.add((double) (arrivals.get(i) - arrivals.get(i - 1)));
    }
    boolean estimated = stream.completionTokens() == null;
    int outputTokens = estimated ? arrivals.size() : stream.completionTokens();
    double ttft = first - t0;
    double e2el = last - t0;
    Double tpot = outputTokens > 1 ? (e2el - ttft) / (outputTokens - 1) : null;
    return new RequestRecord(
        id,
        level,
        t0,
        Math.max(endMs, last),
        ttft,
        tpot,
        e2el,
        itl,
        stream.promptTokens(),
        outputTokens,
        estimated,
        true,
        null,
        httpStatus == null ? 200 : httpStatus,
        null,
        stream.serverTimings());
  }
}
