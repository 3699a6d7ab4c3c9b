package io.github.llmbench.workload;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A tokenizer like a byte-level vocabulary without merges: every character is one token, so no word
 * is one token and words add up only with their spaces. Ids are the characters' code points; an
 * optional begin-of-text token is counted as the server's BOS is.
 */
class CharTokenizer implements ServerTokenizer {
  private final boolean bos;
  private final boolean decodes;
  int calls;

  /** The longest text counted or encoded, in characters. */
  int longestText;

  CharTokenizer(boolean bos, boolean decodes) {
    this.bos = bos;
    this.decodes = decodes;
  }

  @Override
  public String describe() {
    return "chars";
  }

  @Override
  public OptionalInt count(String text) {
    calls++;
    longestText = Math.max(longestText, text.length());
    return OptionalInt.of(text.length() + (bos ? 1 : 0));
  }

  @Override
  public Optional<int[]> encode(String text) {
    calls++;
    longestText = Math.max(longestText, text.length());
    return Optional.of(text.codePoints().toArray());
  }

  @Override
  public Optional<String> decode(int[] ids) {
    calls++;
    if (!decodes) {
      return Optional.empty();
    }
    // as SentencePiece decoders do: a leading space of the text is dropped
    String s = new String(ids, 0, ids.length);
    return Optional.of(s.startsWith(" ") ? s.substring(1) : s);
  }
}
