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
    List<String> ids = ALL.stream().map(Endpoint::id).toList();
    return String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + ids.get(ids.size() - 1);
  }
}
