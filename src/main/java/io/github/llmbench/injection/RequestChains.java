package io.github.llmbench.injection;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.github.llmbench.capture.CallGraph;
import io.github.llmbench.capture.Cancelling;
import io.github.llmbench.capture.CaptureOptions;
import io.github.llmbench.capture.ClientProbe;
import io.github.llmbench.capture.StreamCapture;
import io.github.llmbench.capture.TokenCounter;
import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.Level;
import io.github.llmbench.core.Seeds;
import io.github.llmbench.records.RequestOrigin;
import io.github.llmbench.records.RunRecorder;
import io.github.llmbench.settings.BenchSettings;
import io.github.llmbench.settings.BenchSettings.DatasetKind;
import io.github.llmbench.settings.InjectorSettings;
import io.github.llmbench.settings.ServerSettings;
import io.github.llmbench.settings.SessionSettings;
import io.github.llmbench.settings.WorkloadSettings;
import io.github.llmbench.workload.Dataset;
import io.github.llmbench.workload.FeederRecords;
import io.github.llmbench.workload.ImageSupply;
import io.github.llmbench.workload.LocalTokenizer;
import io.github.llmbench.workload.ModelMix;
import io.github.llmbench.workload.PreparedWorkload;
import io.github.llmbench.workload.RequestBodies;
import io.github.llmbench.workload.RequestSpec;
import io.github.llmbench.workload.sessions.AgentSession;
import io.github.llmbench.workload.sessions.MessageTemplate;
import io.github.llmbench.workload.sessions.SessionRun;
import io.github.llmbench.workload.sessions.SessionSupply;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The Gatling chains of the kit's requests: each phase's request (fed from the dataset, or the
 * warmup's, inside its level's group), a trace's requests with their send times, a capacity
 * probe's, and the plain streamed request of a simulation's own scenario.
 *
 * <p>One instance per run: its counters number the requests across phases, so no two phases send
 * the same dataset request and each conversation has its own id.
 */
public final class RequestChains {

  /**
   * The trace's clock starts this long after its first request is fed, so each request, the first
   * too, reaches its send action before its time and waits there (Gatling injects user n at its
   * time from the phase's start). Measured on a busy 2-core machine: the first user took 12-22 ms
   * from its start to that wait, and Gatling's ticks and timers started some users up to 64 ms
   * late.
   */
  static final long TRACE_LEAD_NANOS = 250_000_000L;

  /** The warmup's sessions wait and write from another seed than the measured ones. */
  private static final long WARMUP_SESSION_SALT = 0x5E55_1011_0000_0001L;

  private static final String TRACE_MICROS = Populations.SEND_AT_MICROS;
  private static final String TRACE_START_NANOS = Populations.SEND_CLOCK_START_NANOS;

  /** The keys a feeder record sets: removed before the next record is fed. */
  private static final String[] FEEDER_KEYS = {
    FeederRecords.PROMPT,
    FeederRecords.MESSAGES,
    FeederRecords.MAX_TOKENS,
    FeederRecords.PROFILE,
    FeederRecords.INPUT_TOKENS,
    StreamCapture.MODEL
  };

  private final StreamCapture capture;
  private final PreparedWorkload workload;
  private final RequestBodies bodies;
  private final WorkloadSettings shape;
  private final InjectorSettings injector;
  private final int outputLen;
  private final AtomicLong measuredIndex = new AtomicLong();
  private final AtomicLong warmupIndex = new AtomicLong();
  private final AtomicLong conversationIds = new AtomicLong();
  private final AtomicLong imageStretches = new AtomicLong();
  private final ModelMix models;

  /**
   * @param shape the dataset kind, turns and think time
   * @param injector this injector's share of the run's requests
   * @param outputLen the output length of a record that names none
   * @param models the mix of models each request picks from, or null when it names the bodies' one
   */
  public RequestChains(
      StreamCapture capture,
      PreparedWorkload workload,
      RequestBodies bodies,
      WorkloadSettings shape,
      InjectorSettings injector,
      int outputLen,
      ModelMix models) {
    this.capture = capture;
    this.workload = workload;
    this.bodies = bodies;
    this.shape = shape;
    this.injector = injector;
    this.outputLen = outputLen;
    this.models = models;
  }

  /**
   * The run's chains, their capture of the streamed requests (records, timeouts, headers, token
   * counts) made here.
   *
   * @param namedServer whether each record names the server that answered, as the run's mode says
   *     (an A/B run's records name their side's)
   */
  public static RequestChains forRun(
      BenchSettings settings,
      Target target,
      PreparedWorkload workload,
      RunRecorder recorder,
      ClientProbe clientProbe,
      boolean namedServer) {
    StreamCapture capture =
        new StreamCapture(
            captureOf(settings, workload, recorder, clientProbe)
                .baseUrl(target.baseUrl())
                .closeConnection(target.api().closesConnectionAfterStream())
                .spreadOver(target.baseUrls())
                .namedServer(namedServer)
                .build());
    return new RequestChains(
        capture,
        workload,
        bodiesOf(settings, target, target.model()),
        settings.workload(),
        settings.injector(),
        settings.workload().outputLen(),
        target.models().size() > 1
            ? new ModelMix(
                target.models(), settings.server().routing().weights(), settings.workload().seed())
            : null);
  }

  /**
   * The chains of an interleaved A/B run's candidate (server B): the run's capture, records and
   * workload, sent to B and naming B's model.
   */
  public static RequestChains forCandidate(
      BenchSettings settings,
      Target target,
      CandidateServer candidate,
      PreparedWorkload workload,
      RunRecorder recorder,
      ClientProbe clientProbe) {
    StreamCapture capture =
        new StreamCapture(
            captureOf(settings, workload, recorder, clientProbe)
                .baseUrl(candidate.baseUrl())
                .closeConnection(candidate.api().closesConnectionAfterStream())
                .namedServer(true)
                .build());
    return new RequestChains(
        capture,
        workload,
        bodiesOf(settings, target, candidate.model()),
        settings.workload(),
        settings.injector(),
        settings.workload().outputLen(),
        null);
  }

  /** The request bodies naming {@code model}, in the form the first server's kind takes. */
  private static RequestBodies bodiesOf(BenchSettings settings, Target target, String model) {
    return new RequestBodies(
        settings.server().api(),
        model,
        settings.server().requestOptions().extraBody(),
        target.api().kind().maxTokensKey(true));
  }

  /** A capture's options of the run's settings, its server left to set. */
  private static CaptureOptions.Builder captureOf(
      BenchSettings settings,
      PreparedWorkload workload,
      RunRecorder recorder,
      ClientProbe clientProbe) {
    LocalTokenizer localTokenizer = workload.localTokenizer().orElse(null);
    ServerSettings.Cancellation cancellation = settings.server().cancellation();
    return CaptureOptions.builder()
        .recorder(recorder)
        .clientProbe(clientProbe)
        .timeout(Duration.ofSeconds(settings.server().timeoutSeconds()))
        .endpoint(settings.server().api())
        .apiKey(settings.apiKey())
        .extraHeaders(settings.server().requestOptions().headers())
        .maxOutputTokens(
            Math.max(
                workload
                    .sessions()
                    .map(sessions -> sessions.maxTokens(settings.workload().outputLen()))
                    .orElse(workload.dataset().maxTokens()),
                settings.server().requestOptions().maxTokens().orElse(0)))
        .gatlingMetrics(settings.gatlingRecords().metrics())
        // a conversation's turns and an agent session's calls send answers back
        .keepAnswers(settings.workload().multiTurn() || workload.sessions().isPresent())
        .outputCounter(
            localTokenizer == null
                ? null
                : TokenCounter.of(localTokenizer::countText, localTokenizer::countPerChunk))
        .countedInputTokens(
            localTokenizer == null
                ? s -> null
                : RequestChains::countedInputTokens) // a count labelled "tokenizer" must be one
        .cancelling(
            cancellation.any()
                ? new Cancelling(
                    cancellation.pct() / 100,
                    (long) (cancellation.afterSeconds() * 1e9),
                    settings.workload().seed())
                : Cancelling.NONE);
  }

  /**
   * A closed-model level for a simulation's own injection: one user sends one request, in the group
   * {@code c<conc>}. The injection decides how long it runs, so the phase has no count or duration.
   */
  public ScenarioBuilder closedLevel(int conc) {
    Phase phase = new Phase.Closed(Level.closed(conc), null, conc, OptionalInt.empty(), 0, true);
    return scenario(phase.scenarioName()).exec(oneRequest(phase));
  }

  /**
   * One request of {@code phase}, inside its level's group and, in profile runs, its profile's; in
   * multi-turn runs, one conversation of such requests.
   */
  public ChainBuilder oneRequest(Phase phase) {
    String level = phase.level().tag();
    Phase.Trial trial = phase.trial();
    if (workload.sessions().isPresent()) {
      return oneSession(phase);
    }
    ChainBuilder request =
        capture.request(
            s -> level,
            RequestChains::profileOf,
            this::bodyOf,
            trial.repeated()
                ? s -> RequestOrigin.inTrial(originOf(s), trial.number())
                : this::originOf,
            RequestChains::sendAt);
    boolean profiles = shape.dataset() == DatasetKind.PROFILES;
    ChainBuilder inner =
        profiles ? exec(group("#{" + FeederRecords.PROFILE + "}").on(request)) : request;
    boolean measured = phase.level().measured();
    Dataset d = measured ? workload.dataset() : workload.warmupDataset();
    AtomicLong index = measured ? measuredIndex : warmupIndex;
    if (shape.multiTurn()) {
      Iterator<Map<String, Object>> conversations =
          Stream.generate(
                  () -> {
                    long n = datasetIndex(index.getAndIncrement(), injector);
                    List<Map<String, Object>> turns =
                        d.conversation(n, phase.profile(), shape.turns()).stream()
                            .map(r -> withModel(workload.feederRecord(r), n))
                            .toList();
                    return Conversations.record("conv-" + conversationIds.incrementAndGet(), turns);
                  })
              .iterator();
      return Conversations.of(
          conversations,
          exec(group(level).on(inner)),
          Duration.ofMillis(Math.round(shape.thinkSeconds() * 1000)));
    }
    ImageSupply images =
        imagesFor(
            phase.level(),
            phase.prompts().isPresent()
                ? OptionalLong.of(phase.prompts().getAsInt())
                : OptionalLong.empty());
    Iterator<Map<String, Object>> records =
        phase instanceof Phase.Trace trace
            ? withModels(
                traceRecords(
                    n -> workload.feederRecord(d.request(n, null), next(images)),
                    index,
                    trace.sendTimes(),
                    System::nanoTime),
                index)
            : feederOf(d, index, phase.profile(), images);
    return fed(records, group(level).on(inner));
  }

  /**
   * One agent session of {@code phase}, in its level's group: the run's next session (of the
   * warmup's text in the warmup), its calls recorded as the level's requests.
   */
  private ChainBuilder oneSession(Phase phase) {
    String level = phase.level().tag();
    Phase.Trial trial = phase.trial();
    boolean measured = phase.level().measured();
    AtomicLong index = measured ? measuredIndex : warmupIndex;
    return sessionOf(
        s -> level,
        measured,
        () -> datasetIndex(index.getAndIncrement(), injector),
        origin -> trial.repeated() ? RequestOrigin.inTrial(origin, trial.number()) : origin);
  }

  /**
   * The chain of one agent session, in its level's group.
   *
   * @param level its level's tag, from the user's session
   * @param measured whether it is measured (else the warmup's: its text and waits from another
   *     seed)
   * @param nextIndex the run's number of the next session
   * @param sending adds what sending it says (a trial, an A/B pair) to each call's origin
   */
  private ChainBuilder sessionOf(
      Function<Session, String> level,
      boolean measured,
      LongSupplier nextIndex,
      UnaryOperator<RequestOrigin> sending) {
    SessionSupply supply = workload.sessions().get();
    MessageTemplate.FillerText filler = workload.filler(!measured);
    Optional<String> header = shape.sessions().flatMap(SessionSettings::header);
    long salt = measured ? 0 : WARMUP_SESSION_SALT;
    Function<Session, CallGraph> graphs =
        s -> {
          long n = nextIndex.getAsLong();
          AgentSession session = supply.session(n);
          return new AgentCalls(
              new SessionRun(session, Seeds.mix(shape.seed() ^ salt ^ Seeds.mix(n)), filler),
              bodies,
              outputLen,
              (measured ? "" : "warmup/") + session.id() + "#" + (n + 1),
              header,
              origin -> withInjector(sending.apply(origin), injector));
        };
    return exec(group(level).on(capture.session(level, graphs)));
  }

  /**
   * Gets a trace phase's requests ready ({@link StreamCapture#ready}): a request of the warmup's
   * seed fed and built as the phase's are, and a connection from each event loop.
   */
  public ChainBuilder ready(Phase phase) {
    Dataset warmup = workload.warmupDataset();
    ImageSupply readyImages = imagesFor(Level.WARMUP, OptionalLong.of(1)); // built, not sent
    Iterator<Map<String, Object>> records =
        Stream.generate(() -> workload.feederRecord(warmup.request(0, null), next(readyImages)))
            .iterator();
    return fed(records, capture.ready(this::bodyOf));
  }

  /**
   * One request of a capacity probe: the measured dataset's next, in the group of the session's
   * probe.
   */
  public ChainBuilder probeRequest() {
    if (workload.sessions().isPresent()) {
      return sessionOf(
          session -> CapacityProbes.levelOf(session).tag(),
          true,
          () -> datasetIndex(measuredIndex.getAndIncrement(), injector),
          origin -> origin);
    }
    ChainBuilder request =
        capture.request(
            session -> CapacityProbes.levelOf(session).tag(),
            RequestChains::profileOf,
            this::bodyOf,
            this::originOf,
            RequestChains::sendAt);
    return fed(
        feederOf(
            workload.dataset(), measuredIndex, null, imagesFor(Level.WARMUP, OptionalLong.empty())),
        group(session -> CapacityProbes.levelOf(session).tag()).on(request));
  }

  /**
   * One request of an interleaved A/B trial, in the group of the run's level: the dataset's request
   * numbered by {@code nextPrompt} (the trial's own sequence, the same for both sides of a pair),
   * its record saying the trial's pair and side.
   */
  public ChainBuilder pairedRequest(
      Level level, Supplier<PairPlan.Trial> trial, LongSupplier nextPrompt) {
    String tag = level.tag();
    if (workload.sessions().isPresent()) {
      return sessionOf(
          s -> tag,
          true,
          nextPrompt,
          origin -> {
            PairPlan.Trial t = trial.get();
            return RequestOrigin.inPair(origin, t.pair(), t.side());
          });
    }
    ChainBuilder request =
        capture.request(
            s -> tag,
            RequestChains::profileOf,
            this::bodyOf,
            s -> {
              PairPlan.Trial t = trial.get();
              return RequestOrigin.inPair(originOf(s), t.pair(), t.side());
            },
            RequestChains::sendAt);
    ImageSupply images = imagesFor(level, OptionalLong.empty());
    Dataset d = workload.dataset();
    Iterator<Map<String, Object>> records =
        Stream.generate(
                () -> workload.feederRecord(d.request(nextPrompt.getAsLong(), null), next(images)))
            .iterator();
    return fed(records, group(tag).on(request));
  }

  /** The dataset's requests from the first, as feeder records ({@link FeederRecords}), endless. */
  public Iterator<Map<String, Object>> feeder() {
    return feederOf(
        workload.dataset(), new AtomicLong(), null, imagesFor(Level.WARMUP, OptionalLong.empty()));
  }

  /**
   * The images of a stretch of requests of {@code level}, each its step of a ladder over them or
   * the run's count; null for none.
   */
  private ImageSupply imagesFor(Level level, OptionalLong requests) {
    return workload.images(
        imageStretches.getAndIncrement(),
        level.images().orElse(ImageStep.of(shape.images().perRequest())),
        requests);
  }

  private static List<String> next(ImageSupply images) {
    return images == null ? List.of() : images.next();
  }

  /**
   * One streamed request built from the session; its level is the enclosing group, else the
   * scenario's name.
   */
  public ChainBuilder stream() {
    return capture.request(
        StreamCapture::enclosingGroup, RequestChains::profileOf, this::bodyOf, this::originOf);
  }

  /**
   * The prompt's tokens the feeder record knows (a random prompt's, or counted by a local
   * tokenizer).
   */
  private static Integer countedInputTokens(Session s) {
    return s.contains(FeederRecords.INPUT_TOKENS)
        ? countedInputTokens((Object) s.get(FeederRecords.INPUT_TOKENS))
        : null;
  }

  static Integer countedInputTokens(Object v) {
    return v instanceof Number n && n.intValue() >= 0 ? n.intValue() : null;
  }

  /**
   * A user may send several requests: the last record's keys go first, so a prompt record never
   * keeps the messages (or profile) of the one before.
   */
  private static ChainBuilder fed(Iterator<Map<String, Object>> records, ChainBuilder then) {
    return InlineFeed.of(records, FEEDER_KEYS).exec(then);
  }

  /**
   * Requests {@code index}, {@code index + 1}, ... of a dataset (of one profile, or any) as feeder
   * records.
   */
  private Iterator<Map<String, Object>> feederOf(
      Dataset d, AtomicLong index, String profile, ImageSupply images) {
    return Stream.generate(
            () -> {
              long n = datasetIndex(index.getAndIncrement(), injector);
              return withModel(workload.feederRecord(d.request(n, profile), next(images)), n);
            })
        .iterator();
  }

  /**
   * Records of {@code records}, each naming the model of its request number, {@code index} before
   * it is taken (Gatling takes a feeder's records one at a time).
   */
  private Iterator<Map<String, Object>> withModels(
      Iterator<Map<String, Object>> records, AtomicLong index) {
    if (models == null) {
      return records;
    }
    return Stream.generate(
            () -> {
              long n = index.get();
              return withModel(records.next(), n);
            })
        .iterator();
  }

  /** A feeder record naming the model request {@code n} picks when the run mixes several. */
  private Map<String, Object> withModel(Map<String, Object> record, long n) {
    if (models == null) {
      return record;
    }
    Map<String, Object> r = new LinkedHashMap<>(record);
    r.put(StreamCapture.MODEL, models.pick(n));
    return r;
  }

  /**
   * A trace's requests, each with its send time: the request is built, then sent at it, and its
   * record tells how late it went. Send times count from the first record's feed plus {@link
   * #TRACE_LEAD_NANOS}; past the trace's end they start over.
   */
  static Iterator<Map<String, Object>> traceRecords(
      LongFunction<Map<String, Object>> recordOf,
      AtomicLong index,
      List<Double> sendTimes,
      LongSupplier nanoClock) {
    AtomicLong startNanos = new AtomicLong(Long.MIN_VALUE);
    return Stream.generate(
            () -> {
              startNanos.compareAndSet(Long.MIN_VALUE, nanoClock.getAsLong() + TRACE_LEAD_NANOS);
              long n = index.getAndIncrement();
              double at = sendTimes.get((int) (n % sendTimes.size()));
              Map<String, Object> r = new LinkedHashMap<>(recordOf.apply(n));
              r.put(TRACE_MICROS, Math.round(at * 1e6));
              r.put(TRACE_START_NANOS, startNanos.get());
              return r;
            })
        .iterator();
  }

  /**
   * The run's request number of this injector's k-th request: injector i of N sends i, i + N, i +
   * 2N, ..., so no two injectors send the same request (and one alone sends 0, 1, 2, ...).
   */
  static long datasetIndex(long k, InjectorSettings injector) {
    return k * injector.count() + injector.index();
  }

  /** The request's origin, with this injector when several share the load. */
  private RequestOrigin originOf(Session s) {
    RequestOrigin origin =
        s.contains(TRACE_MICROS)
            ? traceOrigin(s.getLong(TRACE_START_NANOS), s.getLong(TRACE_MICROS), System.nanoTime())
            : Conversations.originOf(s);
    return withInjector(origin, injector);
  }

  static RequestOrigin withInjector(RequestOrigin origin, InjectorSettings injector) {
    return injector.sharded() ? RequestOrigin.fromInjector(origin, injector.index()) : origin;
  }

  /**
   * A trace request's origin, taken as it is sent (its body built): its time in the trace and when
   * it went.
   */
  static RequestOrigin traceOrigin(long clockStartNanos, long traceMicros, long nowNanos) {
    return RequestOrigin.trace(traceMicros, Math.round((nowNanos - clockStartNanos) / 1e3));
  }

  /**
   * When a request with a set send time (a trace's, a rate probe's) is due, as {@link
   * System#nanoTime()}.
   */
  private static long sendAt(Session s) {
    return s.contains(TRACE_MICROS)
        ? sendAtNanos(s.getLong(TRACE_START_NANOS), s.getLong(TRACE_MICROS))
        : StreamCapture.SEND_NOW;
  }

  static long sendAtNanos(long clockStartNanos, long sendAtMicros) {
    return clockStartNanos + sendAtMicros * 1000;
  }

  private static String profileOf(Session s) {
    return s.contains(FeederRecords.PROFILE)
        ? String.valueOf((Object) s.get(FeederRecords.PROFILE))
        : null;
  }

  private String bodyOf(Session s) {
    RequestSpec spec = FeederRecords.read(name -> s.contains(name) ? s.get(name) : null, outputLen);
    return s.contains(StreamCapture.MODEL)
        ? bodies.body(spec, s.getString(StreamCapture.MODEL))
        : bodies.body(spec);
  }
}
