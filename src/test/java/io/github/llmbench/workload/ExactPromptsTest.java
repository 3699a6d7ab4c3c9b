package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExactPromptsTest {

  @Test
  void wordsCannotBeExactWhereNoWordIsOneTokenSoTokenIdsAreUsedAndAreExact() {
    CharTokenizer chars = new CharTokenizer(true, true);
    RandomDataset.Selection s = RandomDataset.forServer(chars, 300, 16, 0.3, 20, 7, 5);
    RandomDataset d = s.dataset();
    assertEquals(RandomDataset.Method.TOKEN_IDS, d.method());
    assertEquals("no word of prompts/base.txt is one token in this vocabulary", s.why());
    assertTrue(d.needsPreparing());
    assertEquals(0, d.prepare(25), "every prompt exact");
    assertEquals(25, d.prepared());
    String prefix = null;
    for (int i = 0; i < 25; i++) {
      RequestSpec r = d.request(i, null);
      assertEquals(r.promptTokens(), chars.count(r.prompt()).getAsInt() - 1, "prompt " + i);
      assertTrue(
          r.promptTokens() >= 20 + 210 && r.promptTokens() <= 20 + 390,
          "range: " + r.promptTokens());
      String head = r.prompt().substring(0, 20);
      assertTrue(prefix == null || prefix.equals(head), "the 20-token prefix is shared");
      prefix = head;
    }
    // a run that sends more uses the prompts in turn
    assertEquals(d.request(3, null).prompt(), d.request(28, null).prompt());
    // the warmup's prompts are other prompts, made again
    RandomDataset warmup = d.withSeed(99);
    assertTrue(warmup.needsPreparing());
    warmup.prepare(3);
    assertFalse(warmup.request(0, null).prompt().equals(d.request(0, null).prompt()));
  }

  @Test
  void withoutDetokenizeTheWordsAreKeptAndTheRunSaysWhy() {
    CharTokenizer noDecode = new CharTokenizer(false, false);
    RandomDataset.Selection s = RandomDataset.forServer(noDecode, 100, 8, 0, 0, 1, 3);
    assertEquals(RandomDataset.Method.ESTIMATE, s.dataset().method());
    assertTrue(s.why().endsWith("the server has no /detokenize to make them exact"), s.why());
  }

  @Test
  void noWordCountsAsATokenButTheServerDecodesSoTokenIdsAreUsedAndAreExact() {
    // a vocabulary of spaces and punctuation that drops what it does not know: no word is counted
    CharTokenizer noLetters =
        new CharTokenizer(false, true) {
          @Override
          public OptionalInt count(String text) {
            return OptionalInt.of(kept(text).length);
          }

          @Override
          public Optional<int[]> encode(String text) {
            return Optional.of(kept(text));
          }

          private int[] kept(String text) {
            return text.codePoints().filter(c -> !Character.isLetterOrDigit(c)).toArray();
          }
        };
    assertTrue(
        RandomDataset.Calibration.measure(RandomDataset.shippedVocabulary(), noLetters)
            .words()
            .isEmpty(),
        "the case at hand");
    for (int target : new int[] {1, 7, 60, 500}) {
      RandomDataset.Selection s = RandomDataset.forServer(noLetters, target, 8, 0, 0, target, 5);
      RandomDataset d = s.dataset();
      assertEquals(RandomDataset.Method.TOKEN_IDS, d.method(), s.why());
      assertEquals("no word of prompts/base.txt counts as a token in this vocabulary", s.why());
      assertEquals(0, d.prepare(4), d.preparedExactness());
      assertEquals("all exact", d.preparedExactness());
      for (int i = 0; i < 4; i++) {
        RequestSpec r = d.request(i, null);
        assertEquals(
            target,
            noLetters.count(r.prompt()).getAsInt(),
            "prompt " + i + ": '" + r.prompt() + "'");
        assertEquals(target, r.promptTokens());
      }
    }
  }

  @Test
  void lengthsOutOfReachAreSaidInOneLineNamingTheTokenizerTheTargetAndTheError() {
    // every character counts twice but reads back as one id: an odd length cannot be made
    CharTokenizer doubled =
        new CharTokenizer(false, true) {
          @Override
          public OptionalInt count(String text) {
            return OptionalInt.of(2 * text.length());
          }

          @Override
          public Map<Integer, String> pieces() {
            return Map.of((int) 'a', "a", (int) ' ', " ", (int) 'e', "e");
          }
        };
    int target = 7;
    RandomDataset d = RandomDataset.forServer(doubled, target, 8, 0, 0, 1, 5).dataset();
    int error = d.prepare(3);
    assertEquals(1, error, "the nearest lengths are one token either side");
    String line = d.preparedExactness();
    assertTrue(
        line.matches(
            "NOT exact: chars cannot make every prompt exact: one of "
                + target
                + " tokens came out (6|8)"
                + " \\(3 of 3 prompts off, by up to 1 token\\)"),
        line);
  }

  @Test
  void aTokenizerThatMergesAcrossTheJoinStillReachesTheTarget() {
    // "ab" is one token: decoded ids can re-tokenize shorter, and the loop pads until exact
    ServerTokenizer merging =
        new CharTokenizer(false, true) {
          @Override
          public OptionalInt count(String text) {
            return OptionalInt.of(text.replace("ab", "X").length());
          }
        };
    ExactPrompts exact = ExactPrompts.of(merging, "ab ab abab b a").orElseThrow();
    for (int target : new int[] {1, 2, 7, 50}) {
      ExactPrompts.Prompt p = exact.make("", 0, target, new Random(target));
      assertEquals(target, p.tokens(), p.text());
      assertEquals(target, merging.count(p.text()).getAsInt());
    }
  }

  @Test
  void aServerWithoutTokenizerGivesTheEstimate() {
    RandomDataset.Selection s = RandomDataset.forServer(ServerTokenizer.NONE, 64, 8, 0, 0, 1, 3);
    assertEquals(RandomDataset.Method.ESTIMATE, s.dataset().method());
    assertFalse(s.dataset().needsPreparing());
  }
}
