package io.github.llmbench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Requests read from a file, sent in an order shuffled by the seed (as vLLM samples its datasets),
 * starting over when all were sent.
 *
 * <ul>
 *   <li>JSONL ({@code .jsonl}): one object a line with {@code prompt} (text) or {@code messages}
 *       (OpenAI chat messages), and optionally {@code max_tokens}.
 *   <li>ShareGPT ({@code .json}): an array of {@code {"conversations":[{"from":"human","value":..},
 *       {"from":"gpt",...}]}}; the first human turn is the prompt (as vLLM's ShareGPT dataset). A
 *       multi-turn run ({@code -Dturns=N}) sends each conversation's own human turns, at most N.
 * </ul>
 *
 * Without {@code max_tokens}, a request asks for {@code output.len} tokens.
 */
public final class FileDataset implements Dataset {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<RequestSpec> requests;

  /** ShareGPT: each entry's human turns (the first is its request); null for JSONL. */
  private final List<List<RequestSpec>> conversations;

  private final List<Integer> order;
  private final long seed;

  private FileDataset(
      List<RequestSpec> requests, List<List<RequestSpec>> conversations, long seed) {
    this.requests = requests;
    this.conversations = conversations;
    this.seed = seed;
    List<Integer> o = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      o.add(i);
    }
    Collections.shuffle(o, new Random(seed));
    this.order = List.copyOf(o);
  }

  /**
   * Reads the file.
   *
   * @throws DatasetException for a missing or unreadable file, a malformed entry (with its line or
   *     entry number) or a file without any request
   */
  public static FileDataset read(Path file, int defaultMaxTokens, long seed) {
    String text = DatasetFiles.text(file, "-Ddataset=file:" + file);
    boolean shareGpt = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
    List<List<RequestSpec>> conversations =
        shareGpt ? shareGpt(file, text, defaultMaxTokens) : null;
    List<RequestSpec> requests =
        shareGpt
            ? conversations.stream().map(c -> c.get(0)).toList()
            : jsonl(file, text, defaultMaxTokens);
    if (requests.isEmpty()) {
      throw new DatasetException("Invalid -Ddataset=file:" + file + ": it holds no request");
    }
    return new FileDataset(requests, conversations, seed);
  }

  private static List<RequestSpec> jsonl(Path file, String text, int defaultMaxTokens) {
    List<RequestSpec> out = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = file + " line " + (i + 1);
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new DatasetException("Malformed dataset " + where + ": not a JSON object");
      }
      if (node == null || !node.isObject()) {
        throw new DatasetException("Malformed dataset " + where + ": not a JSON object");
      }
      int maxTokens = maxTokens(node, where, defaultMaxTokens);
      if (node.path("prompt").isTextual() && !node.get("prompt").asText().isEmpty()) {
        out.add(RequestSpec.ofPrompt(node.get("prompt").asText(), maxTokens, null, -1));
      } else if (node.path("messages").isArray() && !node.get("messages").isEmpty()) {
        List<RequestSpec.ChatMessage> messages = new ArrayList<>();
        for (JsonNode m : node.get("messages")) {
          RequestSpec.ChatMessage message =
              m.path("role").isTextual()
                  ? MessageContent.read(m.get("role").asText(), m.get("content"))
                  : null;
          if (message == null) {
            throw new DatasetException(
                "Malformed dataset "
                    + where
                    + ": each message needs a text \"role\" and a \"content\" that is "
                    + MessageContent.ACCEPTED);
          }
          messages.add(message);
        }
        out.add(new RequestSpec(null, messages, maxTokens, null, -1));
      } else {
        throw new DatasetException(
            "Malformed dataset "
                + where
                + ": expected a non-empty \"prompt\" text or \"messages\" array");
      }
    }
    return out;
  }

  private static List<List<RequestSpec>> shareGpt(Path file, String text, int defaultMaxTokens) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new DatasetException(
          "Malformed dataset " + file + ": not JSON (line " + e.getLocation().getLineNr() + ")");
    }
    if (root == null || !root.isArray()) {
      throw new DatasetException(
          "Malformed dataset " + file + ": expected a ShareGPT array of conversations");
    }
    List<List<RequestSpec>> out = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode turns = root.get(i).path("conversations");
      if (!turns.isArray()) {
        throw new DatasetException(
            "Malformed dataset " + file + " entry " + (i + 1) + ": no \"conversations\" array");
      }
      List<RequestSpec> human = new ArrayList<>();
      for (JsonNode t : turns) {
        if ("human".equals(t.path("from").asText())
            && t.path("value").isTextual()
            && !t.get("value").asText().isEmpty()) {
          human.add(RequestSpec.ofPrompt(t.get("value").asText(), defaultMaxTokens, null, -1));
        }
      }
      if (!human.isEmpty()) {
        out.add(List.copyOf(human));
      }
    }
    return out;
  }

  private static int maxTokens(JsonNode node, String where, int defaultMaxTokens) {
    JsonNode m = node.get("max_tokens");
    if (m == null || m.isNull()) {
      return defaultMaxTokens;
    }
    try {
      return TokenLengths.field(node, "max_tokens", 1);
    } catch (IllegalArgumentException e) {
      throw new DatasetException("Malformed dataset " + where + ": " + e.getMessage());
    }
  }

  public int size() {
    return requests.size();
  }

  @Override
  public RequestSpec request(long index, String profile) {
    return requests.get(order.get((int) (index % requests.size())));
  }

  /** ShareGPT: the entry's own human turns, at most {@code turns}; JSONL: consecutive lines. */
  @Override
  public List<RequestSpec> conversation(long index, String profile, int turns) {
    if (conversations == null) {
      return Dataset.super.conversation(index, profile, turns);
    }
    List<RequestSpec> own = conversations.get(order.get((int) (index % requests.size())));
    return own.subList(0, Math.min(turns, own.size()));
  }

  @Override
  public int maxTokens() {
    return requests.stream().mapToInt(RequestSpec::maxTokens).max().orElse(1);
  }

  /**
   * The {@value #LONGEST_CANDIDATES} entries with the longest text plus {@code max_tokens} (a token
   * is a few characters, so the longest in tokens is among them), counted by the server before the
   * load.
   */
  @Override
  public List<RequestSpec> longestRequests() {
    return requests.stream()
        .sorted(
            Comparator.comparingLong(
                    (RequestSpec r) -> r.promptText().length() + (long) r.maxTokens())
                .reversed())
        .limit(LONGEST_CANDIDATES)
        .toList();
  }

  static final int LONGEST_CANDIDATES = 5;

  @Override
  public Dataset withSeed(long newSeed) {
    return new FileDataset(requests, conversations, newSeed);
  }
}
