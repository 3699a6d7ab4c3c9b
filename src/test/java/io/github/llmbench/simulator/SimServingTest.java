package io.github.llmbench.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.catalog.Catalog;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Speculative decoding and disaggregated serving in the scheduler, in virtual time. */
class SimServingTest {

  private static final CostModel COST =
      new CostModel(Catalog.model("sim-tiny"), Catalog.gpu("rtx4090"), 1);

  /** A connection that writes every token since the last in one chunk, or only one. */
  private static ResponseWriter writer(boolean several) {
    return new ResponseWriter() {
      @Override
      public EventLoop eventLoop() {
        return null;
      }

      @Override
      public boolean emit(int k) {
        return true;
      }

      @Override
      public boolean writesSeveralTokensPerChunk() {
        return several;
      }
    };
  }

  /** Runs one request to its end; the token indexes each step handed to the stream. */
  private static List<Integer> emitted(Scheduler s, SimRequest r) {
    s.add(r);
    long now = s.nextReadyNanos();
    List<Integer> ks = new ArrayList<>();
    while (!s.idle()) {
      if (!s.schedule(now)) {
        now = s.nextReadyNanos();
        continue;
      }
      long end = now + s.durationNanos();
      s.complete(end, (x, k, t) -> ks.add(k));
      now = end;
    }
    return ks;
  }

  private static Scheduler speculating(SimMetrics m, double acceptance) {
    return new Scheduler(COST, 8, 2048, m, new SimServing(new SimSpeculation(2, acceptance), 0), 1);
  }

  @Test
  void everyAcceptedDraftLeavesWithItsStepsToken() {
    SimMetrics m = new SimMetrics(new SimServing(new SimSpeculation(2, 1), 0));
    List<Integer> ks = emitted(speculating(m, 1.0), new SimRequest(16, 9, writer(true)));
    // the prefill's token, then 3 per step, the last step drafting only what is left
    assertEquals(List.of(0, 3, 6, 8), ks);
    String text = m.renderVllm("m");
    assertTrue(text.contains("vllm:spec_decode_num_drafts_total{model_name=\"m\"} 3"), text);
    assertTrue(text.contains("vllm:spec_decode_num_draft_tokens_total{model_name=\"m\"} 5"));
    assertTrue(text.contains("vllm:spec_decode_num_accepted_tokens_total{model_name=\"m\"} 5"));
    assertEquals(9, m.generationTokens());
  }

  @Test
  void rejectedDraftsLeaveOneTokenPerStep() {
    SimMetrics m = new SimMetrics(new SimServing(new SimSpeculation(2, 0), 0));
    List<Integer> ks = emitted(speculating(m, 0.0), new SimRequest(16, 9, writer(true)));
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8), ks);
    String text = m.renderVllm("m");
    assertTrue(text.contains("vllm:spec_decode_num_accepted_tokens_total{model_name=\"m\"} 0"));
    // no draft past the last token: steps after tokens 1..7, the one after 7 drafting one
    assertTrue(text.contains("vllm:spec_decode_num_draft_tokens_total{model_name=\"m\"} 13"));
  }

  @Test
  void aWriterThatCannotCarrySeveralTokensGetsNoDrafts() {
    SimMetrics m = new SimMetrics(new SimServing(new SimSpeculation(2, 1), 0));
    List<Integer> ks = emitted(speculating(m, 1.0), new SimRequest(16, 5, writer(false)));
    assertEquals(List.of(0, 1, 2, 3, 4), ks);
    assertTrue(m.renderVllm("m").contains("vllm:spec_decode_num_drafts_total{model_name=\"m\"} 0"));
  }

  @Test
  void disaggregatedServingHandsThePromptsKvOverBeforeTheFirstToken() {
    SimMetrics m = new SimMetrics(new SimServing(SimSpeculation.NONE, 1));
    Scheduler s = new Scheduler(COST, 8, 4096, m, new SimServing(SimSpeculation.NONE, 1), 1);
    SimRequest r = new SimRequest(1000, 3, writer(true));
    s.add(r);
    long now = s.nextReadyNanos(); // the request has reached the engine
    assertTrue(s.schedule(now));
    long prefillEnd = now + s.durationNanos();
    List<Integer> ks = new ArrayList<>();
    s.complete(prefillEnd, (x, k, t) -> ks.add(k));
    assertEquals(List.of(), ks, "no token at the prefill instance");
    double bytes = COST.kvBytesPerToken() * 1000;
    long arrives = prefillEnd + (long) ((Scheduler.KV_TRANSFER_LATENCY_S + bytes / 1e9) * 1e9);
    assertEquals(arrives, r.transferredUntilNanos);
    assertFalse(s.schedule(arrives - 1), "the decode instance waits for the KV");
    assertEquals(arrives, s.nextReadyNanos());
    assertTrue(s.schedule(arrives));
    assertEquals(1, r.scheduledThisStep, "it recomputes the prompt's last token");
    s.complete(arrives + s.durationNanos(), (x, k, t) -> ks.add(k));
    assertEquals(List.of(0), ks);
    String text = m.renderVllm("m");
    assertTrue(text.contains("vllm:nixl_xfer_time_seconds_count{model_name=\"m\"} 1"), text);
    assertTrue(
        text.contains("vllm:nixl_bytes_transferred_sum{model_name=\"m\"} " + (long) bytes)
            || text.contains("vllm:nixl_bytes_transferred_sum{model_name=\"m\"} " + bytes),
        text);
  }
}
