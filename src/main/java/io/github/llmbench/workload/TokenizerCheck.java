package io.github.llmbench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Whether a local tokenizer ({@code -Dtokenizer}) counts as the server does: a tokenizer that is
 * not the served model's is a common mistake, and every length the run reports would be off by it.
 * A few texts are counted by both; the start line says how far apart they are.
 */
public final class TokenizerCheck {
  static final int TEXTS = 5;

  private TokenizerCheck() {}

  /**
   * The sentence for the start line: agreement with the server's {@code /tokenize}, or how far
   * apart.
   */
  public static String against(TokenCounter local, ServerTokenizer server) {
    if (!server.present()) {
      return "the server has no /tokenize to check it against";
    }
    List<String> texts = samples();
    // each side's own special tokens (a BOS one adds and the other not) are not a disagreement
    OptionalInt localBase = local.count("");
    OptionalInt serverBase = server.count("");
    if (localBase.isEmpty() || serverBase.isEmpty()) {
      return "the server's /tokenize did not answer: not checked";
    }
    long localTotal = 0;
    long serverTotal = 0;
    double worst = 0;
    for (String t : texts) {
      OptionalInt a = local.count(t);
      OptionalInt b = server.count(t);
      if (a.isEmpty() || b.isEmpty()) {
        return "the server's /tokenize did not answer: not checked";
      }
      int here = a.getAsInt() - localBase.getAsInt();
      int there = b.getAsInt() - serverBase.getAsInt();
      localTotal += here;
      serverTotal += there;
      worst = Math.max(worst, Math.abs(here - there) / (double) Math.max(1, there));
    }
    if (localTotal == serverTotal && worst == 0) {
      return "agrees with the server's /tokenize on "
          + texts.size()
          + " texts ("
          + serverTotal
          + " tokens)";
    }
    return String.format(
        Locale.ROOT,
        "DISAGREES with the server's /tokenize: %d texts are %d tokens here, %d there"
            + " (up to %.1f%% apart); is it the served model's tokenizer?",
        texts.size(),
        localTotal,
        serverTotal,
        100 * worst);
  }

  /** Five texts of the shipped corpus, of growing length. */
  static List<String> samples() {
    String corpus = RandomDataset.shippedCorpus().replaceAll("\\s+", " ").strip();
    List<String> out = new ArrayList<>();
    int end = 0;
    for (int i = 1; i <= TEXTS; i++) {
      end = Math.min(corpus.length(), Math.max(end + 1, corpus.length() * i / TEXTS / 4));
      out.add(corpus.substring(0, end));
    }
    return out;
  }
}
