package io.github.llmbench.simulator;

import io.github.llmbench.servers.ServerProfile;
import io.github.llmbench.servers.ServerProfiles;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Which server's stream and endpoint shapes the simulator speaks (timing is the same for all): a
 * server's profile ({@link ServerProfile}: its routes, tokenizer, metrics, {@code ignore_eos}), and
 * the simulator's answers in its shape ({@link VllmAnswers} and a subclass per server).
 *
 * <ul>
 *   <li>{@link #VLLM}: vLLM's (the default).
 *   <li>{@link #LLAMACPP}: llama.cpp's {@code llama-server} ({@link LlamaCppAnswers}, {@link
 *       LlamaCppStreamWriter}): chat's role chunk with {@code "content":null}, the finish reason in
 *       a chunk of its own, a {@code timings} object in the last chunk, {@code /tokenize} answering
 *       {@code {"content"}} (and vLLM's {@code {"prompt"}} form with an empty list), {@code
 *       /health} with {@code {"status":"ok"}}. Non-streaming responses keep vLLM's shape.
 *   <li>{@link #SGLANG}: SGLang's ({@link SglangAnswers}).
 *   <li>{@link #TGI}: Hugging Face TGI's ({@link TgiAnswers}); it ignores {@code ignore_eos}, so
 *       each answer ends at a drawn point between half and all of {@code max_tokens}, as a model
 *       that meets its end-of-sequence token does.
 *   <li>{@link #TRTLLM}: NVIDIA trtllm-serve's ({@link TrtllmAnswers}).
 * </ul>
 */
public enum Dialect {
  VLLM(ServerProfiles.VLLM, new VllmAnswers()),
  LLAMACPP(ServerProfiles.LLAMACPP, new LlamaCppAnswers()),
  SGLANG(ServerProfiles.SGLANG, new SglangAnswers()),
  TGI(ServerProfiles.TGI, new TgiAnswers()),
  TRTLLM(ServerProfiles.TRTLLM, new TrtllmAnswers());

  private final ServerProfile profile;
  private final VllmAnswers answers;

  Dialect(ServerProfile profile, VllmAnswers answers) {
    this.profile = profile;
    this.answers = answers;
  }

  /** The server this dialect speaks for. */
  public ServerProfile profile() {
    return profile;
  }

  /** What it answers where the servers differ. */
  VllmAnswers answers() {
    return answers;
  }

  /**
   * Whether this server has {@code path}, as its profile says: {@code /info} is where it tells its
   * context, {@code /prometheus/metrics} where its metrics are, {@code /tokenize} only with a
   * tokenizer form, the profiler's routes and the prefix cache's reset (vLLM's {@code
   * /reset_prefix_cache}, always here, and SGLang's {@code /flush_cache}) only where it has them;
   * {@code /props} is llama.cpp's; the others all have.
   */
  boolean serves(String path) {
    return switch (path) {
      case "/props" -> answers.servesProps();
      case "/info" -> profile.infoContextKey().isPresent();
      case "/prometheus/metrics" -> profile.metricsPath().equals(path);
      case "/tokenize" -> profile.tokenizer().isPresent();
      case "/start_profile", "/stop_profile" -> profile.hasProfiler();
      case "/reset_prefix_cache", "/flush_cache" ->
          profile.prefixCacheReset().filter(path::equals).isPresent();
      default -> true;
    };
  }

  /** The field a reasoning model's thinking streams in: vLLM's current one, else the older. */
  String reasoningField() {
    return answers.reasoningField();
  }

  public String id() {
    return profile.id();
  }

  /** The dialect named {@code id} ({@code vllm}, {@code llamacpp}, {@code sglang}, ...). */
  public static Dialect fromId(String id) {
    for (Dialect d : values()) {
      if (d.id().equals(id)) {
        return d;
      }
    }
    throw new IllegalArgumentException("unknown dialect '" + id + "' (accepted: " + ids() + ")");
  }

  public static String ids() {
    return Arrays.stream(values()).map(Dialect::id).collect(Collectors.joining(", "));
  }
}
