package io.github.llmbench.sweep;

import io.github.llmbench.settings.ServeTemplate;
import io.github.llmbench.settings.ServeTemplate.Gap;
import io.github.llmbench.settings.ServeTemplate.Part;
import io.github.llmbench.settings.ServeTemplate.Placeholder;
import io.github.llmbench.settings.ServeTemplate.Quoting;
import io.github.llmbench.settings.ServeTemplate.Text;
import io.github.llmbench.settings.SweepSettings;
import io.github.llmbench.simulator.VllmSimulatorMain;
import io.github.llmbench.summary.SweepSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The process that starts one combination's server: {@code -Dserve.cmd} split into words once
 * ({@link ServeTemplate}), {@code {port}} and each {@code {NAME}} filled in within its word, each
 * value exactly the text it was given (never read again for placeholders, quotes or shell syntax);
 * the parameters it does not name are added as {@code --NAME VALUE} as {@code vllm bench sweep
 * serve} adds them ({@code true}: {@code --NAME}, {@code false}: {@code --no-NAME}); {@code
 * simulator} (with its options, if any) is the kit's own simulator ({@code VllmSimulatorMain}) on
 * this JVM's class path.
 *
 * <p>Started as its words, with no shell, as {@code vllm bench sweep} starts it; a template that
 * uses the shell ({@code $PWD}, {@code &&}, {@code VAR=1 cmd}: {@link ServeTemplate#needsShell})
 * runs as {@code sh -c TEMPLATE sh VALUE...}, each placeholder turned into a quoted {@code "${N}"}:
 * the shell parses the template alone, the values reach it as positional parameters.
 *
 * @param arguments the process's program and arguments
 * @param line the command as one would type it, each value quoted as one shell word: for its log
 */
public record ServeCommand(List<String> arguments, String line) {

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.,:/=@%+-]+");

  public ServeCommand {
    arguments = List.copyOf(arguments);
  }

  /**
   * The command of the combination {@code params}, its server on {@code port}.
   *
   * @throws IllegalArgumentException when {@code command} is not a template ({@link
   *     ServeTemplate#parse}) or names what {@code params} do not; the settings checked both before
   */
  public static ServeCommand of(String command, Map<String, String> params, int port) {
    ServeTemplate template = ServeTemplate.parse(command);
    template.checkNames(params.keySet());
    Map<String, String> values = new LinkedHashMap<>(params);
    values.put("port", Integer.toString(port));
    List<String> added = new ArrayList<>();
    params.forEach(
        (name, value) -> {
          if (!template.names().contains(name)) {
            added.addAll(flag(name, value));
          }
        });
    // the simulator's word is this JVM's command in its place
    boolean simulator = SweepSettings.startsTheSimulator(command);
    List<String> lead = simulator ? simulator(port) : List.of();
    List<Part> parts = template.parts().subList(simulator ? 1 : 0, template.parts().size());
    String line =
        (asTyped(lead)
                + render(parts, h -> rendered(values.get(h.name()), h.quoting()))
                + asTyped(added))
            .trim();
    if (template.needsShell()) {
      return new ServeCommand(throughShell(lead, parts, values, added), line);
    }
    List<String> arguments = new ArrayList<>(lead);
    for (List<Part> word : template.words().subList(simulator ? 1 : 0, template.words().size())) {
      StringBuilder sb = new StringBuilder();
      word.forEach(p -> sb.append(p instanceof Text t ? t.literal() : values.get(name(p))));
      arguments.add(sb.toString());
    }
    arguments.addAll(added);
    return new ServeCommand(arguments, line);
  }

  /**
   * {@code sh -c SCRIPT sh VALUE...}: the script is the template as written, each placeholder a
   * reference to its value's positional parameter, quoted so that the shell neither splits nor
   * expands it.
   */
  private static List<String> throughShell(
      List<String> lead, List<Part> parts, Map<String, String> values, List<String> added) {
    List<String> positional = new ArrayList<>();
    Map<String, Integer> index = new LinkedHashMap<>();
    Function<String, Integer> add =
        value -> {
          positional.add(value);
          return positional.size();
        };
    StringBuilder script = new StringBuilder(asTyped(lead));
    script.append(
        render(
            parts,
            h ->
                reference(
                    index.computeIfAbsent(h.name(), n -> add.apply(values.get(n))), h.quoting())));
    added.forEach(a -> script.append(' ').append(reference(add.apply(a), Quoting.NONE)));
    List<String> arguments = new ArrayList<>(List.of("/bin/sh", "-c", script.toString().trim()));
    arguments.add("sh"); // $0
    arguments.addAll(positional);
    return arguments;
  }

  /** The template as written, each placeholder replaced by {@code placeholder}'s text. */
  private static String render(List<Part> parts, Function<Placeholder, String> placeholder) {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (p instanceof Placeholder h) {
        sb.append(placeholder.apply(h));
      } else {
        sb.append(p instanceof Text t ? t.raw() : ((Gap) p).raw());
      }
    }
    return sb.toString();
  }

  private static String name(Part p) {
    return ((Placeholder) p).name();
  }

  /** Positional parameter {@code n}, as one word whatever it holds, inside {@code quoting}. */
  private static String reference(int n, Quoting quoting) {
    return switch (quoting) {
      case NONE -> "\"${" + n + "}\"";
      case DOUBLE -> "${" + n + "}";
      case SINGLE -> "'\"${" + n + "}\"'";
    };
  }

  /** {@code value} written as the text it is, inside {@code quoting}: for reading, not running. */
  private static String rendered(String value, Quoting quoting) {
    return switch (quoting) {
      case NONE -> quoted(value);
      case DOUBLE -> value.replaceAll("([\"\\\\$`])", "\\\\$1");
      case SINGLE -> value.replace("'", "'\\''");
    };
  }

  /** A parameter the template does not name, as {@code vllm bench sweep serve} adds it. */
  private static List<String> flag(String name, String value) {
    if (value.equalsIgnoreCase("true")) {
      return List.of("--" + name);
    }
    if (value.equalsIgnoreCase("false")) {
      return List.of("--no-" + name);
    }
    return List.of("--" + name, value);
  }

  /** The kit's simulator as a server process, on this JVM's Java and class path. */
  private static List<String> simulator(int port) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        VllmSimulatorMain.class.getName(),
        "--port",
        Integer.toString(port));
  }

  /**
   * Starts this command as a server process of the kit's, its output in {@code log}, whose first
   * line says what it is the log of: {@code # gatling-llm-bench <what>: <command>}, secrets masked.
   *
   * @param what the server's part in the run: {@code sweep}, {@code A/B block 2, server A}
   * @param apiKey the run's API key, masked in the log's first line
   * @param grace how long a stopped server may take to end after SIGTERM, before SIGKILL
   * @throws UncheckedIOException when the log cannot be written or the command not started
   */
  public ChildProcess start(Path log, String what, Optional<String> apiKey, Duration grace) {
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      Files.writeString(
          log,
          "# gatling-llm-bench " + what + ": " + SweepSummary.withoutSecrets(line, apiKey) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
    }
    return ChildProcess.start(arguments, log, grace);
  }

  /** A free loopback port for a server the kit starts ({@code {port}}). */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port for a server: " + e.getMessage(), e);
    }
  }

  /** Each of {@code words} after a blank, quoted as one shell word. */
  private static String asTyped(List<String> words) {
    StringBuilder sb = new StringBuilder();
    words.forEach(w -> sb.append(' ').append(quoted(w)));
    return sb.toString();
  }

  /** A value as one shell word. */
  static String quoted(String value) {
    return PLAIN.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
  }
}
