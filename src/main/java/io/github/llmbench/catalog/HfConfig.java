package io.github.llmbench.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A {@link ModelSpec} from a Hugging Face {@code config.json} (Llama, Qwen2, Mistral and other
 * decoder-only layouts).
 *
 * <p>Read: {@code hidden_size}, {@code num_hidden_layers}, {@code num_attention_heads} (required);
 * {@code num_key_value_heads} (default: the attention heads), {@code head_dim} (default:
 * hidden_size / heads), {@code intermediate_size} (required), {@code vocab_size} (required), {@code
 * tie_word_embeddings} (default false), {@code torch_dtype} or {@code dtype} (bfloat16, float16: 2
 * bytes; float32: 4; float8 / int8: 1; default 2), {@code max_position_embeddings} (default 4096),
 * and q/k/v bias: {@code attention_bias} when present, else true for the Qwen2 family ({@code
 * model_type} qwen2*), false otherwise. A config that nests the text model under {@code
 * text_config} is read from there. The id is the file path; the Hugging Face id is {@code
 * _name_or_path} when present, else the folder name.
 */
public final class HfConfig {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private HfConfig() {}

  /** Whether a model setting is a path to a Hugging Face config.json rather than a catalog id. */
  public static boolean isConfigPath(String model) {
    return model != null
        && !Catalog.models().containsKey(model)
        && (model.endsWith(".json") || model.contains("/") || model.contains(File.separator))
        && Files.exists(Path.of(model));
  }

  /** Parses the file ({@code config.json}, or a folder holding one). */
  public static ModelSpec read(Path path) {
    Path file = Files.isDirectory(path) ? path.resolve("config.json") : path;
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    Path parent = file.toAbsolutePath().getParent();
    String folder =
        parent != null && parent.getFileName() != null
            ? parent.getFileName().toString()
            : file.toString();
    return parse(text, file.toString(), folder);
  }

  /**
   * Parses config.json text.
   *
   * @param id the ModelSpec id (the file path, for a re-do to find it again)
   * @param fallbackName the Hugging Face id when the config has no {@code _name_or_path}
   */
  public static ModelSpec parse(String json, String id, String fallbackName) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(id + " is not valid JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(id + " is not a JSON object");
    }
    JsonNode c =
        root.has("text_config") && root.get("text_config").isObject() && !root.has("hidden_size")
            ? root.get("text_config")
            : root;
    int hidden = required(c, "hidden_size", id);
    int layers = required(c, "num_hidden_layers", id);
    int heads = required(c, "num_attention_heads", id);
    int kvHeads = optional(c, "num_key_value_heads", heads, id);
    int headDim = optional(c, "head_dim", hidden / heads, id);
    int intermediate = required(c, "intermediate_size", id);
    int vocab = required(c, "vocab_size", id);
    boolean tied =
        c.path("tie_word_embeddings").asBoolean(root.path("tie_word_embeddings").asBoolean(false));
    String dtype =
        c.hasNonNull("torch_dtype")
            ? c.get("torch_dtype").asText()
            : c.hasNonNull("dtype")
                ? c.get("dtype").asText()
                : root.path("torch_dtype").asText("bfloat16");
    String modelType = c.path("model_type").asText(root.path("model_type").asText(""));
    boolean bias =
        c.has("attention_bias")
            ? c.get("attention_bias").asBoolean()
            : modelType.toLowerCase(Locale.ROOT).startsWith("qwen2");
    int maxLen = optional(c, "max_position_embeddings", 4096, id);
    String name =
        root.hasNonNull("_name_or_path") && !root.get("_name_or_path").asText().isBlank()
            ? root.get("_name_or_path").asText()
            : fallbackName;
    return new ModelSpec(
        id,
        name,
        hidden,
        layers,
        heads,
        kvHeads,
        headDim,
        intermediate,
        vocab,
        tied,
        bias,
        dtypeBytes(dtype, id),
        maxLen,
        visionPatchPixels(root));
  }

  /**
   * {@code vision_config.patch_size} x {@code spatial_merge_size} (the merge 1 where not given), or
   * 0 for a config without a vision tower.
   */
  static int visionPatchPixels(JsonNode root) {
    JsonNode vision = root.path("vision_config");
    int patch = vision.path("patch_size").asInt(0);
    return patch <= 0 ? 0 : patch * Math.max(1, vision.path("spatial_merge_size").asInt(1));
  }

  /** Bytes per element of a torch dtype name. */
  static int dtypeBytes(String dtype, String id) {
    String d = dtype.toLowerCase(Locale.ROOT).replace("torch.", "");
    if (d.equals("bfloat16")
        || d.equals("float16")
        || d.equals("half")
        || d.equals("bf16")
        || d.equals("fp16")) {
      return 2;
    }
    if (d.equals("float32") || d.equals("float") || d.equals("fp32")) {
      return 4;
    }
    if (d.startsWith("float8") || d.equals("int8") || d.equals("uint8") || d.equals("fp8")) {
      return 1;
    }
    throw new IllegalArgumentException(
        id
            + ": unsupported torch_dtype '"
            + dtype
            + "'; expected bfloat16, float16, float32 or float8/int8");
  }

  private static int required(JsonNode c, String field, String id) {
    JsonNode v = c.get(field);
    if (v == null || !v.canConvertToInt() || v.asInt() < 1) {
      throw new IllegalArgumentException(
          id + ": missing or invalid '" + field + "' (expected a positive whole number)");
    }
    return v.asInt();
  }

  private static int optional(JsonNode c, String field, int dflt, String id) {
    JsonNode v = c.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.canConvertToInt() || v.asInt() < 1) {
      throw new IllegalArgumentException(
          id + ": invalid '" + field + "' (expected a positive whole number): " + v);
    }
    return v.asInt();
  }
}
