package io.github.llmbench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.settings.BenchSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreparedWorkloadTest {
  private static final PreparedWorkload.PlannedRequests NONE_PLANNED =
      new PreparedWorkload.PlannedRequests(0, 0, false);
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  /** A server with a given tokenizer, chat template and context, asked nothing over the network. */
  private static PreparedWorkload.Server server(
      ServerTokenizer tokenizer, OptionalInt templateTokens, Integer contextTokens) {
    return new PreparedWorkload.Server() {
      @Override
      public ServerTokenizer tokenizer() {
        return tokenizer;
      }

      @Override
      public OptionalInt chatTemplateTokens(ServerTokenizer t, String content) {
        return templateTokens;
      }

      @Override
      public Optional<PreparedWorkload.ContextLength> contextLength() {
        return Optional.ofNullable(contextTokens)
            .map(n -> new PreparedWorkload.ContextLength(n, "test context"));
      }
    };
  }

  private PreparedWorkload workload(Map<String, String> props, PreparedWorkload.Server server) {
    BenchSettings settings = BenchSettings.from(props, Map.<String, String>of()::get);
    PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
    return PreparedWorkload.forServer(
        settings, PreparedWorkload.Sources.read(settings), server, out);
  }

  @Test
  void startNotesTellTheTokenizerAndTheChatTemplateBeforeAnyPreparation() {
    PreparedWorkload w =
        workload(
            Map.of("dataset", "profiles"),
            server(new CharTokenizer(false, false), OptionalInt.of(7), 4096));
    assertEquals(List.of("tokenizer", "chat"), List.copyOf(w.startNotes().keySet()));
    assertEquals("chars", w.startNotes().get("tokenizer"));
    assertEquals(
        "the chat template adds 7 tokens to each prompt (counted in the server's input tokens)",
        w.startNotes().get("chat"));
    assertEquals(Map.of(), w.preparedNotes(), "nothing prepared before the load asks for it");
    assertThrows(UnsupportedOperationException.class, () -> w.startNotes().put("x", "y"));
  }

  @Test
  void completionsHaveNoChatNoteAndAServerWithoutTokenizerIsNotAskedForTheTemplate() {
    PreparedWorkload completions =
        workload(
            Map.of("api", "completions"), server(ServerTokenizer.NONE, OptionalInt.of(7), null));
    assertEquals(List.of("tokenizer"), List.copyOf(completions.startNotes().keySet()));
    PreparedWorkload chat =
        workload(Map.of(), server(ServerTokenizer.NONE, OptionalInt.of(7), null));
    assertEquals(
        "the chat template's tokens are unknown (the server's input tokens count them)",
        chat.startNotes().get("chat"));
  }

  @Test
  void preparesOnceAndKeepsItsNotes() {
    PreparedWorkload w =
        workload(
            Map.of("api", "completions"), server(ServerTokenizer.NONE, OptionalInt.empty(), null));
    Map<String, String> notes = w.prepare(NONE_PLANNED);
    assertEquals(List.of("lengths", "context"), List.copyOf(notes.keySet()));
    assertTrue(
        notes.get("lengths").endsWith(": input tokens are reported from the server's usage"),
        notes.get("lengths"));
    assertEquals(
        "unknown (the server tells no context length): requests are not checked against it",
        notes.get("context"));
    assertEquals(Map.of(), w.prepare(NONE_PLANNED), "a second call adds nothing");
    assertEquals(notes, w.preparedNotes());
  }

  @Test
  void theLongestRequestMustFitTheContext() {
    Map<String, String> props =
        Map.of("api", "completions", "input.len", "1000", "output.len", "100");
    PreparedWorkload fits =
        workload(props, server(ServerTokenizer.NONE, OptionalInt.empty(), 1100));
    assertEquals(
        "1100 tokens per request (test context); the longest request needs 1100",
        fits.prepare(NONE_PLANNED).get("context"));
    PreparedWorkload tooLong =
        workload(props, server(ServerTokenizer.NONE, OptionalInt.empty(), 1099));
    DatasetException e = assertThrows(DatasetException.class, () -> tooLong.prepare(NONE_PLANNED));
    assertEquals(
        "The longest request does not fit the server's context: 1000 prompt tokens + max_tokens 100 = 1100 tokens > 1099"
            + " (test context); lower -Dinput.len, -Dprefix.len, -Drange.ratio or -Doutput.len (or the dataset's longest entries),"
            + " or give the server more context",
        e.getMessage());
  }

  @Test
  void aConversationsLastTurnCarriesTheEarlierTurnsAndAnswers() {
    // 3 turns of 100 prompt tokens and 2 answers of at most 50 before the last: 400 + max_tokens 50
    Map<String, String> props =
        Map.of("api", "completions", "input.len", "100", "output.len", "50", "turns", "3");
    PreparedWorkload fits = workload(props, server(ServerTokenizer.NONE, OptionalInt.empty(), 450));
    assertEquals(
        "450 tokens per request (test context); the last turn of a conversation needs up to 450",
        fits.prepare(NONE_PLANNED).get("context"));
    PreparedWorkload tooLong =
        workload(props, server(ServerTokenizer.NONE, OptionalInt.empty(), 449));
    DatasetException e = assertThrows(DatasetException.class, () -> tooLong.prepare(NONE_PLANNED));
    assertTrue(
        e.getMessage()
            .startsWith(
                "The last turn of a conversation (-Dturns=3) does not fit the server's context: 400 prompt"
                    + " tokens + max_tokens 50 = 450 tokens > 449 (test context); lower -Dturns, -Dinput.len,"),
        e.getMessage());
  }

  @Test
  void theChatTemplateCountsInTheLongestRequest() {
    Map<String, String> props = Map.of("dataset", "profiles");
    PreparedWorkload w =
        workload(props, server(new CharTokenizer(false, false), OptionalInt.of(7), 100_000));
    int longest =
        w.dataset().longestRequests().stream()
            .mapToInt(r -> r.promptText().length() + r.maxTokens())
            .max()
            .orElseThrow();
    assertEquals(
        "100000 tokens per request (test context); the longest request needs " + (longest + 7),
        w.prepare(NONE_PLANNED).get("context"));
  }

  @Test
  void warmupPromptsComeFromAnotherSeed() {
    PreparedWorkload w =
        workload(
            Map.of("api", "completions"), server(ServerTokenizer.NONE, OptionalInt.empty(), null));
    assertNotEquals(
        w.dataset().request(0, null).prompt(), w.warmupDataset().request(0, null).prompt());
    assertEquals(Optional.empty(), w.traceSendTimes());
    assertEquals(List.of(), w.sequentialProfiles());
  }

  @Test
  void profilesInOrderAreSentOneAfterAnother() {
    PreparedWorkload inOrder =
        workload(
            Map.of("dataset", "profiles"), server(ServerTokenizer.NONE, OptionalInt.empty(), null));
    assertEquals(((ProfilesDataset) inOrder.dataset()).names(), inOrder.sequentialProfiles());
    assertTrue(inOrder.prepare(NONE_PLANNED).get("lengths").startsWith("profiles "));
  }

  @Test
  void feederRecordsWithoutALocalTokenizerAreTheDatasetsOwn() {
    PreparedWorkload w =
        workload(
            Map.of("api", "completions"), server(ServerTokenizer.NONE, OptionalInt.empty(), null));
    RequestSpec unknownLength = RequestSpec.ofPrompt("some text", 10, null, -1);
    assertEquals(FeederRecords.of(unknownLength), w.feederRecord(unknownLength));
  }

  /**
   * Issue 62 item 2: a trace's request that cannot fit the context is refused before any of its
   * prompts is made: its 5,000,000-token prompt (35 MB of text) was built and sent to the server's
   * tokenizer as the workload was chosen, before the context check.
   */
  @Test
  void aTracesPromptsAreMadeOnlyAfterTheContextCheck(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("trace.jsonl");
    Files.writeString(
        trace, "{\"timestamp\": 0, \"input_length\": 5000000, \"output_length\": 10}\n");
    CharTokenizer chars = new CharTokenizer(false, false);
    PreparedWorkload w =
        workload(
            Map.of("api", "completions", "dataset", "trace:" + trace),
            server(chars, OptionalInt.empty(), 4096));
    DatasetException e = assertThrows(DatasetException.class, () -> w.prepare(NONE_PLANNED));
    assertTrue(
        e.getMessage().contains("5000000 prompt tokens + max_tokens 10 = 5000010 tokens > 4096"),
        e.getMessage());
    assertTrue(
        chars.longestText < 100_000, "the longest text counted: " + chars.longestText + " chars");
  }
}
