package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDatasetTest {

  private static String error(Path file) {
    return assertThrows(DatasetException.class, () -> FileDataset.read(file, 128, 1)).getMessage();
  }

  @Test
  void shippedExamplesRead() {
    FileDataset jsonl = FileDataset.read(Path.of("prompts/example.jsonl"), 128, 1);
    assertEquals(4, jsonl.size());
    FileDataset shareGpt = FileDataset.read(Path.of("prompts/example-sharegpt.json"), 100, 1);
    assertEquals(3, shareGpt.size());
    for (int i = 0; i < 3; i++) {
      RequestSpec r = shareGpt.request(i, null);
      assertEquals(100, r.maxTokens());
      assertTrue(r.prompt().endsWith("?"), r.prompt());
    }
  }

  @Test
  void aShareGptConversationKeepsItsOwnHumanTurnsInAMultiTurnRun(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("chats.json");
    Files.writeString(
        f,
        "[{\"conversations\":[{\"from\":\"human\",\"value\":\"one\"},{\"from\":\"gpt\",\"value\":\"a\"},"
            + "{\"from\":\"human\",\"value\":\"two\"},{\"from\":\"gpt\",\"value\":\"b\"},{\"from\":\"human\",\"value\":\"three\"}]}]");
    FileDataset d = FileDataset.read(f, 50, 1);
    assertEquals(1, d.size());
    assertEquals(
        "one", d.request(0, null).prompt(), "a single-turn run sends the first human turn");
    assertEquals(
        List.of("one", "two", "three"),
        d.conversation(0, null, 5).stream().map(RequestSpec::prompt).toList());
    assertEquals(
        List.of("one", "two"),
        d.conversation(7, null, 2).stream().map(RequestSpec::prompt).toList(),
        "at most -Dturns");
    // a JSONL file's conversation is consecutive lines, one a turn
    Path lines = dir.resolve("d.jsonl");
    Files.writeString(lines, "{\"prompt\":\"x\"}\n{\"prompt\":\"y\"}\n{\"prompt\":\"z\"}\n");
    FileDataset jsonl = FileDataset.read(lines, 50, 1);
    List<RequestSpec> c = jsonl.conversation(0, null, 3);
    assertEquals(3, c.stream().map(RequestSpec::prompt).distinct().count(), c.toString());
  }

  @Test
  void jsonlPromptsMessagesAndMaxTokens(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("d.jsonl");
    Files.writeString(
        f,
        "{\"prompt\":\"hi\",\"max_tokens\":5}\n\n{\"messages\":[{\"role\":\"user\",\"content\":\"yo\"}]}\n");
    FileDataset d = FileDataset.read(f, 128, 3);
    assertEquals(2, d.size());
    RequestSpec a = d.request(0, null);
    RequestSpec b = d.request(1, null);
    RequestSpec prompt = a.prompt() != null ? a : b;
    RequestSpec chat = a.prompt() != null ? b : a;
    assertEquals(5, prompt.maxTokens());
    assertEquals(128, chat.maxTokens());
    assertEquals("yo", chat.messages().get(0).content());
    assertEquals(d.request(0, null), d.request(2, null), "starts over after the last request");
  }

  @Test
  void errorsNameTheFileTheLineAndWhatIsExpected(@TempDir Path dir) throws Exception {
    assertEquals(
        "Invalid -Ddataset=file:" + dir.resolve("nope.jsonl") + ": no such file",
        error(dir.resolve("nope.jsonl")));
    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(bad, "{\"prompt\":\"ok\"}\n{\"prompt\": \n");
    assertEquals("Malformed dataset " + bad + " line 2: not a JSON object", error(bad));
    Files.writeString(bad, "{\"prompt\":\"ok\"}\n{\"text\":\"x\"}\n");
    assertEquals(
        "Malformed dataset "
            + bad
            + " line 2: expected a non-empty \"prompt\" text or \"messages\" array",
        error(bad));
    Files.writeString(bad, "{\"prompt\":\"ok\",\"max_tokens\":0}\n");
    assertEquals(
        "Malformed dataset "
            + bad
            + " line 1: \"max_tokens\" is 0 (expected a whole number of tokens from 1 to 10000000)",
        error(bad));
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, "\n\n");
    assertEquals("Invalid -Ddataset=file:" + empty + ": it holds no request", error(empty));
    Path share = dir.resolve("s.json");
    Files.writeString(share, "{\"not\":\"an array\"}");
    assertEquals(
        "Malformed dataset " + share + ": expected a ShareGPT array of conversations",
        error(share));
  }

  /**
   * Issue 62 item 2: a {@code max_tokens} past the one maximum is refused with its line, where
   * 2147483647 was accepted and made the context check's {@code int} sum negative.
   */
  @Test
  void maxTokensPastTheMaximumIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("big.jsonl");
    for (String value : List.of("2147483647", "10000001", "99999999999999")) {
      Files.writeString(
          f, "{\"prompt\":\"ok\"}\n{\"prompt\":\"ok\",\"max_tokens\":" + value + "}\n");
      assertEquals(
          "Malformed dataset "
              + f
              + " line 2: \"max_tokens\" is "
              + value
              + " (expected a whole number of tokens from 1 to 10000000)",
          error(f));
    }
    Files.writeString(f, "{\"prompt\":\"ok\",\"max_tokens\":10000000}\n");
    assertEquals(10_000_000, FileDataset.read(f, 128, 1).maxTokens());
  }
}
