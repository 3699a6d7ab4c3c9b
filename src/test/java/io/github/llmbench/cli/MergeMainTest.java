package io.github.llmbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folders that are not the injectors of one run get one line each, before anything is written. */
class MergeMainTest {

  private static Path run(Path dir, String name, String injector, String seed, String conc)
      throws Exception {
    Path llm = Files.createDirectories(dir.resolve(name).resolve("llm"));
    Files.writeString(
        llm.resolve("summary.json"),
        "{\"seed\":"
            + seed
            + ",\"injector\":\""
            + injector
            + "\",\"settings\":{\"conc\":\""
            + conc
            + "\",\"injector\":\""
            + injector
            + "\"},\"levels\":{\"c8\":{}}}");
    Files.writeString(
        llm.resolve("requests.jsonl"),
        "{\"id\":\"req-1\",\"level\":\"c8\",\"start_ms\":1000,\"end_ms\":1100,"
            + "\"ttft_ms\":10.0,\"tpot_ms\":1.0,\"e2el_ms\":100.0,\"itl_ms\":[1.0],\"input_tokens\":10,\"output_tokens\":2,"
            + "\"output_tokens_estimated\":false,\"ok\":true,\"error\":null,\"http_status\":200,\"profile\":null}\n");
    return dir.resolve(name);
  }

  private static List<String> errors(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc =
        MergeMain.run(
            args,
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(3, rc);
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void foldersOfDifferentRunsAreNamed(@TempDir Path dir) throws Exception {
    Path a = run(dir, "a", "0/2", "7", "8");
    Path b = run(dir, "b", "1/2", "9", "16");
    List<String> e = errors(a.toString(), b.toString(), "--out", dir.resolve("m").toString());
    assertEquals(
        List.of(
            "gatling-llm-bench merge: Run "
                + b
                + " has -Dseed=9, run "
                + a
                + " -Dseed=7: expected the injectors of one run (one seed)",
            "gatling-llm-bench merge: Run " + b + " differs from run " + a + " in -Dconc: 16 vs 8"),
        e);
    assertTrue(Files.notExists(dir.resolve("m")), "nothing written");
  }

  @Test
  void aMissingFolderOrInjectorIsNamed(@TempDir Path dir) throws Exception {
    Path a = run(dir, "a", "0/3", "7", "9");
    Path b = run(dir, "b", "2/3", "7", "9");
    assertEquals(
        List.of(
            "gatling-llm-bench merge: Injector 1/3 is missing: expected the run folders of all 3 injectors"),
        errors(a.toString(), b.toString(), "--out", dir.resolve("m").toString()));
    assertEquals(
        List.of(
            "gatling-llm-bench merge: Invalid run folder="
                + dir.resolve("nope")
                + ": expected a Gatling run folder holding llm/requests.jsonl and llm/summary.json"),
        errors(a.toString(), dir.resolve("nope").toString(), "--out", dir.resolve("m").toString()));
  }
}
