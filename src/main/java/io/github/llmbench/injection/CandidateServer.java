package io.github.llmbench.injection;

import io.github.llmbench.settings.BenchSettings;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * Server B of an interleaved A/B run ({@code -Dcandidate.url}), checked before any load as the base
 * is: reachable (waited for with {@code -Dready.timeout}) and serving the model B's requests name.
 *
 * @param model {@code -Dcandidate.model}, else the run's model
 */
public record CandidateServer(URI baseUrl, String model, ServerApi api) {

  /**
   * Checks server B.
   *
   * @param url server B
   * @param candidateModel {@code -Dcandidate.model}, empty for the run's
   * @param runModel the model A's requests name
   * @throws TargetException when B cannot be used
   */
  public static CandidateServer check(
      BenchSettings settings,
      URI url,
      Optional<String> candidateModel,
      String runModel,
      PrintStream out) {
    ServerApi api =
        new ServerApi(url, settings.apiKey(), settings.server().requestOptions().headers());
    int readyTimeout = settings.server().calls().readyTimeoutSeconds();
    if (readyTimeout > 0) {
      api.awaitReady(readyTimeout, out);
    }
    String model = candidateModel.orElse(runModel);
    List<String> served = api.models();
    if (!served.isEmpty() && !served.contains(model)) {
      throw new TargetException(
          (candidateModel.isPresent()
                  ? "Invalid -Dcandidate.model=" + model
                  : "The run's model " + model + " (no -Dcandidate.model)")
              + ": the candidate server at "
              + url
              + " serves "
              + String.join(", ", served));
    }
    return new CandidateServer(url, model, api);
  }
}
