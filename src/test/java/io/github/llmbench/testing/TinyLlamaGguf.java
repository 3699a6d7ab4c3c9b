package io.github.llmbench.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Writes a llama-architecture GGUF model with random weights and a small SentencePiece-style
 * vocabulary, for running llama.cpp's {@code llama-server} in tests: no model is downloaded.
 *
 * <p>The file follows ggml's {@code docs/gguf.md} (version 3, little-endian): header ({@code GGUF},
 * version, tensor count, metadata count), metadata key/values, tensor infos (name, dimensions
 * innermost first, type, offset into the data section), padding to {@code general.alignment}, then
 * the tensors' data, each at an aligned offset. All tensors are F32.
 *
 * <p>The vocabulary: {@code <unk>}, {@code <s>}, {@code </s>}, the 256 byte tokens {@code <0xNN>}
 * (so any text can be tokenized), the printable ASCII characters, and common English words with all
 * their prefixes (SentencePiece merges pairs of adjacent pieces only into pieces of the vocabulary,
 * so a word is reachable only through its prefixes), each with the word-start mark {@code ▁}.
 *
 * <p>Generation must yield exactly one piece of visible text per token, so that the server sends
 * one text chunk per token: the special, byte and whitespace-only tokens are made unreachable.
 * Every token embedding has a large constant in dimension 0, which survives the small random layers
 * and RMS normalisation as a large positive hidden dimension 0; the output rows of the excluded
 * tokens have a large negative weight there (logit about -40), the others zero.
 *
 * <p>Speed is set by the size: {@link Shape#DEFAULT} (6 layers, width 384, 48 MB) runs at a few
 * hundred tokens/s for one stream on a 2-core CPU, giving inter-token latencies of a few ms.
 */
public final class TinyLlamaGguf {

  /** The model's dimensions. */
  public record Shape(int layers, int embedding, int feedForward, int heads, int context) {
    public static final Shape DEFAULT = new Shape(6, 384, 1152, 6, 4096);
  }

  /**
   * The vocabulary's kind: {@link #WORDS} (common English words and their prefixes, so most words
   * are one token, as with real BPE vocabularies) or {@link #CHARACTERS} (bytes and single
   * characters only, so no word is one token: a byte-level vocabulary without merges, where prompts
   * of an exact length cannot be made of whole words).
   */
  public enum Vocabulary {
    WORDS,
    CHARACTERS
  }

  /** Bumped whenever the file written for a shape changes (vocabulary, weights, metadata). */
  public static final int VERSION = 1;

  private static final int ALIGNMENT = 32;
  private static final int TYPE_UINT32 = 4;
  private static final int TYPE_INT32 = 5;
  private static final int TYPE_FLOAT32 = 6;
  private static final int TYPE_BOOL = 7;
  private static final int TYPE_STRING = 8;
  private static final int TYPE_ARRAY = 9;
  private static final int GGML_F32 = 0;
  // llama.cpp's token types
  private static final int TOKEN_NORMAL = 1;
  private static final int TOKEN_UNKNOWN = 2;
  private static final int TOKEN_CONTROL = 3;
  private static final int TOKEN_BYTE = 6;

  static final String CHATML =
      "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content']"
          + " + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

  private static final String WORDS =
      "the of and a to in is that for it as with was on be by this are at from or an which one have"
          + " not but all can more when will each first time how many fast token model server request"
          + " answer user batch step memory weight rate measure latency stream queue load test word"
          + " text number engine result value report while after before every most some other same";

  private TinyLlamaGguf() {}

  /** {@code java ... TinyLlamaGguf OUT.gguf [layers embedding feedForward heads]} */
  public static void main(String[] args) throws IOException {
    Shape d = Shape.DEFAULT;
    Shape shape =
        args.length >= 5
            ? new Shape(
                Integer.parseInt(args[1]),
                Integer.parseInt(args[2]),
                Integer.parseInt(args[3]),
                Integer.parseInt(args[4]),
                d.context())
            : d;
    Path out = Path.of(args.length > 0 ? args[0] : "target/tiny-llama.gguf");
    write(out, shape, 42);
    System.out.println("wrote " + out + " (" + Files.size(out) + " bytes, " + shape + ")");
  }

  /** The vocabulary's pieces, in id order (0 unk, 1 bos, 2 eos, then bytes, chars, words). */
  static List<String> vocabulary() {
    return vocabulary(Vocabulary.WORDS);
  }

  /** The vocabulary's pieces of a kind, in id order. */
  static List<String> vocabulary(Vocabulary kind) {
    Set<String> pieces = new LinkedHashSet<>(List.of("<unk>", "<s>", "</s>"));
    for (int b = 0; b < 256; b++) {
      pieces.add(String.format(Locale.ROOT, "<0x%02X>", b));
    }
    pieces.add("\u2581");
    for (char c = '!'; c <= '~'; c++) {
      pieces.add(String.valueOf(c));
    }
    for (String w : kind == Vocabulary.WORDS ? WORDS.split(" ") : new String[0]) {
      String word = "\u2581" + w;
      for (int end = 2; end <= word.length(); end++) {
        pieces.add(word.substring(0, end));
      }
    }
    return new ArrayList<>(pieces);
  }

  /**
   * The Hugging Face {@code tokenizer.json} of a vocabulary, as llama.cpp tokenizes with it here:
   * spaces as "\u2581", one piece per character, a BOS token first; ids as in the GGUF file. Only
   * the {@link Vocabulary#CHARACTERS} vocabulary (no multi-character pieces to merge) is written.
   */
  public static Path huggingFaceTokenizer(Path dir, Vocabulary kind) throws IOException {
    if (kind != Vocabulary.CHARACTERS) {
      throw new IllegalArgumentException(
          "only the characters vocabulary maps to a word-level tokenizer.json");
    }
    ObjectMapper json = new ObjectMapper();
    var root = json.createObjectNode();
    root.put("version", "1.0");
    root.putNull("truncation");
    root.putNull("padding");
    var added = root.putArray("added_tokens");
    List<String> pieces = vocabulary(kind);
    for (int id = 0; id <= 2; id++) {
      added
          .addObject()
          .put("id", id)
          .put("content", pieces.get(id))
          .put("single_word", false)
          .put("lstrip", false)
          .put("rstrip", false)
          .put("normalized", false)
          .put("special", true);
    }
    var normalizer = root.putObject("normalizer");
    normalizer.put("type", "Replace");
    normalizer.putObject("pattern").put("String", " ");
    normalizer.put("content", "\u2581");
    var split = root.putObject("pre_tokenizer");
    split.put("type", "Split");
    split.putObject("pattern").put("Regex", ".");
    split.put("behavior", "Isolated").put("invert", false);
    var post = root.putObject("post_processor");
    post.put("type", "TemplateProcessing");
    post.putArray("single")
        .addObject()
        .putObject("SpecialToken")
        .put("id", "<s>")
        .put("type_id", 0);
    ((ArrayNode) post.get("single"))
        .addObject()
        .putObject("Sequence")
        .put("id", "A")
        .put("type_id", 0);
    post.putArray("pair");
    post.putObject("special_tokens").putObject("<s>").put("id", "<s>").putArray("ids").add(1);
    ((ObjectNode) post.get("special_tokens").get("<s>")).putArray("tokens").add("<s>");
    var decoder = root.putObject("decoder");
    decoder.put("type", "Sequence");
    var steps = decoder.putArray("decoders");
    var replace = steps.addObject();
    replace.put("type", "Replace");
    replace.putObject("pattern").put("String", "\u2581");
    replace.put("content", " ");
    steps.addObject().put("type", "Fuse");
    var model = root.putObject("model");
    model.put("type", "WordLevel");
    var vocab = model.putObject("vocab");
    for (int id = 0; id < pieces.size(); id++) {
      vocab.put(pieces.get(id), id);
    }
    model.put("unk_token", "<unk>");
    Path file = dir.resolve("tokenizer.json");
    json.writeValue(file.toFile(), root);
    return file;
  }

  static int tokenType(int id, String piece) {
    if (id == 0) {
      return TOKEN_UNKNOWN;
    }
    if (id <= 2) {
      return TOKEN_CONTROL;
    }
    return piece.startsWith("<0x") && piece.length() == 6 ? TOKEN_BYTE : TOKEN_NORMAL;
  }

  /** Whether generation may produce the token: normal tokens with visible text. */
  static boolean generatable(int id, String piece) {
    return tokenType(id, piece) == TOKEN_NORMAL && !piece.equals("\u2581");
  }

  public static void write(Path out, Shape s, long seed) throws IOException {
    write(out, s, Vocabulary.WORDS, seed);
  }

  public static void write(Path out, Shape s, Vocabulary kind, long seed) throws IOException {
    List<String> vocab = vocabulary(kind);
    int nVocab = vocab.size();
    int headDim = s.embedding() / s.heads();

    Map<String, Object[]> meta = new LinkedHashMap<>();
    meta.put("general.architecture", str("llama"));
    meta.put("general.name", str("tiny-llama (random weights)"));
    meta.put("general.alignment", u32(ALIGNMENT));
    meta.put("llama.context_length", u32(s.context()));
    meta.put("llama.embedding_length", u32(s.embedding()));
    meta.put("llama.block_count", u32(s.layers()));
    meta.put("llama.feed_forward_length", u32(s.feedForward()));
    meta.put("llama.rope.dimension_count", u32(headDim));
    meta.put("llama.attention.head_count", u32(s.heads()));
    meta.put("llama.attention.head_count_kv", u32(s.heads()));
    meta.put("llama.attention.layer_norm_rms_epsilon", f32(1e-5f));
    meta.put("llama.vocab_size", u32(nVocab));
    meta.put("tokenizer.ggml.model", str("llama"));
    List<Float> scores = new ArrayList<>();
    List<Integer> types = new ArrayList<>();
    for (int i = 0; i < nVocab; i++) {
      types.add(tokenType(i, vocab.get(i)));
      // longer pieces merge first
      scores.add(types.get(i) == TOKEN_NORMAL ? (float) vocab.get(i).length() - 100f : 0f);
    }
    meta.put("tokenizer.ggml.tokens", new Object[] {TYPE_ARRAY, TYPE_STRING, vocab});
    meta.put("tokenizer.ggml.scores", new Object[] {TYPE_ARRAY, TYPE_FLOAT32, scores});
    meta.put("tokenizer.ggml.token_type", new Object[] {TYPE_ARRAY, TYPE_INT32, types});
    meta.put("tokenizer.ggml.unknown_token_id", u32(0));
    meta.put("tokenizer.ggml.bos_token_id", u32(1));
    meta.put("tokenizer.ggml.eos_token_id", u32(2));
    meta.put("tokenizer.ggml.add_bos_token", new Object[] {TYPE_BOOL, Boolean.TRUE});
    // no "▁" put before the text: " the" is one token, as with a BPE tokenizer, so the kit's
    // per-word token counts add up and its random prompts have exact lengths
    meta.put("tokenizer.ggml.add_space_prefix", new Object[] {TYPE_BOOL, Boolean.FALSE});
    meta.put("tokenizer.chat_template", str(CHATML));

    Random rnd = new Random(seed);
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    int e = s.embedding();
    float[] embd = gaussian(rnd, (long) e * nVocab, 0.1f);
    for (int t = 0; t < nVocab; t++) {
      embd[t * e] = 1.0f; // the constant hidden dimension 0
    }
    tensors.put("token_embd.weight", new Tensor(new long[] {e, nVocab}, embd));
    tensors.put("output_norm.weight", new Tensor(new long[] {e}, ones(e)));
    float[] output = gaussian(rnd, (long) e * nVocab, 0.05f);
    for (int t = 0; t < nVocab; t++) {
      output[t * e] = generatable(t, vocab.get(t)) ? 0f : -5f;
    }
    tensors.put("output.weight", new Tensor(new long[] {e, nVocab}, output));
    float w = 0.02f;
    for (int l = 0; l < s.layers(); l++) {
      String b = "blk." + l + ".";
      tensors.put(b + "attn_norm.weight", new Tensor(new long[] {e}, ones(e)));
      tensors.put(
          b + "attn_q.weight", new Tensor(new long[] {e, e}, gaussian(rnd, (long) e * e, w)));
      tensors.put(
          b + "attn_k.weight", new Tensor(new long[] {e, e}, gaussian(rnd, (long) e * e, w)));
      tensors.put(
          b + "attn_v.weight", new Tensor(new long[] {e, e}, gaussian(rnd, (long) e * e, w)));
      tensors.put(
          b + "attn_output.weight", new Tensor(new long[] {e, e}, gaussian(rnd, (long) e * e, w)));
      tensors.put(b + "ffn_norm.weight", new Tensor(new long[] {e}, ones(e)));
      int ff = s.feedForward();
      tensors.put(
          b + "ffn_gate.weight", new Tensor(new long[] {e, ff}, gaussian(rnd, (long) e * ff, w)));
      tensors.put(
          b + "ffn_up.weight", new Tensor(new long[] {e, ff}, gaussian(rnd, (long) e * ff, w)));
      tensors.put(
          b + "ffn_down.weight", new Tensor(new long[] {ff, e}, gaussian(rnd, (long) ff * e, w)));
    }

    Files.createDirectories(out.toAbsolutePath().getParent());
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    try (Writer o = new Writer(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
      o.bytes("GGUF".getBytes(StandardCharsets.US_ASCII));
      o.u32(3);
      o.u64(tensors.size());
      o.u64(meta.size());
      for (Map.Entry<String, Object[]> kv : meta.entrySet()) {
        o.string(kv.getKey());
        o.value(kv.getValue());
      }
      long offset = 0;
      for (Map.Entry<String, Tensor> t : tensors.entrySet()) {
        o.string(t.getKey());
        o.u32(t.getValue().dims().length);
        for (long dim : t.getValue().dims()) {
          o.u64(dim);
        }
        o.u32(GGML_F32);
        o.u64(offset);
        offset = align(offset + 4L * t.getValue().data().length);
      }
      o.pad();
      for (Tensor t : tensors.values()) {
        o.floats(t.data());
        o.pad();
      }
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
  }

  private record Tensor(long[] dims, float[] data) {}

  private static Object[] str(String v) {
    return new Object[] {TYPE_STRING, v};
  }

  private static Object[] u32(int v) {
    return new Object[] {TYPE_UINT32, v};
  }

  private static Object[] f32(float v) {
    return new Object[] {TYPE_FLOAT32, v};
  }

  private static float[] ones(int n) {
    float[] a = new float[n];
    Arrays.fill(a, 1f);
    return a;
  }

  private static float[] gaussian(Random rnd, long n, float std) {
    float[] a = new float[Math.toIntExact(n)];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rnd.nextGaussian() * std;
    }
    return a;
  }

  private static long align(long n) {
    return (n + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
  }

  /** Little-endian GGUF primitives, counting the bytes written for the alignment padding. */
  private static final class Writer implements AutoCloseable {
    private final OutputStream out;
    private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    private long written;

    Writer(OutputStream out) {
      this.out = out;
    }

    void bytes(byte[] b) throws IOException {
      out.write(b);
      written += b.length;
    }

    void u32(int v) throws IOException {
      scratch.clear();
      bytes(Arrays.copyOf(scratch.putInt(v).array(), 4));
    }

    void u64(long v) throws IOException {
      scratch.clear();
      bytes(Arrays.copyOf(scratch.putLong(v).array(), 8));
    }

    void f32(float v) throws IOException {
      u32(Float.floatToRawIntBits(v));
    }

    void string(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      u64(b.length);
      bytes(b);
    }

    @SuppressWarnings("unchecked")
    void value(Object[] typed) throws IOException {
      int type = (int) typed[0];
      u32(type);
      if (type == TYPE_ARRAY) {
        int elementType = (int) typed[1];
        List<Object> items = (List<Object>) typed[2];
        u32(elementType);
        u64(items.size());
        for (Object item : items) {
          scalar(elementType, item);
        }
      } else {
        scalar(type, typed[1]);
      }
    }

    private void scalar(int type, Object v) throws IOException {
      switch (type) {
        case TYPE_UINT32, TYPE_INT32 -> u32((Integer) v);
        case TYPE_FLOAT32 -> f32((Float) v);
        case TYPE_BOOL -> bytes(new byte[] {(byte) ((Boolean) v ? 1 : 0)});
        case TYPE_STRING -> string((String) v);
        default -> throw new IllegalArgumentException("type " + type);
      }
    }

    void floats(float[] data) throws IOException {
      ByteBuffer buf = ByteBuffer.allocate(4 * 4096).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < data.length; i += 4096) {
        buf.clear();
        int n = Math.min(4096, data.length - i);
        buf.asFloatBuffer().put(data, i, n);
        bytes(Arrays.copyOf(buf.array(), 4 * n));
      }
    }

    void pad() throws IOException {
      int pad = (int) (align(written) - written);
      if (pad > 0) {
        bytes(new byte[pad]);
      }
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
