package io.github.llmbench.workload;

import java.util.OptionalInt;

/** The server's tokenizer: how many tokens a text has, or empty when the server cannot tell. */
@FunctionalInterface
public interface TokenCounter {
  OptionalInt count(String text);

  /** A counter for servers without a tokenizer endpoint. */
  TokenCounter NONE = text -> OptionalInt.empty();
}
