package io.github.llmbench.injection;

import io.github.llmbench.settings.AbSettings;
import io.github.llmbench.settings.BenchSettings;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;

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
   * @param runModel the model A's requests name
   * @throws TargetException when B cannot be used
   */
  public static CandidateServer check(
      BenchSettings settings, AbSettings ab, String runModel, PrintStream out) {
    URI url = ab.candidateUrl();
    ServerApi api =
        new ServerApi(url, settings.apiKey(), settings.server().requestOptions().headers());
    int readyTimeout = settings.server().calls().readyTimeoutSeconds();
    if (readyTimeout > 0) {
      api.awaitReady(readyTimeout, out);
    }
    String model = ab.candidateModel().orElse(runModel);
    List<String> served = api.models();
    if (!served.isEmpty() && !served.contains(model)) {
      throw new TargetException(
          (ab.candidateModel().isPresent()
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
