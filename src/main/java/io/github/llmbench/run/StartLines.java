package io.github.llmbench.run;

import io.github.llmbench.gates.RunGates;
import io.github.llmbench.injection.Target;
import io.github.llmbench.servers.ServerProfile;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.ServerSettings;
import io.github.llmbench.settings.SettingsDescription;
import java.io.PrintStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The lines a run prints as it starts, one aligned {@code name value} line each. */
final class StartLines {
  private StartLines() {}

  /**
   * The settings, the server and its model, then what was found before the load ({@code notes}: the
   * tokenizer, the chat template, the metrics).
   */
  static void print(
      PrintStream out,
      BenchSettings settings,
      RunGates gates,
      Target target,
      Map<String, String> notes) {
    out.println("gatling-llm-bench settings:");
    Map<String, String> shown =
        new LinkedHashMap<>(SettingsDescription.of(settings, gates.describe()));
    shown.put(
        ServerSettings.BASE_URL.name(),
        target.baseUrls().size() > 1
            ? target.baseUrls().stream().map(URI::toString).collect(Collectors.joining(", "))
                + " (requests in turn; tokenizer and context asked of the first, metrics read from each)"
            : target.baseUrl() + (target.embedded() ? " (embedded vLLM simulator)" : ""));
    if (target.models().size() > 1) {
      shown.put(
          ServerSettings.MODEL.name(),
          shown.get(ServerSettings.MODEL.name())
              + "; tokenizer and context asked of "
              + target.model());
    } else {
      shown.put(ServerSettings.MODEL.name(), target.model());
    }
    shown.put("server", serverLine(target, settings));
    shown.putAll(notes);
    if (target.api().closesConnectionAfterStream()) {
      shown.put(
          "connections",
          "a new one per request ("
              + target.api().serverHeader().orElse("")
              + " closes the connection after each stream)");
    }
    print(out, shown);
    gates.plan(settings.load().trials()).forEach(l -> out.printf("  %-12s %s%n", "gate plan", l));
  }

  /** Which server answers, and what the kit does differently for it. */
  static String serverLine(Target target, BenchSettings settings) {
    ServerProfile kind = target.api().kind();
    if (!settings.server().api().figures().generates()) {
      return kind.label()
          + ": "
          + settings.server().api().id()
          + ", one JSON body per request (not streamed): E2EL and input tokens only";
    }
    String line =
        kind.label()
            + ": the output length goes in "
            + settings
                .server()
                .api()
                .outputLengthKey(
                    kind.maxTokensKey(true), settings.server().requestOptions().extraBody())
                .orElseThrow();
    if (!kind.honoursIgnoreEos()) {
      line +=
          "; it ignores ignore_eos, so answers end where the model ends them, shorter than asked"
              + " (output tokens are the server's; compare servers on the same lengths with care)";
    }
    return line;
  }

  /** Lines below the start lines, in their layout (what the workload's preparation found). */
  static void print(PrintStream out, Map<String, String> lines) {
    lines.forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
  }
}
