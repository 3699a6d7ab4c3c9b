package io.github.llmbench.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading a dataset's file, with the one-line errors every dataset gives. */
public final class DatasetFiles {
  private DatasetFiles() {}

  /**
   * The file's text (UTF-8).
   *
   * @param where the setting that named it, e.g. {@code -Ddataset=trace:PATH}
   * @throws DatasetException "Invalid WHERE: no such file", or that it cannot be read and why
   */
  public static String text(Path file, String where) {
    if (!Files.isRegularFile(file)) {
      throw new DatasetException("Invalid " + where + ": no such file");
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new DatasetException("Invalid " + where + ": cannot read it (" + e.getMessage() + ")");
    }
  }
}
