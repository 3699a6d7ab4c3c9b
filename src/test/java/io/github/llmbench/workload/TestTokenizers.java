package io.github.llmbench.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;

/** Hugging Face tokenizer.json files the tests build themselves. */
public final class TestTokenizers {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestTokenizers() {}

  /**
   * A character-level tokenizer: every character of printable ASCII (and of {@code extra}) is one
   * token, others are {@code [UNK]}; no word is one token, so exact prompts need token ids.
   */
  public static Path characters(Path dir, String extra) throws IOException {
    return characters(dir, extra, true);
  }

  /**
   * The same character-level tokenizer with {@code "decoder": null}, as many WordLevel files have:
   * the tokenizers library then joins decoded tokens with spaces ("a b" comes back "a b"), so the
   * text of token ids does not re-count to as many tokens.
   */
  public static Path charactersWithoutDecoder(Path dir) throws IOException {
    return characters(dir, "", false);
  }

  private static Path characters(Path dir, String extra, boolean fuseDecoder) throws IOException {
    ObjectNode vocab = JSON.createObjectNode();
    vocab.put("[UNK]", 0);
    StringBuilder chars = new StringBuilder();
    for (char c = 32; c < 127; c++) {
      chars.append(c);
    }
    chars.append(extra);
    chars
        .codePoints()
        .distinct()
        .forEach(
            cp -> {
              String s = new String(Character.toChars(cp));
              if (!vocab.has(s)) {
                vocab.put(s, vocab.size());
              }
            });
    ObjectNode root = JSON.createObjectNode();
    root.put("version", "1.0");
    root.putNull("truncation");
    root.putNull("padding");
    ArrayNode added = root.putArray("added_tokens");
    ObjectNode unk = added.addObject();
    unk.put("id", 0)
        .put("content", "[UNK]")
        .put("single_word", false)
        .put("lstrip", false)
        .put("rstrip", false)
        .put("normalized", false)
        .put("special", true);
    root.putNull("normalizer");
    ObjectNode split = root.putObject("pre_tokenizer");
    split.put("type", "Split");
    split.putObject("pattern").put("Regex", ".");
    split.put("behavior", "Isolated").put("invert", false);
    root.putNull("post_processor");
    if (fuseDecoder) {
      root.putObject("decoder").put("type", "Fuse");
    } else {
      root.putNull("decoder");
    }
    ObjectNode model = root.putObject("model");
    model.put("type", "WordLevel");
    model.set("vocab", vocab);
    model.put("unk_token", "[UNK]");
    Path file = dir.resolve("tokenizer.json");
    JSON.writeValue(file.toFile(), root);
    return file;
  }

  /** A word-level tokenizer: every word (and punctuation mark) one token, known or not. */
  public static Path words(Path dir) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", "1.0");
    root.putNull("truncation");
    root.putNull("padding");
    root.putArray("added_tokens");
    root.putNull("normalizer");
    root.putObject("pre_tokenizer").put("type", "Whitespace");
    root.putNull("post_processor");
    root.putObject("decoder").put("type", "WordPiece").put("prefix", "##").put("cleanup", true);
    ObjectNode model = root.putObject("model");
    model.put("type", "WordLevel");
    model.putObject("vocab").put("[UNK]", 0).put("the", 1);
    model.put("unk_token", "[UNK]");
    Path file = dir.resolve("tokenizer.json");
    JSON.writeValue(file.toFile(), root);
    return file;
  }
}
