package io.github.llmbench.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Where requests come from. Request {@code index} of a run is always the same request for the same
 * seed, whichever virtual user sends it, so runs can be repeated exactly with {@code -Dseed}.
 */
public interface Dataset {

  /** The request number {@code index} (0-based) of a phase that sends {@code profile} or any. */
  RequestSpec request(long index, String profile);

  /** The largest {@code max_tokens} any of its requests asks for (sizes the stream buffer). */
  int maxTokens();

  /**
   * The requests that may be the longest in tokens (prompt + {@code max_tokens}), for the check
   * against the server's context before the load: their {@code promptTokens}, or their text to
   * count where that is unknown.
   */
  List<RequestSpec> longestRequests();

  /**
   * The user turns of conversation number {@code index} of a multi-turn run, at most {@code turns}:
   * by default {@code turns} consecutive requests, each a new user turn.
   */
  default List<RequestSpec> conversation(long index, String profile, int turns) {
    List<RequestSpec> out = new ArrayList<>(turns);
    for (int k = 0; k < turns; k++) {
      out.add(request(index * turns + k, profile));
    }
    return out;
  }

  /** The same dataset drawing from another seed (warmup prompts must differ from measured ones). */
  Dataset withSeed(long seed);
}
