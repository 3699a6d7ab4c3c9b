package io.github.llmbench.workload;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A Hugging Face {@code tokenizer.json} on this machine ({@code -Dtokenizer}), read by the
 * tokenizers library (DJL's binding of Hugging Face's Rust tokenizers): counts, token ids and text
 * of ids without asking the server, as {@code vllm bench serve --tokenizer} does. Counts include
 * the special tokens the tokenizer adds (a BOS), as a server's {@code /tokenize} does; ids and
 * {@link #countText} leave them out. Nothing is downloaded: the file must be here.
 */
public final class LocalTokenizer implements ServerTokenizer, AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HuggingFaceTokenizer tokenizer;
  private final Path file;
  private final int vocabularySize;
  private final Map<Integer, String> pieces;

  private LocalTokenizer(
      HuggingFaceTokenizer tokenizer, Path file, int vocabularySize, Map<Integer, String> pieces) {
    this.tokenizer = tokenizer;
    this.file = file;
    this.vocabularySize = vocabularySize;
    this.pieces = pieces;
  }

  /**
   * Loads {@code tokenizer.json}, or the one in a model folder (a local Hugging Face snapshot).
   *
   * @throws DatasetException naming the path and what is accepted, when it is none of these
   */
  public static LocalTokenizer load(String pathOrId) {
    Path p = Path.of(pathOrId);
    Path file = Files.isDirectory(p) ? p.resolve("tokenizer.json") : p;
    if (!Files.isRegularFile(file)) {
      throw new DatasetException(
          "Invalid -Dtokenizer="
              + pathOrId
              + ": expected the path of a Hugging Face tokenizer.json, or of"
              + " a model folder holding one (e.g. a local snapshot: huggingface-cli download MODEL tokenizer.json --local-dir DIR);"
              + " nothing is downloaded at run time");
    }
    int vocabulary;
    Map<Integer, String> pieces;
    try {
      JsonNode root = JSON.readTree(file.toFile());
      JsonNode vocab = root.path("model").path("vocab");
      int added = 0;
      for (JsonNode t : root.path("added_tokens")) {
        added +=
            vocab.isObject() && vocab.has(t.path("content").asText())
                ? 0
                : 1; // special tokens often sit in the vocabulary too
      }
      vocabulary = vocab.size() + added;
      pieces = pieces(vocab, root.path("added_tokens"));
    } catch (IOException e) {
      throw new DatasetException(
          "Invalid -Dtokenizer="
              + pathOrId
              + ": "
              + file
              + " is not JSON ("
              + e.getMessage()
              + ")");
    }
    try {
      // no truncation: a prompt of 8,000 tokens is counted whole, whatever the model's max length
      HuggingFaceTokenizer t =
          HuggingFaceTokenizer.builder()
              .optTokenizerPath(file)
              .optTruncation(false)
              .optPadding(false)
              .build();
      return new LocalTokenizer(t, file, vocabulary, pieces);
    } catch (IOException | RuntimeException e) {
      throw new DatasetException(
          "Invalid -Dtokenizer="
              + pathOrId
              + ": the tokenizers library cannot read "
              + file
              + " ("
              + e.getMessage()
              + ")");
    }
  }

  /**
   * The model's vocabulary by id: an object of piece to id (BPE, WordPiece, WordLevel) or a list of
   * [piece, score] whose index is the id (Unigram); added tokens (special ones, a chat template's)
   * are left out, since no prompt may hold them.
   */
  private static Map<Integer, String> pieces(JsonNode vocab, JsonNode addedTokens) {
    Set<Integer> addedIds = new HashSet<>();
    Set<String> addedContents = new HashSet<>();
    for (JsonNode t : addedTokens) {
      addedIds.add(t.path("id").asInt(-1));
      addedContents.add(t.path("content").asText());
    }
    Map<Integer, String> out = new HashMap<>();
    if (vocab.isObject()) {
      vocab.properties().forEach(e -> out.put(e.getValue().asInt(), e.getKey()));
    } else if (vocab.isArray()) {
      for (int id = 0; id < vocab.size(); id++) {
        out.put(id, vocab.get(id).path(0).asText());
      }
    }
    out.keySet().removeAll(addedIds);
    out.values().removeAll(addedContents);
    return Map.copyOf(out);
  }

  @Override
  public Map<Integer, String> pieces() {
    return pieces;
  }

  @Override
  public String describe() {
    return "local " + file + " (vocabulary " + vocabularySize + ")";
  }

  @Override
  public OptionalInt count(String text) {
    return OptionalInt.of(tokenizer.encode(text, true, false).getIds().length);
  }

  /** Tokens of a text alone, without the special tokens a prompt gets (a generated answer's). */
  public int countText(String text) {
    return tokenizer.encode(text, false, false).getIds().length;
  }

  /**
   * The tokens of each chunk of {@code text} (chunk {@code i} ends at {@code ends[i]}, ascending),
   * from one encoding of the whole text: each token counts in the chunk its first character is in
   * (the last chunk takes any after its end), so the counts add up to {@link #countText}'s.
   */
  public int[] countPerChunk(String text, int[] ends) {
    Encoding e = tokenizer.encode(text, false, false);
    CharSpan[] spans = e.getCharTokenSpans();
    int[] out = new int[ends.length];
    if (ends.length == 0) {
      return out;
    }
    int chunk = 0;
    for (CharSpan span : spans) {
      int start = span == null ? -1 : span.getStart();
      while (start >= 0 && chunk < ends.length - 1 && start >= ends[chunk]) {
        chunk++;
      }
      out[chunk]++;
    }
    return out;
  }

  @Override
  public Optional<int[]> encode(String text) {
    Encoding e = tokenizer.encode(text, false, false);
    long[] ids = e.getIds();
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return Optional.of(out);
  }

  @Override
  public Optional<String> decode(int[] ids) {
    long[] l = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      l[i] = ids[i];
    }
    return Optional.of(tokenizer.decode(l, true));
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
