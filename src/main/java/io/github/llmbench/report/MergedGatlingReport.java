package io.github.llmbench.report;

import io.gatling.charts.report.ReportsGenerationInputs;
import io.gatling.charts.report.ReportsGenerator;
import io.gatling.charts.stats.LogFileData;
import io.gatling.charts.stats.LogFileReader;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.GatlingVersion;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.stats.writer.BufferedFileChannelWriter;
import io.gatling.core.stats.writer.DataWriterMessage;
import io.gatling.core.stats.writer.DataWriterMessage$LoadEvent$Group;
import io.gatling.core.stats.writer.DataWriterMessage$LoadEvent$Response;
import io.gatling.core.stats.writer.DataWriterMessage$LoadEvent$User;
import io.gatling.core.stats.writer.FileData;
import io.gatling.core.stats.writer.LogFileDataWriter;
import io.gatling.core.stats.writer.RunMessage;
import io.gatling.core.stats.writer.StringInternals;
import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.RunDirectory;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Gatling's own report of a merged run: a {@code simulation.log} written with Gatling's own log
 * writer from the union of the injectors' records, then Gatling's report generator over it, as
 * {@code gatling --reports-only} would run it, into the merged run folder ({@code index.html}, its
 * group and request pages, {@code js/}, {@code style/}).
 *
 * <p>Each record is written as the injector's run logged it: one virtual user of its level's
 * scenario, from its send to its end; the level's group (and its profile's, in profile runs) from
 * its send to its end, its cumulated response time its stream's record's; one {@code request}
 * record, OK for its E2EL (whole ms, truncated), or KO from its send to its failure with the
 * reason. A request the client cancelled on purpose has no {@code request} record (as in the
 * injector's run: neither OK nor KO) and a KO group. Gatling's latency records ({@code
 * -Dstats.records}) are left out: Global counts streams.
 *
 * <p>Uses Gatling's internal Scala API (gatling-core and gatling-charts 3.15.1: {@code
 * LogFileDataWriter} and its messages, {@code LogFileReader}, {@code ReportsGenerator}); kept in
 * this one class so an upgrade breaks in one place ({@code MergedGatlingReportTest}). Its log
 * writer and reader need {@code --add-opens=java.base/java.lang=ALL-UNNAMED} ({@code
 * .mvn/jvm.config} gives it to {@code exec:java@merge}).
 */
public final class MergedGatlingReport {
  /** The name of a stream's Gatling record, as the capture names it. */
  public static final String REQUEST_RECORD = RunDirectory.REQUEST_RECORD;

  private static final String LOG_FILE = RunDirectory.SIMULATION_LOG;

  /** A user's start in its millisecond: after the other users' ends (orders 0 to 2). */
  private static final int START_ORDER = 3;

  private MergedGatlingReport() {}

  /**
   * Writes {@code runFolder/simulation.log} from {@code records}, then Gatling's report beside it.
   *
   * @param simulation the simulation's name, as its runs named it
   * @param description the run's description, shown under its name
   * @return Gatling's {@code index.html}
   * @throws IllegalStateException when Gatling's log writer cannot run in this JVM (no {@code
   *     --add-opens}), or the records hold no request
   */
  public static Path write(
      Path runFolder, String simulation, String description, List<RequestRecord> records)
      throws IOException {
    if (records.isEmpty()) {
      throw new IllegalStateException("no request to report");
    }
    try {
      StringInternals.checkAvailability();
    } catch (Throwable t) {
      throw new IllegalStateException(
          "Gatling's log writer needs --add-opens=java.base/java.lang=ALL-UNNAMED ("
              + t.getMessage()
              + ")");
    }
    Path folder = runFolder.toAbsolutePath().normalize();
    writeLog(folder.resolve(LOG_FILE), simulation, description, records);
    GatlingConfiguration configuration = GatlingConfiguration.load();
    LogFileData data = new LogFileReader(folder.resolve(LOG_FILE).toFile(), configuration).read();
    return new ReportsGenerator(
            configuration.data().zoneId(),
            configuration.core().charset(),
            folder.getParent(),
            configuration.reports())
        .generateFor(
            new ReportsGenerationInputs(
                folder.getFileName().toString(),
                data,
                scala.collection.immutable.List$.MODULE$.empty()));
  }

  /** One event of the log, and when the injector's run wrote it. */
  private record Event(long at, int order, DataWriterMessage.LoadEvent message) {}

  /** Writes the log: the run, then every record's events in time order (users must be). */
  public static void writeLog(
      Path log, String simulation, String description, List<RequestRecord> records)
      throws IOException {
    long start = records.stream().mapToLong(RequestRecord::startMs).min().orElseThrow();
    // one scenario per level, as the injectors' runs have
    HashMap<String, Object> scenarioIndex = new HashMap<>();
    records.stream()
        .map(MergedGatlingReport::levelOf)
        .distinct()
        .forEach(l -> scenarioIndex.put(l, scenarioIndex.size()));
    RunMessage run =
        new RunMessage(
            simulation,
            simulation.substring(simulation.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT),
            start,
            description,
            GatlingVersion.ThisVersion().fullVersion(),
            ZoneId.systemDefault());
    List<Event> events = new ArrayList<>();
    for (RequestRecord r : records) {
      events.addAll(events(r));
    }
    events.sort(Comparator.comparingLong(Event::at).thenComparingInt(Event::order));
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw")) {
      file.setLength(0);
      FileChannel channel = file.getChannel();
      LogFileDataWriter writer =
          new LogFileDataWriter(
              run,
              scenarioIndex,
              scala.collection.immutable.List$.MODULE$.empty(),
              new BufferedFileChannelWriter(channel, ByteBuffer.allocate(8192)));
      FileData data = writer.onInit();
      for (Event e : events) {
        writer.onMessage(e.message(), data);
      }
      writer.onStop(data); // flushes and closes the channel
    }
  }

  /**
   * A record's events: its user's start, then at its end its request, groups and user's end. In one
   * millisecond, other users' ends come before a start (a closed model's next user starts as one
   * ends: not one more user at once), and a user's own start before its end.
   */
  private static List<Event> events(RequestRecord r) {
    String scenario = levelOf(r);
    long end = gatlingEndMs(r);
    long left = Math.max(end, r.endMs()); // its user leaves the group at the stream's end
    Status status = r.ok() ? OK$.MODULE$ : KO$.MODULE$;
    List<String> groups = r.profile() == null ? List.of(scenario) : List.of(scenario, r.profile());
    List<Event> events = new ArrayList<>();
    events.add(
        new Event(
            r.startMs(),
            START_ORDER,
            new DataWriterMessage$LoadEvent$User(scenario, r.startMs(), true)));
    if (!r.cancelled()) {
      events.add(
          new Event(
              end,
              endOrder(r, end),
              new DataWriterMessage$LoadEvent$Response(
                  scenario,
                  scalaList(groups),
                  REQUEST_RECORD,
                  r.startMs(),
                  end,
                  status,
                  Option.apply(r.httpStatus() == null ? null : r.httpStatus().toString()),
                  Option.apply(r.ok() ? null : r.error()))));
    }
    int cumulated = r.cancelled() ? 0 : (int) (end - r.startMs());
    // the innermost group ends first, as the user leaves it first
    for (int depth = groups.size(); depth >= 1; depth--) {
      events.add(
          new Event(
              left,
              endOrder(r, left) + 1,
              new DataWriterMessage$LoadEvent$Group(
                  scenario,
                  scalaList(groups.subList(0, depth)),
                  r.startMs(),
                  left,
                  cumulated,
                  status)));
    }
    events.add(
        new Event(
            left,
            endOrder(r, left) + 2,
            new DataWriterMessage$LoadEvent$User(scenario, left, false)));
    return events;
  }

  /** Where an end event of {@code r} at {@code t} goes in its millisecond: after its own start. */
  private static int endOrder(RequestRecord r, long t) {
    return t == r.startMs() ? START_ORDER + 1 : 0;
  }

  /**
   * The end of a stream's Gatling record, as the capture logs it: t0 plus its E2EL (whole ms,
   * truncated) when completed, its end otherwise.
   */
  public static long gatlingEndMs(RequestRecord r) {
    return r.ok() && r.e2elMs() != null ? r.startMs() + r.e2elMs().longValue() : r.endMs();
  }

  /** A record's level, its scenario and outer group ({@code all} for a record without one). */
  private static String levelOf(RequestRecord r) {
    return r.level() == null ? "all" : r.level();
  }

  private static scala.collection.immutable.List<String> scalaList(List<String> list) {
    return CollectionConverters.asScala(list).toList();
  }
}
