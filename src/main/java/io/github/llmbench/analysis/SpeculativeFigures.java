package io.github.llmbench.analysis;

import io.github.llmbench.servers.MetricNames;
import io.github.llmbench.servers.ServerProfiles;
import java.util.List;
import java.util.Map;

/**
 * Speculative decoding's figures of a window, from the server's metrics ({@link
 * MetricNames.Speculative}): vLLM's counters give the drafts, the drafted and the accepted tokens,
 * the acceptance rate (accepted / drafted) and the mean accepted length (1 + accepted / drafts, as
 * {@code vllm bench serve} prints it); SGLang's gauges, averaged over the window, give the last
 * two. Each is null where the server reports nothing of it. Pure.
 */
public final class SpeculativeFigures {

  /** The figures' names among the server's ({@link ServerFigures#NAMES}). */
  public static final List<String> NAMES =
      List.of(
          "spec_acceptance_rate",
          "spec_mean_accepted_length",
          "spec_drafts",
          "spec_draft_tokens",
          "spec_accepted_tokens");

  private static final List<String> DRAFTS = names(MetricNames.Speculative::drafts);
  private static final List<String> DRAFT_TOKENS = names(MetricNames.Speculative::draftTokens);
  private static final List<String> ACCEPTED = names(MetricNames.Speculative::acceptedTokens);
  private static final List<String> ACCEPT_LENGTH = names(MetricNames.Speculative::acceptLength);
  private static final List<String> ACCEPT_RATE = names(MetricNames.Speculative::acceptRate);

  private SpeculativeFigures() {}

  private static List<String> names(
      java.util.function.Function<MetricNames.Speculative, List<String>> of) {
    return ServerProfiles.names(m -> of.apply(m.speculative()));
  }

  /** Puts the window's figures into {@code f}. */
  static void put(Map<String, Double> f, ServerFigures.Series s, long from, long to) {
    Double drafts = ServerFigures.delta(s.gauge(DRAFTS), from, to);
    Double drafted = ServerFigures.delta(s.gauge(DRAFT_TOKENS), from, to);
    Double accepted = ServerFigures.delta(s.gauge(ACCEPTED), from, to);
    f.put("spec_drafts", drafts);
    f.put("spec_draft_tokens", drafted);
    f.put("spec_accepted_tokens", accepted);
    f.put(
        "spec_acceptance_rate",
        accepted != null && drafted != null && drafted > 0
            ? Double.valueOf(accepted / drafted)
            : ServerFigures.mean(s.ratio(ACCEPT_RATE), from, to));
    f.put(
        "spec_mean_accepted_length",
        accepted != null && drafts != null && drafts > 0
            ? Double.valueOf(1 + accepted / drafts)
            : ServerFigures.mean(s.ratio(ACCEPT_LENGTH), from, to));
  }
}
