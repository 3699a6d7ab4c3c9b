package io.github.llmbench.sweep;

import io.github.llmbench.settings.SweepSettings;
import io.github.llmbench.simulator.VllmSimulatorMain;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The shell command that starts one combination's server: {@code -Dserve.cmd} with {@code {port}}
 * and each {@code {NAME}} filled in, the parameters it does not name added as {@code --NAME VALUE}
 * as {@code vllm bench sweep serve} adds them ({@code true}: {@code --NAME}, {@code false}: {@code
 * --no-NAME}); {@code simulator} (with its options, if any) is the kit's own simulator ({@code
 * VllmSimulatorMain}) on this JVM's class path.
 *
 * @param line the command, for {@code sh -c}
 */
public record ServeCommand(String line) {

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.,:/=@%+-]+");

  /** The command of the combination {@code params}, its server on {@code port}. */
  public static ServeCommand of(String command, Map<String, String> params, int port) {
    StringBuilder sb =
        new StringBuilder(
            SweepSettings.startsTheSimulator(command)
                ? simulator() + command.substring(SweepSettings.SIMULATOR.length())
                : command);
    params.forEach(
        (name, value) -> {
          String placeholder = "{" + name + "}";
          if (sb.indexOf(placeholder) >= 0) {
            replaceAll(sb, placeholder, quoted(value));
          } else if (value.equalsIgnoreCase("true")) {
            sb.append(" --").append(name);
          } else if (value.equalsIgnoreCase("false")) {
            sb.append(" --no-").append(name);
          } else {
            sb.append(" --").append(name).append(' ').append(quoted(value));
          }
        });
    replaceAll(sb, "{port}", Integer.toString(port));
    return new ServeCommand(sb.toString());
  }

  /** The kit's simulator as a server process, on this JVM's Java and class path. */
  private static String simulator() {
    return quoted(Path.of(System.getProperty("java.home"), "bin", "java").toString())
        + " -cp "
        + quoted(System.getProperty("java.class.path"))
        + " "
        + VllmSimulatorMain.class.getName()
        + " --port {port}";
  }

  private static void replaceAll(StringBuilder sb, String from, String to) {
    for (int i = sb.indexOf(from); i >= 0; i = sb.indexOf(from, i + to.length())) {
      sb.replace(i, i + from.length(), to);
    }
  }

  /** A value as one shell word. */
  static String quoted(String value) {
    return PLAIN.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
  }
}
