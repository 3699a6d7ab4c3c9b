package io.github.llmbench.catalog;

/**
 * Architecture of a decoder-only transformer, as read from its Hugging Face {@code config.json}.
 *
 * <p>Plain data plus derived sizes; it knows nothing about simulation or timing.
 *
 * @param id catalog id, e.g. {@code qwen2.5-7b-instruct}
 * @param hfId Hugging Face repository id, e.g. {@code Qwen/Qwen2.5-7B-Instruct}
 * @param hiddenSize {@code hidden_size}
 * @param numLayers {@code num_hidden_layers}
 * @param numHeads {@code num_attention_heads}
 * @param numKvHeads {@code num_key_value_heads} (GQA)
 * @param headDim per-head dimension (hidden_size / num_attention_heads unless the config says
 *     otherwise)
 * @param intermediateSize {@code intermediate_size} of the SwiGLU MLP
 * @param vocabSize {@code vocab_size}
 * @param tieWordEmbeddings {@code tie_word_embeddings}: lm_head shares the embedding matrix
 * @param qkvBias whether the q, k, v projections carry a bias (Qwen2: yes; Llama: no)
 * @param dtypeBytes bytes per weight / KV element (2 for bf16/fp16)
 * @param maxModelLen context length vLLM serves by default ({@code max_position_embeddings})
 * @param visionPatchPixels the side in pixels of the square of an image that becomes one of the
 *     language model's tokens: {@code vision_config.patch_size} x {@code spatial_merge_size} (28
 *     for Qwen2.5-VL); 0 for a model that takes no images
 */
public record ModelSpec(
    String id,
    String hfId,
    int hiddenSize,
    int numLayers,
    int numHeads,
    int numKvHeads,
    int headDim,
    int intermediateSize,
    int vocabSize,
    boolean tieWordEmbeddings,
    boolean qkvBias,
    int dtypeBytes,
    int maxModelLen,
    int visionPatchPixels) {

  /** A text-only model. */
  public ModelSpec(
      String id,
      String hfId,
      int hiddenSize,
      int numLayers,
      int numHeads,
      int numKvHeads,
      int headDim,
      int intermediateSize,
      int vocabSize,
      boolean tieWordEmbeddings,
      boolean qkvBias,
      int dtypeBytes,
      int maxModelLen) {
    this(
        id,
        hfId,
        hiddenSize,
        numLayers,
        numHeads,
        numKvHeads,
        headDim,
        intermediateSize,
        vocabSize,
        tieWordEmbeddings,
        qkvBias,
        dtypeBytes,
        maxModelLen,
        0);
  }

  /**
   * The language model's tokens of an image of {@code width} x {@code height} pixels: its sides
   * rounded to whole patches, as Qwen2-VL's processor resizes ({@code smart_resize}), at least one
   * patch each and at most {@link #MAX_IMAGE_TOKENS} in all (the processor's {@code max_pixels}); 0
   * for a text-only model.
   */
  public int imageTokens(int width, int height) {
    if (visionPatchPixels == 0) {
      return 0;
    }
    long across = Math.max(1, Math.round(width / (double) visionPatchPixels));
    long down = Math.max(1, Math.round(height / (double) visionPatchPixels));
    long tokens = across * down;
    if (tokens > MAX_IMAGE_TOKENS) { // scaled down, keeping the aspect, to fit
      double scale = Math.sqrt(MAX_IMAGE_TOKENS / (double) tokens);
      tokens =
          Math.max(1, (long) Math.floor(across * scale))
              * Math.max(1, (long) Math.floor(down * scale));
    }
    return (int) tokens;
  }

  /** Qwen2-VL's default {@code max_pixels} (12845056 = 16384 x 28 x 28) in tokens. */
  public static final int MAX_IMAGE_TOKENS = 16384;

  /**
   * Number of parameters: embeddings, attention (q, k, v, o + biases), SwiGLU MLP, RMSNorms,
   * lm_head unless tied.
   */
  public long parameters() {
    long h = hiddenSize;
    long qDim = (long) numHeads * headDim;
    long kvDim = (long) numKvHeads * headDim;
    long embedding = (long) vocabSize * h;
    long attention = h * qDim + 2 * h * kvDim + qDim * h + (qkvBias ? qDim + 2 * kvDim : 0);
    long mlp = 3 * h * intermediateSize; // gate, up, down
    long norms = 2 * h; // input + post-attention RMSNorm
    long perLayer = attention + mlp + norms;
    long lmHead = tieWordEmbeddings ? 0 : (long) vocabSize * h;
    return embedding + numLayers * perLayer + h /* final norm */ + lmHead;
  }

  /** Bytes of all weights at {@link #dtypeBytes()} per parameter. */
  public long weightBytes() {
    return parameters() * dtypeBytes;
  }

  /**
   * KV-cache bytes per token: K and V, every layer, every KV head: 2 x layers x kv_heads x head_dim
   * x dtype bytes.
   */
  public long kvBytesPerToken() {
    return 2L * numLayers * numKvHeads * headDim * dtypeBytes;
  }
}
