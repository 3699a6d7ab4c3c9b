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
import java.util.concurrent.atomic.AtomicBoolean;
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
 *
 * <p>The folder is resolved once, by the writer thread, as soon as the first request starts: the
 * run's Gatling folder can be found only while the run goes on ({@link RunDirectory}), and a
 * request that starts is the first sign of that the kit gets.
 */
public final class RunRecorder {

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
  private static final RequestRecord END =
      RequestRecord.builder().id("end").level("").error("end").build();

  /** Tells the writer that the run has started: time to resolve the folder. */
  private static final RequestRecord RUN_STARTED =
      RequestRecord.builder().id("run-started").level("").error("run started").build();

  private final AtomicBoolean anyStarted = new AtomicBoolean();

  /** Who else hears of each request's start and end (a live export), on the caller's thread. */
  public interface Listener {
    /**
     * A request of {@code level} was sent; {@code origin} says its trial, injector, conversation
     * (null when it has none).
     */
    void started(String level, RequestOrigin origin);

    void finished(RequestRecord record);
  }

  private final List<Listener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Tells {@code l} of every request that starts or finishes from now on. */
  public void listen(Listener l) {
    listeners.add(l);
  }

  private record InFlight(
      String id, String level, String profile, RequestOrigin origin, long startMs) {}

  /**
   * @param directory where {@code requests.jsonl} goes, resolved once on the writer thread when the
   *     first request starts (or when the recorder is closed, if none started): Gatling creates its
   *     run folder only once the run has started
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
    for (Listener l : listeners) {
      l.started(level, origin);
    }
    if (!anyStarted.get() && anyStarted.compareAndSet(false, true)) {
      toWrite.add(
          RUN_STARTED); // resolved on the writer thread: the lookup may wait, an event loop must
      // not
    }
  }

  /**
   * Takes a finished request's record; it is written (and flushed) at once by the writer thread.
   */
  public void finished(RequestRecord record) {
    inFlight.remove(record.id());
    for (Listener l : listeners) {
      l.finished(record);
    }
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

  /** Writes a record; {@link #RUN_STARTED} only opens the file, in the folder resolved now. */
  private void write(RequestRecord r) throws IOException {
    if (writeError != null) {
      return;
    }
    try {
      String line = r == RUN_STARTED ? null : JSON.writeValueAsString(r);
      open();
      if (line != null) {
        out.write(line);
        out.write('\n');
      }
    } catch (IOException e) {
      writeError = e;
      System.err.println(
          "gatling-llm-bench: cannot write "
              + (file == null ? RunFiles.REQUESTS : file)
              + ": "
              + e.getMessage());
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
      finished(
          RequestRecord.builder()
              .id(f.id())
              .level(f.level())
              .profile(f.profile())
              .origin(f.origin())
              .startMs(f.startMs())
              .endMs(Math.max(nowMs, f.startMs()))
              .error(reason)
              .build());
    }
    toWrite.add(END);
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (writeError != null) {
        throw writeError;
      }
      open(); // a run with no started request still leaves an (empty) file
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write " + (file == null ? RunFiles.REQUESTS : file), e);
    }
    return finishedSoFar();
  }

  /**
   * Resolves the folder and opens the file, the first time; by the writer thread, or by {@link
   * #close} once that has ended. Not under the lock: the folder's lookup may wait a little, and the
   * event loops take the lock in {@link #finished}.
   */
  private void open() throws IOException {
    if (out != null) {
      return;
    }
    Path dir;
    try {
      dir = directory.get();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    Files.createDirectories(dir);
    Path opened = dir.resolve(RunFiles.REQUESTS);
    BufferedWriter fileWriter =
        Files.newBufferedWriter(
            opened,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    synchronized (this) {
      file = opened;
    }
    out = fileWriter;
  }

  /** The records finished so far (a copy), in the order they finished. */
  public synchronized List<RequestRecord> finishedSoFar() {
    return List.copyOf(finished);
  }

  /** The folder of the file, resolved when the first request started; null before. */
  public synchronized Path directory() {
    return file == null ? null : file.getParent();
  }
}
