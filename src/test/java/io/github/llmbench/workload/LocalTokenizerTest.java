package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTokenizerTest {

  @Test
  void countsIdsAndTextOfACharacterTokenizer(@TempDir Path dir) throws Exception {
    TestTokenizers.characters(dir, "");
    try (LocalTokenizer t =
        LocalTokenizer.load(dir.toString())) { // a model folder holding tokenizer.json
      assertTrue(
          t.describe().startsWith("local " + dir.resolve("tokenizer.json") + " (vocabulary 96)"),
          t.describe());
      assertEquals(11, t.count("hello world").getAsInt());
      assertEquals(11, t.countText("hello world"));
      int[] ids = t.encode("a b").orElseThrow();
      assertEquals(3, ids.length);
      assertEquals("a b", t.decode(ids).orElseThrow(), "the round trip the token-ids method needs");
      String longText = "x".repeat(5000);
      assertEquals(5000, t.count(longText).getAsInt(), "no truncation at the model's max length");
    }
  }

  @Test
  void countsEachChunkFromOneEncodingOfTheWholeText(@TempDir Path dir) throws Exception {
    TestTokenizers.characters(dir, "");
    try (LocalTokenizer t = LocalTokenizer.load(dir.toString())) {
      // chunks "he", "llo", "", " world": one token a character, an empty chunk none
      assertArrayEquals(
          new int[] {2, 3, 0, 6}, t.countPerChunk("hello world", new int[] {2, 5, 5, 11}));
      assertArrayEquals(new int[] {11}, t.countPerChunk("hello world", new int[] {11}));
      assertArrayEquals(new int[0], t.countPerChunk("hello", new int[0]));
    }
  }

  @Test
  void exactPromptsByTokenIdsWithoutAServer(@TempDir Path dir) throws Exception {
    TestTokenizers.characters(dir, "");
    try (LocalTokenizer t = LocalTokenizer.load(dir.resolve("tokenizer.json").toString())) {
      RandomDataset.Selection s = RandomDataset.forServer(t, 60, 8, 0, 0, 3, 5);
      assertEquals(
          RandomDataset.Method.TOKEN_IDS, s.dataset().method(), "no word is one token: " + s.why());
      assertEquals(0, s.dataset().prepare(10));
      for (int i = 0; i < 10; i++) {
        assertEquals(60, t.countText(s.dataset().request(i, null).prompt()), "prompt " + i);
      }
    }
  }

  @Test
  void exactLengthsOnACharacterTokenizerWithoutADecoder(@TempDir Path dir) throws Exception {
    TestTokenizers.charactersWithoutDecoder(dir);
    try (LocalTokenizer t = LocalTokenizer.load(dir.toString())) {
      int[] ids = t.encode("ab").orElseThrow();
      assertTrue(
          t.countText(t.decode(ids).orElseThrow()) != ids.length,
          "the decoded text does not re-count: the case at hand");
      for (int target : new int[] {1, 7, 60, 500}) {
        RandomDataset.Selection s = RandomDataset.forServer(t, target, 8, 0, 0, target, 5);
        RandomDataset d = s.dataset();
        assertEquals(RandomDataset.Method.TOKEN_IDS, d.method(), s.why());
        assertEquals(0, d.prepare(6), "every prompt of " + target + " tokens exact");
        for (int i = 0; i < 6; i++) {
          String prompt = d.request(i, null).prompt();
          assertEquals(
              target, t.countText(prompt), "prompt " + i + " of " + target + " tokens: " + prompt);
          assertEquals(target, d.request(i, null).promptTokens());
        }
      }
      // a shared prefix and a spread of lengths, the same prompts again by the same seed
      RandomDataset spread = RandomDataset.forServer(t, 60, 8, 0.5, 20, 11, 5).dataset();
      assertTrue(spread.describeMethod().contains("vocabulary pieces"), spread.describeMethod());
      assertEquals(0, spread.prepare(8), spread.preparedExactness());
      RandomDataset again = RandomDataset.forServer(t, 60, 8, 0.5, 20, 11, 5).dataset();
      again.prepare(8);
      for (int i = 0; i < 8; i++) {
        RequestSpec r = spread.request(i, null);
        assertEquals(r.promptTokens(), t.countText(r.prompt()), "prompt " + i + ": " + r.prompt());
        assertEquals(r.prompt(), again.request(i, null).prompt(), "deterministic by the seed");
        assertTrue(
            r.prompt().startsWith(spread.request(0, null).prompt().substring(0, 20)),
            "the 20-token prefix is shared");
      }
    }
  }

  @Test
  void aModelIdIsNotDownloaded() {
    String message =
        assertThrows(
                DatasetException.class,
                () -> LocalTokenizer.load("meta-llama/Llama-3.1-8B-Instruct"))
            .getMessage();
    assertTrue(
        message.startsWith(
            "Invalid -Dtokenizer=meta-llama/Llama-3.1-8B-Instruct: expected the path of a Hugging Face tokenizer.json"),
        message);
    assertTrue(message.endsWith("nothing is downloaded at run time"), message);
  }

  @Test
  void disagreementWithTheServerIsSaid(@TempDir Path dir) throws Exception {
    TestTokenizers.characters(dir, "");
    try (LocalTokenizer t = LocalTokenizer.load(dir.toString())) {
      ServerTokenizer halfAsMany =
          new CharTokenizer(false, true) {
            @Override
            public OptionalInt count(String text) {
              return OptionalInt.of(text.length() / 2);
            }
          };
      String said = TokenizerCheck.against(t, halfAsMany);
      assertTrue(said.startsWith("DISAGREES with the server's /tokenize: 5 texts are "), said);
      assertTrue(said.endsWith("apart); is it the served model's tokenizer?"), said);
      assertTrue(
          TokenizerCheck.against(t, new CharTokenizer(false, true))
              .startsWith("agrees with the server's /tokenize on 5 texts"));
      assertEquals(
          "the server has no /tokenize to check it against",
          TokenizerCheck.against(t, ServerTokenizer.NONE));
      assertEquals(5, List.copyOf(TokenizerCheck.samples()).size());
    }
  }
}
