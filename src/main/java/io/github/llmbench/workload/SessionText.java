package io.github.llmbench.workload;

import io.github.llmbench.core.Seeds;
import io.github.llmbench.workload.sessions.MessageTemplate;
import java.util.Random;

/**
 * The synthetic text of agent sessions ({@code {{tokens:N}}}): words of a random dataset adding up
 * to N tokens, the same text for the same key. Where the dataset's prompts are made of token ids
 * the words' counts are estimated: a session's text is made as its call is sent, on an event loop,
 * where the server's tokenizer cannot be asked.
 */
final class SessionText implements MessageTemplate.FillerText {
  private final RandomDataset words;
  private final long seed;

  SessionText(RandomDataset dataset, long seed) {
    this.words =
        dataset.method() == RandomDataset.Method.TOKEN_IDS
            ? new RandomDataset(
                RandomDataset.Calibration.estimated(RandomDataset.shippedVocabulary()),
                dataset.lengths(),
                seed)
            : dataset;
    this.seed = seed;
  }

  @Override
  public String text(int tokens, String key) {
    return words.words(tokens, new Random(Seeds.mix(seed ^ hash64(key))), true);
  }

  private static long hash64(String key) {
    long h = 1125899906842597L;
    for (int i = 0; i < key.length(); i++) {
      h = 31 * h + key.charAt(i);
    }
    return Seeds.mix(h);
  }
}
