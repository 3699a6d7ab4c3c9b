package io.github.llmbench.records;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Every file the kit writes for a run, by its place in Gatling's run folder: {@code llm/} holds the
 * records, the server's samples, {@code summary.json} and {@code gates.xml}; {@code llm.html} sits
 * beside Gatling's {@code index.html}. The one place these names are spelled.
 *
 * @param folder the kit's {@code llm/} folder of the run
 */
public record RunFiles(Path folder) {
  public static final String LLM_FOLDER = "llm";
  public static final String REQUESTS = "requests.jsonl";
  public static final String SERVER_METRICS = "server-metrics.jsonl";
  public static final String CLIENT = "client.jsonl";
  public static final String SUMMARY = "summary.json";
  public static final String GATES_XML = "gates.xml";
  public static final String PAGE = "llm.html";

  /**
   * The files of the Gatling run folder {@code runFolder} ({@code
   * <results>/<simulation>-<timestamp>}).
   */
  public static RunFiles ofRun(Path runFolder) {
    return new RunFiles(runFolder.resolve(LLM_FOLDER));
  }

  /** Gatling's run folder this {@code llm/} folder is in. */
  public Path runFolder() {
    Path parent = folder.toAbsolutePath().normalize().getParent();
    return parent == null ? folder : parent;
  }

  /** {@code llm/requests.jsonl}: one line per finished request, written as it finishes. */
  public Path requests() {
    return folder.resolve(REQUESTS);
  }

  /** {@code llm/server-metrics.jsonl}: the scraped Prometheus samples. */
  public Path serverMetrics() {
    return folder.resolve(SERVER_METRICS);
  }

  /** {@code llm/client.jsonl}: the load generator's own health, a line per second. */
  public Path client() {
    return folder.resolve(CLIENT);
  }

  /** {@code llm/summary.json}: the run's figures, levels, gates. */
  public Path summary() {
    return folder.resolve(SUMMARY);
  }

  /** {@code llm/gates.xml}: the gates as JUnit XML, for CI. */
  public Path gatesXml() {
    return folder.resolve(GATES_XML);
  }

  /** {@code llm.html} in Gatling's run folder, beside its {@code index.html}. */
  public Path page() {
    return runFolder().resolve(PAGE);
  }

  /** The path of {@code requests.jsonl} as shown to users: {@code llm/requests.jsonl}. */
  public static String requestsShown() {
    return LLM_FOLDER + "/" + REQUESTS;
  }

  /**
   * The summary a user named: a run folder's {@code llm/summary.json}, an {@code llm/} folder's, or
   * the file itself; empty when there is none.
   */
  public static Optional<Path> summaryOf(Path given) {
    if (Files.isRegularFile(given)) {
      return Optional.of(given);
    }
    for (Path candidate : new Path[] {ofRun(given).summary(), given.resolve(SUMMARY)}) {
      if (Files.isRegularFile(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
