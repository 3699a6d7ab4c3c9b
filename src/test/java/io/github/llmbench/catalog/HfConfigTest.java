package io.github.llmbench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class HfConfigTest {

  /** Qwen/Qwen2.5-7B-Instruct's config.json (the fields that matter, as published). */
  public static final String QWEN_7B =
      """
      {
        "architectures": ["Qwen2ForCausalLM"],
        "attention_dropout": 0.0,
        "bos_token_id": 151643,
        "eos_token_id": 151645,
        "hidden_act": "silu",
        "hidden_size": 3584,
        "initializer_range": 0.02,
        "intermediate_size": 18944,
        "max_position_embeddings": 32768,
        "max_window_layers": 28,
        "model_type": "qwen2",
        "num_attention_heads": 28,
        "num_hidden_layers": 28,
        "num_key_value_heads": 4,
        "rms_norm_eps": 1e-06,
        "rope_theta": 1000000.0,
        "sliding_window": 131072,
        "tie_word_embeddings": false,
        "torch_dtype": "bfloat16",
        "transformers_version": "4.43.1",
        "use_cache": true,
        "use_sliding_window": false,
        "vocab_size": 152064
      }
      """;

  @Test
  void qwen7bConfigMatchesTheCatalog(@TempDir Path dir) throws Exception {
    Path folder = dir.resolve("Qwen2.5-7B-Instruct");
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("config.json"), QWEN_7B);
    ModelSpec m = HfConfig.read(folder.resolve("config.json"));
    ModelSpec c = Catalog.model("qwen2.5-7b-instruct");
    assertEquals(folder.resolve("config.json").toString(), m.id());
    assertEquals("Qwen2.5-7B-Instruct", m.hfId());
    assertEquals(3584, m.hiddenSize());
    assertEquals(28, m.numLayers());
    assertEquals(28, m.numHeads());
    assertEquals(4, m.numKvHeads());
    assertEquals(128, m.headDim());
    assertEquals(18944, m.intermediateSize());
    assertEquals(152064, m.vocabSize());
    assertFalse(m.tieWordEmbeddings());
    assertTrue(m.qkvBias());
    assertEquals(2, m.dtypeBytes());
    assertEquals(32768, m.maxModelLen());
    assertEquals(c.parameters(), m.parameters());
    assertEquals(c.weightBytes(), m.weightBytes());
    assertEquals(57_344L, m.kvBytesPerToken());
    // a folder works too
    assertEquals(c.parameters(), HfConfig.read(folder).parameters());
  }

  @Test
  void llamaLikeConfigHasNoBiasAndHonoursHeadDim() {
    String llama =
        """
        {"_name_or_path": "meta-llama/Llama-3.1-8B-Instruct", "model_type": "llama",
         "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
         "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
         "attention_bias": false, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
         "max_position_embeddings": 131072}
        """;
    ModelSpec m = HfConfig.parse(llama, "x/config.json", "x");
    assertEquals("meta-llama/Llama-3.1-8B-Instruct", m.hfId());
    assertFalse(m.qkvBias());
    assertEquals(Catalog.model("llama-3.1-8b-instruct").parameters(), m.parameters());
    ModelSpec withHeadDim =
        HfConfig.parse(
            llama
                .replace("\"vocab_size\"", "\"head_dim\": 256," + " \"vocab_size\"")
                .replace("bfloat16", "float32"),
            "y",
            "y");
    assertEquals(256, withHeadDim.headDim());
    assertEquals(4, withHeadDim.dtypeBytes());
  }

  @Test
  void missingOrBadFieldsAreNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HfConfig.parse("{\"hidden_size\": 8}", "cfg.json", "cfg"));
    assertTrue(e.getMessage().contains("'num_hidden_layers'"), e.getMessage());
    String bad = QWEN_7B.replace("bfloat16", "int3");
    e = assertThrows(IllegalArgumentException.class, () -> HfConfig.parse(bad, "cfg.json", "c"));
    assertTrue(e.getMessage().contains("torch_dtype 'int3'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HfConfig.parse("[1]", "cfg.json", "c"));
  }
}
