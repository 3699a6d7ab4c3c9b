package io.github.llmbench.records;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/**
 * Appends one JSON line per finished request to {@code llm/requests.jsonl}, flushed as soon as the
 * records that finished together are written, so an aborted run keeps every request that finished;
 * and keeps the requests still in flight so that those the run cut short are recorded too (as
 * failed) when it ends.
 *
 * <p>Thread-safe: requests finish on Gatling's event loops. Those only hand the record over: one
 * writer thread serializes and writes, so no event loop ever waits on the disk (or on the first
 * write's file creation), which would delay every stream it reads.
 */
public final class RunRecorder {
  public static final String FILE_NAME = "requests.jsonl";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<Path> directory;
  private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
  private final List<RequestRecord> finished = new ArrayList<>();
  private final BlockingQueue<RequestRecord> toWrite = new LinkedBlockingQueue<>();
  private final Thread writer;
  private BufferedWriter out;
  private Path file;
  private volatile IOException writeError;

  /** Tells the writer that nothing follows. */
  private static final RequestRecord END = RequestRecord.failed("end", "", null, 0, 0, "end", null, null);

  private record InFlight(String id, String level, String profile, RequestOrigin origin, long startMs) {}

  /**
   * @param directory where {@code requests.jsonl} goes, resolved at the first write (Gatling
   *     creates its run folder only once the run has started)
   */
  public RunRecorder(Supplier<Path> directory) {
    this.directory = directory;
    this.writer = new Thread(this::writeLoop, "llm-records-writer");
    writer.setDaemon(true);
    writer.start();
  }

  /** Notes that a request has started. */
  public void started(String id, String level, String profile, long startMs) {
    started(id, level, profile, null, startMs);
  }

  /** Notes that a request of a conversation or a trace has started. */
  public void started(String id, String level, String profile, RequestOrigin origin, long startMs) {
    inFlight.put(id, new InFlight(id, level, profile, origin, startMs));
  }

  /** Takes a finished request's record; it is written (and flushed) at once by the writer thread. */
  public void finished(RequestRecord record) {
    inFlight.remove(record.id());
    synchronized (this) {
      finished.add(record);
    }
    toWrite.add(record);
  }

  private void writeLoop() {
    try {
      while (true) {
        RequestRecord r = toWrite.take();
        while (r != null && r != END) {
          write(r);
          r = toWrite.poll();
        }
        if (out != null && writeError == null) {
          out.flush();
        }
        if (r == END) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      writeError = e;
    }
  }

  private void write(RequestRecord r) throws IOException {
    if (writeError != null) {
      return;
    }
    try {
      String line = JSON.writeValueAsString(r);
      synchronized (this) {
        open();
      }
      out.write(line);
      out.write('\n');
    } catch (IOException e) {
      writeError = e;
      System.err.println("gatling-llm-bench: cannot write " + (file == null ? FILE_NAME : file) + ": " + e.getMessage());
    }
  }

  /**
   * Ends the recording: every request still in flight is recorded as failed with {@code reason},
   * then the file is written to its end and closed.
   *
   * @return all records of the run, in the order they finished
   */
  public List<RequestRecord> close(long nowMs, String reason) {
    for (InFlight f : List.copyOf(inFlight.values())) {
      finished(RequestRecord.failed(f.id(), f.level(), f.profile(), f.startMs(), nowMs, reason, null, null).withOrigin(f.origin()));
    }
    toWrite.add(END);
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      try {
        if (writeError != null) {
          throw writeError;
        }
        open(); // a run with no finished request still leaves an (empty) file
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + (file == null ? FILE_NAME : file), e);
      }
      return List.copyOf(finished);
    }
  }

  private void open() throws IOException {
    if (out == null) {
      Path dir = directory.get();
      Files.createDirectories(dir);
      file = dir.resolve(FILE_NAME);
      out =
          Files.newBufferedWriter(
              file,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE);
    }
  }

  /** The records finished so far (a copy), in the order they finished. */
  public synchronized List<RequestRecord> finishedSoFar() {
    return List.copyOf(finished);
  }

  /** The folder of the file, resolved at the first record. */
  public synchronized Path directory() {
    return file == null ? null : file.getParent();
  }
}
