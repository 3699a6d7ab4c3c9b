package io.github.llmbench.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders {@code deploy/kubernetes/injectors.yaml} for one run: an Indexed Job of N injectors (pod
 * i runs {@code -Dinjector=i/N} from Kubernetes' {@code JOB_COMPLETION_INDEX}), every pod with the
 * same {@code -Dstart.at} and {@code -Dseed}, results on a shared volume, and the merge Job.
 *
 * <pre>
 * mvn -q compile exec:java@k8s -Dexec.args="--injectors 4 --image registry/gatling-llm-bench:1
 *     --args '-Dbase.url=http://vllm-router:8000 -Dconc=512 -Dduration=300'" | kubectl apply -f -
 * </pre>
 *
 * A bad option prints one line naming it, its value and what is accepted (exit status 3).
 */
public final class KubernetesJob {
  static final Path TEMPLATE = Path.of("deploy", "kubernetes", "injectors.yaml");

  /** Settings the renderer sets itself: the same for every pod, or the pod's own. */
  static final List<String> SET_HERE =
      List.of("-Dinjector=", "-Dstart.at=", "-Dseed=", "-Dgatling.resultsFolder=");

  private KubernetesJob() {}

  public static void main(String[] args) throws IOException {
    try {
      System.out.print(
          render(
              Files.readString(TEMPLATE, StandardCharsets.UTF_8),
              options(args),
              System.currentTimeMillis()));
    } catch (IllegalArgumentException e) {
      System.err.println("gatling-llm-bench k8s: " + e.getMessage());
      System.exit(3);
    }
  }

  /** The options, with their defaults; one line per bad one. */
  static Map<String, String> options(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("--injectors", null);
    o.put("--image", null);
    o.put("--args", null);
    o.put("--start-in", "180");
    o.put("--seed", Long.toString(new SecureRandom().nextLong() & 0xFFFF_FFFFL));
    o.put("--name", "llm-bench");
    o.put("--claim", "llm-bench-results");
    o.put("--cpus", "2");
    for (int i = 0; i < args.length; i++) {
      if (!o.containsKey(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "Invalid option="
                + args[i]
                + ": expected "
                + String.join(", ", o.keySet())
                + ", each with a value");
      }
      o.put(args[i], args[++i]);
    }
    for (String required : List.of("--injectors", "--image", "--args")) {
      if (o.get(required) == null) {
        throw new IllegalArgumentException(
            "Missing "
                + required
                + ": expected e.g. --injectors 4 --image registry/gatling-llm-bench:1"
                + " --args '-Dbase.url=http://vllm:8000 -Dconc=512 -Dduration=300'");
      }
    }
    whole(o, "--injectors", 1, 1000);
    whole(o, "--start-in", 0, 86_400);
    whole(o, "--cpus", 1, 256);
    try {
      Long.parseLong(o.get("--seed"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid --seed=" + o.get("--seed") + ": expected a whole number");
    }
    String runArgs = o.get("--args");
    for (String own : SET_HERE) {
      if (runArgs.contains(own)) {
        throw new IllegalArgumentException(
            "Invalid --args="
                + runArgs
                + ": expected no "
                + own
                + " (the manifest sets it for every pod)");
      }
    }
    if (!runArgs.contains("-Dbase.url=")) {
      throw new IllegalArgumentException(
          "Invalid --args="
              + runArgs
              + ": expected -Dbase.url=... (the server all injectors load;"
              + " each pod's own embedded simulator would make runs that cannot be merged)");
    }
    if (runArgs.contains("\n")
        || !o.get("--image").matches("[A-Za-z0-9./:@_-]+")
        || !o.get("--name").matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "Invalid --image, --name or --args: expected an image reference, a DNS label, and one line of -D settings");
    }
    return o;
  }

  private static void whole(Map<String, String> o, String name, int min, int max) {
    try {
      int v = Integer.parseInt(o.get(name));
      if (v >= min && v <= max) {
        return;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "Invalid "
            + name
            + "="
            + o.get(name)
            + ": expected a whole number from "
            + min
            + " to "
            + max);
  }

  /**
   * The manifest: the template's placeholders filled; the start is {@code --start-in} s after
   * {@code nowMs}.
   */
  static String render(String template, Map<String, String> o, long nowMs) {
    long startAt = nowMs + 1000L * Integer.parseInt(o.get("--start-in"));
    return template
        .replace("{{INJECTORS}}", o.get("--injectors"))
        .replace("{{IMAGE}}", o.get("--image"))
        .replace("{{START_AT_ISO}}", Instant.ofEpochMilli(startAt).toString())
        .replace("{{START_AT}}", Long.toString(startAt))
        .replace("{{SEED}}", o.get("--seed"))
        .replace("{{ARGS}}", o.get("--args"))
        .replace("{{NAME}}", o.get("--name"))
        .replace("{{CLAIM}}", o.get("--claim"))
        .replace("{{CPUS}}", o.get("--cpus"));
  }
}
