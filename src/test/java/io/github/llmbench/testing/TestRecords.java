package io.github.llmbench.testing;

import io.github.llmbench.records.Reasoning;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.github.llmbench.records.ServerTimings;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tests' one way to make a {@link RequestRecord}: a fluent builder, so that a test states only
 * the fields it is about and the rest get consistent defaults.
 *
 * <pre>{@code
 * RequestRecord r = TestRecords.ok("c8").start(1000).ttft(50).tpot(10).outputTokens(32).build();
 * RequestRecord f = TestRecords.failed("c8", "HTTP 500").status(500).start(1000).end(1010).build();
 * }</pre>
 *
 * <p>{@link Builder#build()} fills {@link RequestRecord#builder()} with the values set and the
 * defaults below, so a built record is exactly the one that constructor makes from the same values:
 * same rounding to µs, same checks.
 *
 * <p>Defaults of {@link #ok(String)} (a completed request with the server's usage):
 *
 * <ul>
 *   <li>id: {@code rec-N}, a new N for every {@code build()} (unique in the JVM) unless {@link
 *       Builder#id} is set;
 *   <li>start 0; ttft {@value #TTFT_MS} ms; output tokens {@value #OUTPUT_TOKENS}; input tokens
 *       {@value #INPUT_TOKENS}; not estimated; HTTP status 200; no error, profile, server timings
 *       or origin;
 *   <li>tpot, when not set: (e2el - ttft) / (output tokens - 1) when e2el is set (its definition),
 *       else {@value #TPOT_MS} ms; null when there are 1 or fewer output tokens;
 *   <li>e2el, when not set: ttft + tpot x (output tokens - 1) (ttft alone for one token; null when
 *       ttft is null);
 *   <li>itl, when not set: output tokens - 1 gaps of tpot each (none when tpot is null), so the
 *       gaps add up to e2el - ttft;
 *   <li>end, when not set: start + e2el rounded to the ms (start when e2el is null).
 * </ul>
 *
 * <p>Defaults of {@link #failed(String, String)} (a request that failed, {@code ok} false): no
 * latencies (ttft, tpot, e2el null, unless set), no ITLs, no input or output tokens, no HTTP
 * status, end = start; the same id rule.
 *
 * <p>Every setter overrides its default; setting a latency to null (e.g. {@code tpot(null)}) is a
 * value, not a return to the default. {@link #from(RequestRecord)} starts from all the values of an
 * existing record, nothing derived.
 */
public final class TestRecords {

  /** The default TTFT of a completed record, ms. */
  public static final double TTFT_MS = 10.0;

  /** The default TPOT of a completed record with more than one output token, ms. */
  public static final double TPOT_MS = 5.0;

  /** The default output tokens of a completed record. */
  public static final int OUTPUT_TOKENS = 8;

  /** The default input tokens of a completed record. */
  public static final int INPUT_TOKENS = 10;

  private static final AtomicLong IDS = new AtomicLong();

  private TestRecords() {}

  /** A completed request of {@code level} (may be null), with the defaults above. */
  public static Builder ok(String level) {
    Builder b = new Builder();
    b.level = level;
    b.ok = true;
    b.ttft = TTFT_MS;
    b.inputTokens = INPUT_TOKENS;
    b.outputTokens = OUTPUT_TOKENS;
    b.status = 200;
    return b;
  }

  /** A failed request of {@code level} (may be null) with this reason (may be null). */
  public static Builder failed(String level, String error) {
    Builder b = new Builder();
    b.level = level;
    b.ok = false;
    b.error = error;
    b.ttft = null;
    b.tpot = null;
    b.tpotSet = true;
    b.e2el = null;
    b.e2elSet = true;
    b.itl = null;
    b.itlSet = true;
    return b;
  }

  /**
   * A builder holding every value of {@code r} (its token-count sources, finish reason and pooling
   * aside).
   */
  public static Builder from(RequestRecord r) {
    Builder b = new Builder();
    b.id = r.id();
    b.idSet = true;
    b.level = r.level();
    b.start = r.startMs();
    b.end = r.endMs();
    b.endSet = true;
    b.ttft = r.ttftMs();
    b.tpot = r.tpotMs();
    b.tpotSet = true;
    b.e2el = r.e2elMs();
    b.e2elSet = true;
    b.itl = r.itlMs();
    b.itlSet = true;
    b.inputTokens = r.inputTokens();
    b.outputTokens = r.outputTokens();
    b.estimated = r.outputTokensEstimated();
    b.ok = r.ok();
    b.error = r.error();
    b.status = r.httpStatus();
    b.profile = r.profile();
    b.serverTimings = r.serverTimings();
    b.origin = r.origin();
    b.reasoning = r.reasoning();
    b.route = r.route();
    return b;
  }

  /** The values of one record; see {@link TestRecords} for the defaults. Not thread-safe. */
  public static final class Builder {
    private String id;
    private boolean idSet;
    private String level;
    private long start;
    private long end;
    private boolean endSet;
    private Double ttft;
    private Double tpot;
    private boolean tpotSet;
    private Double e2el;
    private boolean e2elSet;
    private List<Double> itl;
    private boolean itlSet;
    private Integer inputTokens;
    private Integer outputTokens;
    private boolean estimated;
    private boolean ok;
    private String error;
    private Integer status;
    private String profile;
    private ServerTimings serverTimings;
    private RequestOrigin origin;
    private Reasoning reasoning;
    private Route route;

    private Builder() {}

    /** The id (null allowed); without it every build gets a new {@code rec-N}. */
    public Builder id(String id) {
      this.id = id;
      this.idSet = true;
      return this;
    }

    public Builder level(String level) {
      this.level = level;
      return this;
    }

    /** t0, epoch ms (or any origin the test likes). */
    public Builder start(long startMs) {
      this.start = startMs;
      return this;
    }

    /** When the request ended, ms; without it, start + e2el. */
    public Builder end(long endMs) {
      this.end = endMs;
      this.endSet = true;
      return this;
    }

    public Builder ttft(double ms) {
      return ttft(Double.valueOf(ms));
    }

    public Builder ttft(Double ms) {
      this.ttft = ms;
      return this;
    }

    public Builder tpot(double ms) {
      return tpot(Double.valueOf(ms));
    }

    public Builder tpot(Double ms) {
      this.tpot = ms;
      this.tpotSet = true;
      return this;
    }

    public Builder e2el(double ms) {
      return e2el(Double.valueOf(ms));
    }

    public Builder e2el(Double ms) {
      this.e2el = ms;
      this.e2elSet = true;
      return this;
    }

    /** The gaps, ms, as given (an {@code ItlSeries} stays the same instance); null for none. */
    public Builder itl(List<Double> ms) {
      this.itl = ms;
      this.itlSet = true;
      return this;
    }

    /** The gaps, ms. */
    public Builder itl(double... ms) {
      return itl(Arrays.stream(ms).boxed().toList());
    }

    public Builder inputTokens(Integer n) {
      this.inputTokens = n;
      return this;
    }

    public Builder outputTokens(Integer n) {
      this.outputTokens = n;
      return this;
    }

    /** Whether the output tokens are a chunk count (no usage). */
    public Builder estimated(boolean estimated) {
      this.estimated = estimated;
      return this;
    }

    /** The record's ok flag alone: no other field or default changes. */
    public Builder ok(boolean ok) {
      this.ok = ok;
      return this;
    }

    public Builder error(String error) {
      this.error = error;
      return this;
    }

    /** The HTTP status, null for unknown. */
    public Builder status(Integer status) {
      this.status = status;
      return this;
    }

    public Builder profile(String profile) {
      this.profile = profile;
      return this;
    }

    public Builder serverTimings(ServerTimings timings) {
      this.serverTimings = timings;
      return this;
    }

    public Builder origin(RequestOrigin origin) {
      this.origin = origin;
      return this;
    }

    /** What the stream said before its answer; null: it did not reason. */
    public Builder reasoning(Reasoning reasoning) {
      this.reasoning = reasoning;
      return this;
    }

    /** Where it went, in a run over several servers or models; null: none. */
    public Builder route(Route route) {
      this.route = route;
      return this;
    }

    /** The record, made by {@link RequestRecord#builder()} from the values set and the defaults. */
    public RequestRecord build() {
      int n = outputTokens == null ? 0 : outputTokens;
      Double tpotMs = tpot;
      if (!tpotSet) {
        if (n <= 1) {
          tpotMs = null;
        } else if (e2elSet) {
          tpotMs = e2el == null || ttft == null ? null : (e2el - ttft) / (n - 1);
        } else {
          tpotMs = TPOT_MS;
        }
      }
      Double e2elMs = e2el;
      if (!e2elSet) {
        e2elMs = ttft == null ? null : ttft + (tpotMs == null || n <= 1 ? 0 : tpotMs * (n - 1));
      }
      List<Double> itlMs = itl;
      if (!itlSet) {
        itlMs = tpotMs == null || n <= 1 ? List.of() : Collections.nCopies(n - 1, tpotMs);
      }
      long endMs = endSet ? end : start + (e2elMs == null ? 0 : Math.round(e2elMs));
      String recordId = idSet ? id : "rec-" + IDS.incrementAndGet();
      return RequestRecord.builder()
          .id(recordId)
          .level(level)
          .startMs(start)
          .endMs(endMs)
          .ttftMs(ttft)
          .tpotMs(tpotMs)
          .e2elMs(e2elMs)
          .itlMs(itlMs)
          .inputTokens(inputTokens)
          .outputTokens(outputTokens)
          .outputTokensEstimated(estimated)
          .ok(ok)
          .error(error)
          .httpStatus(status)
          .profile(profile)
          .serverTimings(serverTimings)
          .origin(origin)
          .reasoning(reasoning)
          .route(route)
          .build();
    }
  }
}
