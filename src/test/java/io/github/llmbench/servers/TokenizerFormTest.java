package io.github.llmbench.servers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Each server's tokenizer form against scripted answers: what it sends, what it reads. */
class TokenizerFormTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Answers each path with a fixed JSON text (none: empty) and keeps what was sent. */
  private static final class Scripted implements TokenizerForm.JsonPost {
    final Map<String, String> answers;
    final List<String> sent = new ArrayList<>();

    Scripted(Map<String, String> answers) {
      this.answers = answers;
    }

    @Override
    public Optional<JsonNode> post(String path, JsonNode body) {
      sent.add(path + " " + body);
      String a = answers.get(path);
      try {
        return a == null ? Optional.empty() : Optional.of(JSON.readTree(a));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static TokenizerForm form(ServerProfile p) {
    return p.tokenizer().orElseThrow();
  }

  @Test
  void vllmCountsByCountAndDecodesPromptOrText() {
    Scripted s =
        new Scripted(
            Map.of(
                "/tokenize",
                "{\"count\":3,\"tokens\":[5,6,7]}",
                "/detokenize",
                "{\"text\":\"a\"}"));
    TokenizerForm f = form(ServerProfiles.VLLM);
    assertEquals(OptionalInt.of(3), f.count(s, "m", "hi"));
    assertArrayEquals(new int[] {5, 6, 7}, f.encode(s, "m", "hi").orElseThrow());
    assertEquals(Optional.of("a"), f.decode(s, "m", new int[] {5}));
    assertEquals(
        List.of(
            "/tokenize {\"model\":\"m\",\"prompt\":\"hi\"}",
            "/tokenize {\"model\":\"m\",\"prompt\":\"hi\",\"add_special_tokens\":false}",
            "/detokenize {\"model\":\"m\",\"tokens\":[5]}"),
        s.sent);
  }

  @Test
  void llamaCppCountsItsOwnFormOnlyAndTemplatesThroughApplyTemplate() {
    TokenizerForm f = form(ServerProfiles.LLAMACPP);
    assertEquals(
        OptionalInt.empty(), f.count(new Scripted(Map.of("/tokenize", "{\"count\":3}")), "m", "x"));
    Scripted s =
        new Scripted(
            Map.of(
                "/tokenize", "{\"tokens\":[1,2,3,4]}", "/apply-template", "{\"prompt\":\"<u>x\"}"));
    assertEquals(OptionalInt.of(4), f.count(s, "m", "x"));
    assertEquals(OptionalInt.of(4), f.templatedChatTokens(s, "m", "x"));
    assertEquals(
        "/tokenize {\"content\":\"<u>x\",\"add_special\":true,\"parse_special\":true}",
        s.sent.get(s.sent.size() - 1));
  }

  @Test
  void tgiReadsAListOfTokensAndHasNoDetokenize() {
    Scripted s = new Scripted(Map.of("/tokenize", "[{\"id\":9,\"text\":\"a\"},{\"id\":8}]"));
    TokenizerForm f = form(ServerProfiles.TGI);
    assertEquals(OptionalInt.of(2), f.count(s, "m", "ab"));
    assertArrayEquals(new int[] {9, 8}, f.encode(s, "m", "ab").orElseThrow());
    assertEquals(Optional.empty(), f.decode(s, "m", new int[] {9}));
    assertEquals(2, s.sent.size());
    assertEquals(
        OptionalInt.empty(), f.count(new Scripted(Map.of("/tokenize", "{\"count\":3}")), "m", "x"));
  }
}
