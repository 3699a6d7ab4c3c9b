package io.github.llmbench.servers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The servers the kit knows, registered in one list, and what is read across them: which one
 * answers, the names of a figure on every server, the tokenizer forms and metrics paths to try.
 */
public final class ServerProfiles {
  private ServerProfiles() {}

  public static final ServerProfile VLLM = new Vllm();
  public static final ServerProfile SGLANG = new Sglang();
  public static final ServerProfile TRTLLM = new TrtllmServe();
  public static final ServerProfile LLAMACPP = new LlamaCpp();
  public static final ServerProfile TGI = new Tgi();

  /** What a server none of the others recognises is taken for. */
  public static final ServerProfile OTHER = new OpenAiCompatible();

  /**
   * Every server, in the order their names and forms are tried (a figure reads the first name
   * reported); {@link #OTHER} last.
   */
  public static final List<ServerProfile> ALL = List.of(VLLM, SGLANG, TRTLLM, LLAMACPP, TGI, OTHER);

  /**
   * Which server answers: by its {@code Server} header, else by the first {@code owned_by} of its
   * model cards that names one, else by its {@code GET /info} ({@code info}, asked only then), else
   * {@link #OTHER}.
   */
  public static ServerProfile recognise(
      Optional<String> serverHeader, List<String> owners, Supplier<Optional<JsonNode>> info) {
    Optional<ServerProfile> byHeader = serverHeader.flatMap(ServerProfiles::byServerHeader);
    if (byHeader.isPresent()) {
      return byHeader.get();
    }
    for (String owner : owners) {
      Optional<ServerProfile> byOwner = byOwner(owner);
      if (byOwner.isPresent()) {
        return byOwner.get();
      }
    }
    for (ServerProfile p : ALL) {
      Optional<String> key = p.infoContextKey();
      if (key.isPresent()
          && info.get().filter(i -> i.path(key.get()).canConvertToInt()).isPresent()) {
        return p;
      }
    }
    return OTHER;
  }

  /** The server whose {@code Server} header this is, if one tells itself so. */
  public static Optional<ServerProfile> byServerHeader(String header) {
    String h = header.toLowerCase(Locale.ROOT);
    return ALL.stream()
        .filter(p -> p.serverHeaderPrefix().filter(h::startsWith).isPresent())
        .findFirst();
  }

  /** The server named by a model card's {@code owned_by}. */
  public static Optional<ServerProfile> byOwner(String ownedBy) {
    if (ownedBy == null) {
      return Optional.empty();
    }
    String o = ownedBy.toLowerCase(Locale.ROOT);
    return ALL.stream().filter(p -> p.ownedBy().filter(o::equals).isPresent()).findFirst();
  }

  /** The names of one figure on every server, in {@link #ALL}'s order. */
  public static List<String> names(Function<MetricNames, List<String>> figure) {
    List<String> names = new ArrayList<>();
    for (ServerProfile p : ALL) {
      names.addAll(figure.apply(p.metrics()));
    }
    return List.copyOf(names);
  }

  /** The name prefixes of the servers' metric families ({@code vllm:}, {@code tgi_}, ...). */
  public static List<String> metricFamilies() {
    return ALL.stream().map(p -> p.metrics().family()).filter(f -> !f.isEmpty()).toList();
  }

  /** The labels of the servers that have metric names ({@code vLLM, SGLang, ...}). */
  public static List<String> withMetrics() {
    return ALL.stream()
        .filter(p -> !p.metrics().family().isEmpty())
        .map(ServerProfile::label)
        .toList();
  }

  /** The paths the servers serve their Prometheus text at, each once, {@code /metrics} first. */
  public static List<String> metricsPaths() {
    return ALL.stream().map(ServerProfile::metricsPath).distinct().toList();
  }

  /** The tokenizer forms of the servers, each once, in the order they are tried. */
  public static List<TokenizerForm> tokenizerForms() {
    return ALL.stream().flatMap(p -> p.tokenizer().stream()).distinct().toList();
  }

  /** The profile with this {@link ServerProfile#id}. */
  public static ServerProfile byId(String id) {
    return ALL.stream()
        .filter(p -> p.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no server profile '" + id + "'"));
  }
}
