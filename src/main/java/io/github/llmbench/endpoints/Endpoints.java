package io.github.llmbench.endpoints;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The endpoints the kit knows, in {@code -Dapi}'s order: one line each. */
public final class Endpoints {

  public static final Endpoint CHAT = new ChatEndpoint();
  public static final Endpoint COMPLETIONS = new CompletionsEndpoint();
  public static final Endpoint RESPONSES = new ResponsesEndpoint();
  public static final Endpoint EMBEDDINGS = new EmbeddingsEndpoint();

  /** Every endpoint; a new one is one more entry. */
  public static final List<Endpoint> ALL = List.of(CHAT, COMPLETIONS, RESPONSES, EMBEDDINGS);

  private Endpoints() {}

  /** The endpoint whose id is {@code id}, any case. */
  public static Optional<Endpoint> byId(String id) {
    String lower = id.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(e -> e.id().equals(lower)).findFirst();
  }

  /** The ids, as a refusal lists them: {@code chat, completions, responses or embeddings}. */
  public static String idsText() {
    return listed(ALL.stream().map(Endpoint::id).toList());
  }

  /** Each endpoint's {@link Endpoint#helpText}, as {@code -Dhelp} lists them. */
  public static String helpText() {
    return listed(ALL.stream().map(Endpoint::helpText).toList());
  }

  private static String listed(List<String> items) {
    int last = items.size() - 1;
    return String.join(", ", items.subList(0, last)) + " or " + items.get(last);
  }
}
