package io.github.llmbench.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.llmbench.settings.LoadSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * A recorded trace in Mooncake's format, to replay at its times: one JSON object a line, {@code
 * {"timestamp": ms, "input_length": n, "output_length": m, "hash_ids": [...]}}. Request {@code i}
 * is the trace's {@code i}-th line by time, with a prompt of {@code input_length} tokens and {@code
 * max_tokens} = {@code output_length}.
 *
 * <p>Prefix sharing is reproduced as Mooncake records it: the prompt is cut into blocks of {@value
 * #BLOCK_TOKENS} tokens, block {@code j} belonging to {@code hash_ids[j]}, and equal ids get equal
 * text (drawn from the id and the seed), so two requests that share their first ids share that
 * prefix, token for token. A block beyond the line's ids gets text of its own. The text is made of
 * words whose token counts were measured with the server's tokenizer ({@link RandomDataset}'s words
 * method), on the fly.
 */
public final class TraceDataset implements Dataset {
  /** Mooncake's block size: one hash id per 512 tokens of prompt. */
  public static final int BLOCK_TOKENS = 512;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long BLOCK_SALT = 0xB10C_5EED_0000_0003L;

  /**
   * One line of the trace.
   *
   * @param offsetMs its time from the trace's first request, in ms
   */
  public record Entry(double offsetMs, int inputLength, int outputLength, long[] hashIds) {}

  private final List<Entry> entries;
  private final RandomDataset words;
  private final long seed;

  private TraceDataset(List<Entry> entries, RandomDataset words, long seed) {
    this.entries = entries;
    this.words = words;
    this.seed = seed;
  }

  /**
   * Reads the trace, before the server is asked anything.
   *
   * @throws DatasetException naming the file, the line and what is wrong (a missing {@code
   *     timestamp}, a length outside {@link TokenLengths}' range, a line that is not JSON), or a
   *     file without any line
   */
  public static List<Entry> read(Path file) {
    String where = "-Ddataset=trace:" + file;
    List<String> lines = DatasetFiles.text(file, where).lines().toList();
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (!line.isEmpty()) {
        out.add(entry(line, "Malformed trace " + file + " line " + (i + 1)));
      }
    }
    if (out.isEmpty()) {
      throw new DatasetException("Invalid " + where + ": it holds no request");
    }
    // the replay goes by time; Mooncake's traces are in order already
    out.sort(Comparator.comparingDouble(Entry::offsetMs));
    double first = out.get(0).offsetMs();
    return out.stream()
        .map(e -> new Entry(e.offsetMs() - first, e.inputLength(), e.outputLength(), e.hashIds()))
        .toList();
  }

  private static Entry entry(String line, String where) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new DatasetException(where + ": not a JSON object");
    }
    if (node == null || !node.isObject()) {
      throw new DatasetException(where + ": not a JSON object");
    }
    JsonNode ts = node.get("timestamp");
    if (ts == null || !ts.isNumber() || !Double.isFinite(ts.asDouble()) || ts.asDouble() < 0) {
      throw new DatasetException(
          where
              + ": "
              + (ts == null ? "no \"timestamp\"" : "\"timestamp\" is " + ts)
              + " (expected the request's time in ms, a number from 0)");
    }
    int input = length(node, "input_length", where);
    int output = length(node, "output_length", where);
    JsonNode ids = node.get("hash_ids");
    long[] hashIds = new long[0];
    if (ids != null && !ids.isNull()) {
      if (!ids.isArray()) {
        throw new DatasetException(
            where + ": \"hash_ids\" is " + ids + " (expected an array of whole numbers)");
      }
      hashIds = new long[ids.size()];
      for (int j = 0; j < ids.size(); j++) {
        if (!ids.get(j).isIntegralNumber() || !ids.get(j).canConvertToLong()) {
          throw new DatasetException(
              where + ": \"hash_ids\" holds " + ids.get(j) + " (expected whole numbers)");
        }
        hashIds[j] = ids.get(j).asLong();
      }
    }
    return new Entry(ts.asDouble(), input, output, hashIds);
  }

  private static int length(JsonNode node, String name, String where) {
    try {
      return TokenLengths.field(node, name, 1);
    } catch (IllegalArgumentException e) {
      throw new DatasetException(where + ": " + e.getMessage());
    }
  }

  /**
   * Refuses a replay that would take longer than {@code -Dduration} may: the span of {@code lines}
   * (as {@link #read} gives them) at {@code speed}, e.g. timestamps in ns read as ms, or a {@code
   * -Dtrace.speed} of 1e-9.
   *
   * @throws DatasetException naming the file, its span, the speed and what is accepted
   */
  public static void checkReplayTime(List<Entry> lines, double speed, Path file) {
    double spanS = lines.get(lines.size() - 1).offsetMs() / 1000;
    double seconds = spanS / speed;
    if (seconds <= LoadSettings.MAX_SECONDS) {
      return;
    }
    throw new DatasetException(
        String.format(
            Locale.ROOT,
            "Invalid -Ddataset=trace:%s: its requests span %.3g s, sent over %.3g s at"
                + " -Dtrace.speed=%s (expected a replay of at most %d s, -Dduration's limit: the"
                + " timestamps in ms, a higher -Dtrace.speed, or -Dprompts=N for the first N)",
            file,
            spanS,
            seconds,
            speed,
            LoadSettings.MAX_SECONDS));
  }

  /**
   * The trace's requests with prompts made of {@code words}' measured words.
   *
   * @param words the random dataset whose word counts make the text exact (its other settings are
   *     not used)
   */
  public static TraceDataset of(List<Entry> entries, RandomDataset words, long seed) {
    return new TraceDataset(List.copyOf(entries), words, seed);
  }

  public int size() {
    return entries.size();
  }

  public List<Entry> entries() {
    return entries;
  }

  /** Distinct blocks the trace's ids name (what a prefix cache could share). */
  public int distinctBlocks() {
    Set<Long> ids = new HashSet<>();
    entries.forEach(
        e -> {
          for (long id : e.hashIds()) {
            ids.add(id);
          }
        });
    return ids.size();
  }

  /** From the first request to the last, in ms. */
  public double spanMs() {
    return entries.get(entries.size() - 1).offsetMs();
  }

  /** The send times, in s from the first request, divided by {@code speed}. */
  public List<Double> sendTimesSeconds(double speed) {
    return entries.stream().map(e -> e.offsetMs() / 1000.0 / speed).toList();
  }

  @Override
  public RequestSpec request(long index, String profile) {
    Entry e = entries.get((int) (index % entries.size()));
    int blocks = (int) ((e.inputLength() + (long) BLOCK_TOKENS - 1) / BLOCK_TOKENS);
    // a token is a few characters: room for that, the builder grows past it if need be
    StringBuilder prompt = new StringBuilder((int) Math.min(7L * e.inputLength(), 1 << 24));
    for (int j = 0; j < blocks; j++) {
      int tokens = Math.min(BLOCK_TOKENS, e.inputLength() - j * BLOCK_TOKENS);
      // a block the line names no id for is the line's own: no other request draws that text
      long textSeed =
          j < e.hashIds().length
              ? seed ^ BLOCK_SALT ^ (e.hashIds()[j] * 0x9E3779B97F4A7C15L)
              : seed ^ ~BLOCK_SALT ^ ((index % entries.size()) * 0x9E3779B97F4A7C15L + j);
      if (j > 0) {
        prompt.append(' ');
      }
      prompt.append(words.words(tokens, new Random(textSeed), j == 0));
    }
    return RequestSpec.ofPrompt(prompt.toString(), e.outputLength(), profile, e.inputLength());
  }

  @Override
  public int maxTokens() {
    return entries.stream().mapToInt(Entry::outputLength).max().orElse(1);
  }

  @Override
  public List<RequestSpec> longestRequests() {
    Entry longest =
        entries.stream()
            .max(Comparator.comparingLong(e -> (long) e.inputLength() + e.outputLength()))
            .orElseThrow();
    return List.of(RequestSpec.ofPrompt("", longest.outputLength(), null, longest.inputLength()));
  }

  @Override
  public TraceDataset withSeed(long newSeed) {
    return new TraceDataset(entries, words, newSeed);
  }
}
