package io.github.llmbench.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DIR/history.jsonl}: one JSON line per run, appended at each run's end. A folder of one
 * text file, so a CI cache or artefact keeps it as it is, a person reads and diffs it, and no
 * database or dependency is needed; appending one line is all a run writes.
 */
public final class HistoryFile {
  private HistoryFile() {}

  /** The file's name in the history folder. */
  public static final String NAME = "history.jsonl";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The history file of the folder {@code dir}. */
  public static Path of(Path dir) {
    return dir.resolve(NAME);
  }

  /** Appends a run's line (the folder is created when missing). */
  public static void append(Path dir, HistoryLine line) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(
        of(dir),
        MAPPER.writeValueAsString(line) + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /**
   * What a history holds.
   *
   * @param lines the runs, in file order (the order they ended)
   * @param skipped lines that were not a run's JSON (a cut line, a merge conflict): left out
   * @param newer lines of a newer format than this kit's, read as far as their fields are known
   */
  public record Read(List<HistoryLine> lines, int skipped, int newer) {
    public static final Read EMPTY = new Read(List.of(), 0, 0);

    public Read {
      lines = List.copyOf(lines);
    }

    /** The runs of one key, in order. */
    public List<HistoryLine> ofKey(String key) {
      return lines.stream().filter(l -> key.equals(l.key())).toList();
    }

    /** {@code ; 2 malformed lines skipped} and the like, or empty. */
    public String notes() {
      return (skipped > 0 ? "; " + skipped + " malformed line(s) skipped" : "")
          + (newer > 0 ? "; " + newer + " line(s) of a newer format read in part" : "");
    }
  }

  /** The history in {@code dir}; {@link Read#EMPTY} when it has no file yet. */
  public static Read read(Path dir) throws IOException {
    Path file = of(dir);
    if (!Files.exists(file)) {
      return Read.EMPTY;
    }
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** The runs of these lines; blank lines are ignored, malformed ones counted. */
  static Read parse(List<String> text) {
    List<HistoryLine> lines = new ArrayList<>();
    int skipped = 0;
    int newer = 0;
    for (String t : text) {
      if (t.isBlank()) {
        continue;
      }
      try {
        HistoryLine l = MAPPER.readValue(t, HistoryLine.class);
        if (l == null || l.key() == null || l.run() == null) {
          skipped++;
          continue;
        }
        if (l.version() > HistoryLine.VERSION) {
          newer++;
        }
        lines.add(l);
      } catch (JsonProcessingException | IllegalArgumentException e) {
        skipped++;
      }
    }
    return new Read(lines, skipped, newer);
  }
}
