package io.github.llmbench.simulator;

import java.util.List;
import java.util.SplittableRandom;

/**
 * An image as the simulator received it: its size, its prompt tokens, and a digest of its bytes
 * (the first 16 hex digits of their SHA-256), which tells images apart.
 */
public record ReceivedImage(int width, int height, int tokens, String digest) {
  /** Its prompt token ids, drawn from its digest: the prefix cache tells images apart. */
  void addIds(List<Integer> ids, int vocabSize) {
    SplittableRandom r = new SplittableRandom(Long.parseUnsignedLong(digest, 16));
    for (int i = 0; i < tokens; i++) {
      ids.add(r.nextInt(vocabSize));
    }
  }
}
