package io.github.llmbench.records;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.report.RunReport;
import io.github.llmbench.testing.TestRecords;
import io.github.llmbench.testing.TestReports;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a big run costs: the heap held by its finished records and the time and heap of re-doing its
 * report. Not a test (it takes minutes and a gigabyte of disk); run it as
 *
 * <pre>
 * mvn -q test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.github.llmbench.records.RecordsBenchmark \
 *     -Dexec.args="--requests 1000000 --chunks 128"
 * </pre>
 *
 * <p>Three child JVMs, on the same classpath, so each heap limit is the one a real run has:
 *
 * <ol>
 *   <li><b>write</b>, {@code -Xmx2g} (the heap the Gatling plugin gives a run): a synthetic
 *       closed-loop ladder (levels c64, c256, c1024 by default; {@code --chunks} text chunks per
 *       request, so chunks - 1 ITLs around 10 ms with jitter and rare stalls, stamped in ns and
 *       turned into gaps by {@link ItlSeries#fromArrivalNanos} as the capture does; about 0.5%
 *       failed requests) goes through the real {@link RunRecorder}, which keeps every record to the
 *       end as in a run. Prints the heap used after a full GC before and after, per record, and the
 *       biggest classes of a heap histogram ({@code jcmd GC.class_histogram}); then the end-of-run
 *       report of the held records ({@link RunReport#write}, as RunEnd does), which writes {@code
 *       llm/summary.json} and {@code llm.html}.
 *   <li><b>read</b>, {@code -Xmx1g}: {@link RequestsJsonl#read} alone, timed.
 *   <li><b>report</b>, {@code -Xmx1g}: {@code ReportMain <run dir>}, as a user re-does a report;
 *       wall time, exit status, and the heap before each GC pause from {@code -Xlog:gc} (its
 *       maximum is the peak heap in use), then whether the summary it rewrote equals the live one
 *       (the records read back must give the same report as the records held).
 * </ol>
 *
 * <p>Flags: {@code --requests 1000000 --chunks 128 --levels c64,c256,c1024 --dir
 * target/records-benchmark --write-heap 2g --report-heap 1g --seed 1 --keep false} ({@code --keep
 * true} leaves the run folder, over a gigabyte for a million requests, on disk).
 */
public final class RecordsBenchmark {

  private static final long T0 = 1_750_000_000_000L;
  private static final Pattern GC_LINE =
      Pattern.compile("GC\\(\\d+\\) Pause .*?(\\d+)M->(\\d+)M\\((\\d+)M\\)");

  private RecordsBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    if (o.containsKey("--phase")) {
      switch (o.get("--phase")) {
        case "write" -> write(o);
        case "read" -> read(o);
        default -> throw new IllegalArgumentException("--phase write|read");
      }
      return;
    }
    Path dir = Paths.get(o.get("--dir")).toAbsolutePath();
    Path runDir = dir.resolve("recordsbenchmark-run");
    System.out.printf(
        Locale.ROOT,
        "records benchmark: %s requests x %s chunks, levels %s; java %s,"
            + " %d cpus, load average %s%n",
        o.get("--requests"),
        o.get("--chunks"),
        o.get("--levels"),
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        load());
    deleteTree(runDir);
    Files.createDirectories(runDir);

    List<String> pass = new ArrayList<>();
    for (String k : List.of("--requests", "--chunks", "--levels", "--seed")) {
      pass.add(k);
      pass.add(o.get(k));
    }
    pass.add("--run");
    pass.add(runDir.toString());

    System.out.println(
        "\n--- write: RunRecorder keeps every record (-Xmx" + o.get("--write-heap") + ")");
    List<String> write = new ArrayList<>(List.of("-Xmx" + o.get("--write-heap")));
    Child w =
        child(
            write,
            RecordsBenchmark.class.getName(),
            withPhase(pass, "write"),
            dir.resolve("write-gc.log"),
            null);
    check(w, "write");

    System.out.println("\n--- read: RequestsJsonl.read alone (-Xmx" + o.get("--report-heap") + ")");
    Child r =
        child(
            List.of("-Xmx" + o.get("--report-heap")),
            RecordsBenchmark.class.getName(),
            withPhase(pass, "read"),
            dir.resolve("read-gc.log"),
            null);
    check(r, "read");

    System.out.println(
        "\n--- report: ReportMain on the run folder (-Xmx" + o.get("--report-heap") + ")");
    byte[] liveSummary = Files.readAllBytes(runDir.resolve("llm/summary.json"));
    Path console = dir.resolve("reportmain-console.txt");
    Child rep =
        child(
            List.of("-Xmx" + o.get("--report-heap")),
            "io.github.llmbench.cli.ReportMain",
            List.of(runDir.toString()),
            dir.resolve("report-gc.log"),
            console);
    System.out.printf(
        Locale.ROOT,
        "ReportMain: exit status %d, wall %.1f s%s%n",
        rep.status,
        rep.wallS,
        rep.status == 0
            ? " (succeeded under -Xmx" + o.get("--report-heap") + ")"
            : " (FAILED, see " + console + ")");
    System.out.println("ReportMain " + rep.gc);
    byte[] redone = Files.readAllBytes(runDir.resolve("llm/summary.json"));
    System.out.println(
        "summary.json rewritten by ReportMain equals the live one: "
            + (Arrays.equals(liveSummary, redone) ? "yes" : "NO"));
    System.out.printf(
        Locale.ROOT,
        "llm.html: %.1f KB; console output in %s%n",
        Files.size(runDir.resolve("llm.html")) / 1024.0,
        console);
    System.out.println("load average at the end: " + load());
    if (!Boolean.parseBoolean(o.get("--keep"))) {
      deleteTree(runDir);
    }
    check(rep, "ReportMain");
  }

  // ------------------------------------------------------------------ phases (child JVMs)

  private static void write(Map<String, String> o) throws Exception {
    int requests = Integer.parseInt(o.get("--requests"));
    int chunks = Integer.parseInt(o.get("--chunks"));
    String[] levels = o.get("--levels").split(",");
    Path runDir = Paths.get(o.get("--run"));
    Random rnd = new Random(Long.parseLong(o.get("--seed")));

    long before = usedAfterGc();
    RunRecorder recorder = new RunRecorder(() -> runDir.resolve(RunFiles.LLM_FOLDER));
    long t = System.nanoTime();
    long[] arrivals = new long[chunks];
    Map<String, Integer> concurrency = new LinkedHashMap<>();
    long levelStart = T0;
    int id = 0;
    for (int l = 0; l < levels.length; l++) {
      String level = levels[l];
      int c = Integer.parseInt(level.substring(1));
      concurrency.put(level, c);
      int n = requests / levels.length + (l < requests % levels.length ? 1 : 0);
      // closed loop: each of the C users sends its next request 1 ms after the last one ended
      long[] free = new long[c];
      for (int u = 0; u < c; u++) {
        free[u] = levelStart + u % 50; // a staggered start
      }
      double itlMs = 10.0 + 2.0 * Math.log(c / 64.0 + 1); // busier levels decode a bit slower
      long levelEnd = levelStart;
      for (int k = 0; k < n; k++) {
        int u = k % c;
        long start = free[u];
        String rid = "req-" + (++id);
        recorder.started(rid, level, null, start);
        RequestRecord r;
        long endMs;
        if (rnd.nextInt(200) == 0) { // about 0.5% failures
          endMs = start + 5 + rnd.nextInt(3_000);
          String why = rnd.nextBoolean() ? "HTTP 503" : "timeout: no [DONE] within 600 s";
          r =
              RequestRecord.builder()
                  .id(rid)
                  .level(level)
                  .startMs(start)
                  .endMs(endMs)
                  .error(why)
                  .httpStatus(why.startsWith("HTTP") ? 503 : 200)
                  .inputTokens(1024)
                  .build();
        } else {
          // arrivals in ns since t0 (t0 = start ms): TTFT, then the ITLs
          long ns = (long) ((30.0 + 0.2 * c + rnd.nextGaussian() * 5.0) * 1e6) + rnd.nextInt(1000);
          ns = Math.max(1_000_000, ns);
          arrivals[0] = ns;
          for (int i = 1; i < chunks; i++) {
            double gap = itlMs + rnd.nextGaussian() * 0.6;
            if (rnd.nextInt(400) == 0) {
              gap += 80 + rnd.nextInt(150); // a stall: another request's prefill
            }
            ns += (long) (Math.max(0.05, gap) * 1e6) + rnd.nextInt(1000);
            arrivals[i] = ns;
          }
          ItlSeries itl = ItlSeries.fromArrivalNanos(arrivals, chunks);
          long ttftUs = ItlSeries.nanosToMicros(arrivals[0]);
          long e2elUs = ttftUs + itl.sumMicros();
          double ttft = ttftUs / 1000.0;
          double e2el = e2elUs / 1000.0;
          Double tpot = chunks > 1 ? (e2el - ttft) / (chunks - 1) : null;
          endMs = start + (e2elUs + 999) / 1000 + 1;
          r =
              TestRecords.ok(level)
                  .id(rid)
                  .start(start)
                  .end(endMs)
                  .ttft(ttft)
                  .tpot(tpot)
                  .e2el(e2el)
                  .itl(itl)
                  .inputTokens(1024)
                  .outputTokens(chunks)
                  .build();
        }
        recorder.finished(r);
        free[u] = endMs + 1;
        levelEnd = Math.max(levelEnd, endMs);
      }
      levelStart = levelEnd + 5_000;
    }
    List<RequestRecord> all = recorder.close(levelStart, "unfinished when the run ended");
    double writeS = (System.nanoTime() - t) / 1e9;
    Path file = RunFiles.ofRun(runDir).requests();
    System.out.printf(
        Locale.ROOT,
        "wrote %,d records (%d chunks, %d ITLs each) through RunRecorder"
            + " in %.1f s: %s, %.1f MB (%.0f bytes a line)%n",
        all.size(),
        chunks,
        chunks - 1,
        writeS,
        file,
        Files.size(file) / 1e6,
        Files.size(file) / (double) all.size());

    long held = usedAfterGc();
    System.out.printf(
        Locale.ROOT,
        "heap used after GC: %.1f MB before, %.1f MB holding the records"
            + " (max heap %d MB): %.0f bytes per record, %.2f bytes per ITL value overall%n",
        before / 1e6,
        held / 1e6,
        Runtime.getRuntime().maxMemory() >> 20,
        (held - before) / (double) all.size(),
        (held - before) / ((double) all.size() * Math.max(1, chunks - 1)));
    histogram(12);

    System.out.println("end-of-run report of the held records (RunReport.write, as RunEnd):");
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("date", "20250101-000000");
    metadata.put("backend", "openai-chat");
    metadata.put("model_id", "Qwen/Qwen2.5-7B-Instruct");
    metadata.put("dataset", "synthetic (RecordsBenchmark)");
    long r0 = System.nanoTime();
    try (PrintStream console =
        new PrintStream(
            Files.newOutputStream(runDir.resolve("live-console.txt")),
            true,
            StandardCharsets.UTF_8)) {
      TestReports.write(
          runDir,
          all,
          RunAnalysis.Telemetry.NONE,
          concurrency,
          Catalog.model("qwen2.5-7b-instruct"),
          Catalog.gpu("h100-sxm"),
          1,
          metadata,
          console);
    }
    System.out.printf(
        Locale.ROOT,
        "  %.1f s, heap used after GC then %.1f MB%n",
        (System.nanoTime() - r0) / 1e9,
        usedAfterGc() / 1e6);
    if (all.size() != requests) {
      throw new IllegalStateException(all.size() + " records for " + requests + " requests");
    }
  }

  private static void read(Map<String, String> o) {
    Path file = Paths.get(o.get("--run")).resolve(RunFiles.LLM_FOLDER).resolve(RunFiles.REQUESTS);
    long t = System.nanoTime();
    List<RequestRecord> rs = RequestsJsonl.read(file);
    double s = (System.nanoTime() - t) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "RequestsJsonl.read: %,d records in %.1f s (%.0f MB/s), heap" + " used after GC %.1f MB%n",
        rs.size(),
        s,
        file.toFile().length() / 1e6 / s,
        usedAfterGc() / 1e6);
  }

  // ------------------------------------------------------------------ helpers

  private record Child(int status, double wallS, String gc) {}

  /** Runs a JVM on this classpath with the GC log to {@code gcLog}; prints its output. */
  private static Child child(
      List<String> jvmArgs, String mainClass, List<String> args, Path gcLog, Path outputFile)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-Xlog:gc:file=" + gcLog + "::filecount=0"); // one file: no rotation to miss
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(mainClass);
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    if (outputFile != null) {
      pb.redirectOutput(outputFile.toFile());
    } else {
      pb.inheritIO();
    }
    long t = System.nanoTime();
    int status = pb.start().waitFor();
    double wall = (System.nanoTime() - t) / 1e9;
    return new Child(status, wall, gcSummary(gcLog));
  }

  /** Peak heap (before a GC pause) and the largest heap left after one, from -Xlog:gc. */
  static String gcSummary(Path gcLog) throws IOException {
    long peak = 0;
    long maxAfter = 0;
    long committed = 0;
    int pauses = 0;
    for (String line : Files.readAllLines(gcLog)) {
      Matcher m = GC_LINE.matcher(line);
      if (m.find()) {
        pauses++;
        peak = Math.max(peak, Long.parseLong(m.group(1)));
        maxAfter = Math.max(maxAfter, Long.parseLong(m.group(2)));
        committed = Math.max(committed, Long.parseLong(m.group(3)));
      }
    }
    return String.format(
        Locale.ROOT,
        "heap (from -Xlog:gc, %d pauses): peak used %d MB before a"
            + " GC, at most %d MB left after one, %d MB committed",
        pauses,
        peak,
        maxAfter,
        committed);
  }

  private static void check(Child c, String what) {
    System.out.println(
        what + " " + c.gc + "; wall " + String.format(Locale.ROOT, "%.1f s", c.wallS));
    if (c.status != 0) {
      throw new IllegalStateException(what + " failed with exit status " + c.status);
    }
  }

  /** The classpath of this program: exec:java's class loader, else java.class.path. */
  private static String classpath() {
    List<String> parts = new ArrayList<>();
    ClassLoader cl = RecordsBenchmark.class.getClassLoader();
    if (cl instanceof URLClassLoader u) {
      for (URL url : u.getURLs()) {
        try {
          parts.add(Paths.get(url.toURI()).toString());
        } catch (URISyntaxException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return parts.isEmpty()
        ? System.getProperty("java.class.path")
        : String.join(File.pathSeparator, parts);
  }

  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) { // until it stops shrinking: a GC may leave work to the next
      System.gc();
      long now = rt.totalMemory() - rt.freeMemory();
      if (now >= used) {
        break;
      }
      used = now;
    }
    return used;
  }

  /** The top lines of this JVM's class histogram (jcmd), when jcmd is there. */
  private static void histogram(int lines) {
    Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
    if (!Files.isExecutable(jcmd)) {
      System.out.println("(no jcmd in " + jcmd.getParent() + ": no class histogram)");
      return;
    }
    try {
      Process p =
          new ProcessBuilder(
                  jcmd.toString(),
                  Long.toString(ProcessHandle.current().pid()),
                  "GC.class_histogram")
              .redirectErrorStream(true)
              .start();
      List<String> out =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      p.waitFor();
      System.out.println("class histogram (jcmd GC.class_histogram), top " + lines + ":");
      out.stream().skip(1).limit(lines + 2L).forEach(l -> System.out.println("  " + l));
      out.stream().filter(l -> l.startsWith("Total")).forEach(l -> System.out.println("  " + l));
    } catch (IOException | InterruptedException e) {
      System.out.println("(class histogram failed: " + e.getMessage() + ")");
    }
  }

  private static String load() {
    double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return l < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f (1 min)", l);
  }

  private static List<String> withPhase(List<String> args, String phase) {
    List<String> out = new ArrayList<>(args);
    out.add("--phase");
    out.add(phase);
    return out;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("--requests", "1000000");
    o.put("--chunks", "128");
    o.put("--levels", "c64,c256,c1024");
    o.put("--dir", "target/records-benchmark");
    o.put("--write-heap", "2g");
    o.put("--report-heap", "1g");
    o.put("--seed", "1");
    o.put("--keep", "false");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got " + a);
      }
      o.put(a, args[++i]);
    }
    return o;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
