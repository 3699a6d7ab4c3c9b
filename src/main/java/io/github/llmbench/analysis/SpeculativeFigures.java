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

  public static final ServerFigure ACCEPTANCE_RATE =
      new ServerFigure("spec_acceptance_rate", "", "Acceptance rate (%)");
  public static final ServerFigure MEAN_ACCEPTED_LENGTH =
      new ServerFigure("spec_mean_accepted_length", "", "Mean accepted length");
  public static final ServerFigure DRAFTS = new ServerFigure("spec_drafts", "", "Drafts");
  public static final ServerFigure DRAFT_TOKENS =
      new ServerFigure("spec_draft_tokens", "", "Draft tokens");
  public static final ServerFigure ACCEPTED_TOKENS =
      new ServerFigure("spec_accepted_tokens", "", "Accepted tokens");

  /**
   * The family's figures among the server's ({@link ServerFigures#KEYS}), in the reports' order.
   */
  public static final List<ServerFigure> KEYS =
      List.of(ACCEPTANCE_RATE, MEAN_ACCEPTED_LENGTH, DRAFTS, DRAFT_TOKENS, ACCEPTED_TOKENS);

  private static final List<String> DRAFT_METRICS = names(MetricNames.Speculative::drafts);
  private static final List<String> DRAFT_TOKEN_METRICS =
      names(MetricNames.Speculative::draftTokens);
  private static final List<String> ACCEPTED_METRICS =
      names(MetricNames.Speculative::acceptedTokens);
  private static final List<String> ACCEPT_LENGTH_METRICS =
      names(MetricNames.Speculative::acceptLength);
  private static final List<String> ACCEPT_RATE_METRICS =
      names(MetricNames.Speculative::acceptRate);

  private SpeculativeFigures() {}

  private static List<String> names(
      java.util.function.Function<MetricNames.Speculative, List<String>> of) {
    return ServerProfiles.names(m -> of.apply(m.speculative()));
  }

  /** Puts the window's figures into {@code f}. */
  static void put(Map<ServerFigure, Double> f, ServerFigures.Series s, long from, long to) {
    Double drafts = ServerFigures.delta(s.gauge(DRAFT_METRICS), from, to);
    Double drafted = ServerFigures.delta(s.gauge(DRAFT_TOKEN_METRICS), from, to);
    Double accepted = ServerFigures.delta(s.gauge(ACCEPTED_METRICS), from, to);
    f.put(DRAFTS, drafts);
    f.put(DRAFT_TOKENS, drafted);
    f.put(ACCEPTED_TOKENS, accepted);
    f.put(
        ACCEPTANCE_RATE,
        accepted != null && drafted != null && drafted > 0
            ? Double.valueOf(accepted / drafted)
            : ServerFigures.mean(s.ratio(ACCEPT_RATE_METRICS), from, to));
    f.put(
        MEAN_ACCEPTED_LENGTH,
        accepted != null && drafts != null && drafts > 0
            ? Double.valueOf(1 + accepted / drafts)
            : ServerFigures.mean(s.ratio(ACCEPT_LENGTH_METRICS), from, to));
  }
}
