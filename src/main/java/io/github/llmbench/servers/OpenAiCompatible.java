package io.github.llmbench.servers;

import java.util.Optional;

/**
 * Any other OpenAI-compatible server: sent what every server reads ({@code max_tokens}), its
 * tokenizer found by trying each known form, no metric names of its own.
 */
final class OpenAiCompatible implements ServerProfile {

  @Override
  public String id() {
    return "other";
  }

  @Override
  public String label() {
    return "an OpenAI-compatible server";
  }

  @Override
  public boolean chatTakesMaxCompletionTokens() {
    return false;
  }

  @Override
  public Optional<TokenizerForm> tokenizer() {
    return Optional.empty();
  }

  @Override
  public MetricNames metrics() {
    return MetricNames.family("").build();
  }
}
