package io.github.llmbench.testing;

import io.github.llmbench.analysis.RunAnalysis;
import io.github.llmbench.catalog.Catalog;
import io.github.llmbench.records.RequestRecord;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A synthetic 3-level run (plus a warmup level) and the run folder Gatling would leave for it: the
 * records the report tests of {@code report}, {@code cli} and {@code compare} write pages from,
 * with hostile texts ({@link #XSS}, {@link #PROMPT_XSS}) and a secret in its metadata that no page
 * may show.
 */
public final class ThreeLevelRun {

  private ThreeLevelRun() {}

  public static final long T = 1_700_000_000_000L;
  public static final String XSS = "<script>alert(1)</script>";
  public static final String PROMPT_XSS = "Summarise: <script>alert(2)</script> & \"quotes\"";

  /** A minimal Gatling index.html with its sub-menu, as Gatling 3.15 writes it. */
  public static final String GATLING_INDEX =
      """
      <!DOCTYPE html>
      <html lang="en"><head><title>Gatling Stats - Global Information</title></head><body>
      <div class="content-header">
        <div class="onglet">ServingBenchmarkSimulation</div>
        <div class="sous-menu" id="sousMenu">
          <div class="sous-menu-spacer">
            <div class="item ouvert"><a href="index.html">Global</a></div>
      <div class="item"><a id="details_link" href="group_c2-1.html">Details</a></div>
          </div>
        </div>
      </div></body></html>
      """;

  /**
   * Closed-loop levels c2, c4, c8 of 6 s each, one after the other, after a c1 "warmup"; each
   * request 8 chunks; the busier the level, the slower each request. One failed request carries a
   * hostile error text.
   */
  public static List<RequestRecord> records() {
    List<RequestRecord> rs = new ArrayList<>();
    // 8 tokens, 7 gaps of 50 ms: e2el 400 ms, ends at T + 400
    rs.add(
        TestRecords.ok("warmup")
            .id("w0")
            .start(T)
            .ttft(50)
            .tpot(50)
            .inputTokens(100)
            .outputTokens(8)
            .build());
    long levelStart = T + 1_000;
    int id = 0;
    for (int c : new int[] {2, 4, 8}) {
      long gap = 20L + 5L * c; // ms between chunks
      long ttft = 40L + 10L * c;
      long dur = ttft + 7 * gap + 5;
      for (int s = 0; s < c; s++) {
        long t = levelStart + s * 3L;
        while (t < levelStart + 6_000) {
          // 7 gaps of gap ms, e2el = ttft + 7 gap
          rs.add(
              TestRecords.ok("c" + c)
                  .id("r" + id++)
                  .start(t)
                  .end(t + dur)
                  .ttft(ttft)
                  .tpot(gap)
                  .inputTokens(100)
                  .outputTokens(8)
                  .build());
          t += dur;
        }
      }
      rs.add(
          TestRecords.failed("c" + c, XSS)
              .id("f" + id++)
              .start(levelStart + 100)
              .end(levelStart + 150)
              .inputTokens(100)
              .status(500)
              .build());
      levelStart += 7_000;
    }
    return rs;
  }

  public static Map<String, Object> metadata() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("backend", "openai-chat");
    m.put("model_id", "Qwen/<b>Qwen2.5</b>-7B");
    m.put("dataset", PROMPT_XSS);
    m.put("api_key", "sk-secret-not-shown");
    return m;
  }

  /**
   * Writes the report of {@link #records()} with {@link #metadata()} into {@code run} (a {@link
   * #runFolder}), as Qwen2.5-7B on one RTX 4080 32 GB: no server telemetry, no concurrencies given.
   *
   * @return the analysis the report was written from
   */
  public static RunAnalysis write(Path run, PrintStream console) {
    return TestReports.write(
        run,
        records(),
        RunAnalysis.Telemetry.NONE,
        Map.of(),
        Catalog.model("qwen2.5-7b-instruct"),
        Catalog.gpu("rtx4080-32gb"),
        1,
        metadata(),
        console);
  }

  public static Path runFolder(Path dir) throws Exception {
    Path run = dir.resolve("servingbenchmarksimulation-20250101000000000");
    Files.createDirectories(run.resolve("llm"));
    Files.writeString(run.resolve("index.html"), GATLING_INDEX);
    Files.writeString(run.resolve("group_c2-1.html"), GATLING_INDEX.replace("item ouvert", "item"));
    return run;
  }
}
