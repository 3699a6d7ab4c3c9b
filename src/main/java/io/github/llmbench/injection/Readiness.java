package io.github.llmbench.injection;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The wait until the server is ready, as {@code vllm bench serve --ready-check-timeout-sec}: {@code
 * GET /health} answers 200, or {@code GET /v1/models} answers 200 with a model (or refuses the API
 * key: the server is up, and the model list then says what is wrong).
 */
final class Readiness {
  /** How often it asks. */
  static final Duration READY_POLL = Duration.ofMillis(500);

  private final ServerHttp http;

  Readiness(ServerHttp http) {
    this.http = http;
  }

  /**
   * Asks every {@link #READY_POLL}, with a line on {@code out} every {@code progress} and once
   * ready.
   *
   * @throws TargetException when it is not ready within {@code timeoutSeconds}
   */
  void await(int timeoutSeconds, PrintStream out, Duration progress) {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    long nextProgress = start + progress.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      // one probe never outlasts the wait: the last one ends at the deadline
      Duration probe = Duration.ofNanos(Math.max(100_000_000L, Math.min(left, 2_000_000_000L)));
      Optional<String> notReady = notReady(probe);
      long now = System.nanoTime();
      if (notReady.isEmpty()) {
        if (now - start > READY_POLL.toNanos()) {
          out.printf(
              Locale.ROOT,
              "gatling-llm-bench: %s is ready after %.1f s%n",
              http.baseUrl(),
              (now - start) / 1e9);
        }
        return;
      }
      if (now >= deadline) {
        throw new TargetException(
            "The server at "
                + http.baseUrl()
                + " was not ready within "
                + timeoutSeconds
                + " s (-Dready.timeout="
                + timeoutSeconds
                + "): "
                + notReady.get());
      }
      if (now >= nextProgress) {
        out.printf(
            Locale.ROOT,
            "gatling-llm-bench: waiting for %s to be ready (%d s of %d): %s%n",
            http.baseUrl(),
            TimeUnit.NANOSECONDS.toSeconds(now - start),
            timeoutSeconds,
            notReady.get());
        nextProgress += progress.toNanos();
      }
      pause(Math.max(1, Math.min(READY_POLL.toMillis(), (deadline - now) / 1_000_000)));
    }
  }

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TargetException("Interrupted while waiting for the server at " + http.baseUrl());
    }
  }

  /** Empty when the server is ready, else what it answered (or why it did not). */
  Optional<String> notReady(Duration timeout) {
    String health;
    try {
      HttpResponse<String> h =
          http.exchange(http.request("/health").timeout(timeout).GET().build());
      if (h.statusCode() == 200) {
        return Optional.empty();
      }
      health = "GET /health: HTTP " + h.statusCode();
    } catch (IOException e) {
      return Optional.of(
          ServerHttp.why(e, timeout)); // nothing answers: /v1/models would not either
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
    return modelsNotReady(health, timeout);
  }

  /** Empty when {@code GET /v1/models} lists a model (or refuses the key), else why not. */
  private Optional<String> modelsNotReady(String health, Duration timeout) {
    try {
      HttpResponse<String> m =
          http.exchange(http.request("/v1/models").timeout(timeout).GET().build());
      int status = m.statusCode();
      if (status == 401 || status == 403) {
        return Optional.empty();
      }
      if (status == 200) {
        JsonNode data = ServerHttp.JSON.readTree(m.body()).path("data");
        if (data.isArray() && !data.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(health + ", GET /v1/models: no model yet");
      }
      return Optional.of(health + ", GET /v1/models: HTTP " + status);
    } catch (IOException e) {
      return Optional.of(health + ", GET /v1/models: " + ServerHttp.why(e, timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
  }
}
