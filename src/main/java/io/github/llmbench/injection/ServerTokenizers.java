package io.github.llmbench.injection;

import io.github.llmbench.servers.ServerProfiles;
import io.github.llmbench.servers.TokenizerForm;
import io.github.llmbench.workload.ServerTokenizer;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server's tokenizer endpoints, in whichever of the known servers' forms ({@link
 * ServerProfiles#tokenizerForms}) it answers.
 */
final class ServerTokenizers {
  private final ServerHttp http;

  ServerTokenizers(ServerHttp http) {
    this.http = http;
  }

  /**
   * The first form that counts {@code "hello"}, with {@code /detokenize} when it decodes what it
   * encoded; {@link ServerTokenizer#NONE} when no form counts (trtllm-serve has no public tokenizer
   * endpoint).
   */
  ServerTokenizer find(String model) {
    for (TokenizerForm form : ServerProfiles.tokenizerForms()) {
      HttpTokenizer t = new HttpTokenizer(form, model, true);
      if (t.count("hello").isPresent()) {
        int[] ids = t.encode("hello").orElse(new int[0]);
        boolean decodes = ids.length > 0 && t.decode(ids).isPresent();
        return new HttpTokenizer(form, model, decodes);
      }
    }
    return ServerTokenizer.NONE;
  }

  /**
   * The tokens a chat request adds around its content, as the server counts them: the first form
   * that counts a templated chat (vLLM's {@code /tokenize} of {@code messages}, llama.cpp's {@code
   * /apply-template} then {@code /tokenize}), less the content's own; empty when none can tell.
   */
  OptionalInt chatTemplateTokens(String model, ServerTokenizer tokenizer, String content) {
    Optional<int[]> plain = tokenizer.encode(content);
    if (plain.isEmpty()) {
      return OptionalInt.empty();
    }
    for (TokenizerForm form : ServerProfiles.tokenizerForms()) {
      OptionalInt templated = form.templatedChatTokens(http::post, model, content);
      if (templated.isPresent()) {
        return OptionalInt.of(templated.getAsInt() - plain.get().length);
      }
    }
    return OptionalInt.empty();
  }

  private final class HttpTokenizer implements ServerTokenizer {
    private final TokenizerForm form;
    private final String model;
    private final boolean decodes;

    HttpTokenizer(TokenizerForm form, String model, boolean decodes) {
      this.form = form;
      this.model = model;
      this.decodes = decodes;
    }

    @Override
    public String describe() {
      return form.label() + " /tokenize" + (decodes ? " + /detokenize" : " (no /detokenize)");
    }

    @Override
    public OptionalInt count(String text) {
      return form.count(http::post, model, text);
    }

    @Override
    public Optional<int[]> encode(String text) {
      return form.encode(http::post, model, text);
    }

    @Override
    public Optional<String> decode(int[] ids) {
      return form.decode(http::post, model, ids);
    }
  }
}
