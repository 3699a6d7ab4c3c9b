package io.github.llmbench.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.core.ImageStep;
import io.github.llmbench.core.LatencyFigure;
import io.github.llmbench.core.LengthDistribution;
import io.github.llmbench.core.Metric;
import io.github.llmbench.core.Ramp;
import io.github.llmbench.core.SloFigure;
import io.github.llmbench.core.Statistic;
import io.github.llmbench.endpoints.Endpoints;
import io.github.llmbench.endpoints.Figures;
import io.github.llmbench.simulator.SimKnobs;
import io.github.llmbench.simulator.SimulatorConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchSettingsTest {

  private static BenchSettings read(Map<String, String> props) {
    return BenchSettings.from(props, Map.<String, String>of()::get);
  }

  private static String error(Map<String, String> props) {
    return assertThrows(SettingsException.class, () -> read(props)).getMessage();
  }

  @Test
  void trialsRepeatLevelsButNotATraceASearchOrASharedLoad() {
    assertEquals(3, read(Map.of("trials", "3")).load().trials());
    assertEquals(1, read(Map.of()).load().trials());
    SettingsException search =
        assertThrows(
            SettingsException.class,
            () -> read(Map.of("trials", "3", "search", "conc", "slo", "ttft.p99:500")));
    assertEquals(
        "Invalid -Dtrials=3: expected 1 here: a capacity search chooses its probes as it runs",
        search.getMessage());
    assertThrows(
        SettingsException.class, () -> read(Map.of("trials", "2", "injector", "0/2", "seed", "7")));
    assertEquals(
        "-Dtrials.cooldown applies between trials: add -Dtrials=N (2 or more)",
        assertThrows(SettingsException.class, () -> read(Map.of("trials.cooldown", "5")))
            .getMessage());
    assertTrue(
        assertThrows(SettingsException.class, () -> read(Map.of("trials", "0")))
            .getMessage()
            .startsWith("Invalid -Dtrials=0: expected a whole number from 1 to 100"));
  }

  @Test
  void defaults() {
    BenchSettings s = read(Map.of());
    assertTrue(s.server().baseUrl().isEmpty());
    assertEquals(Endpoints.CHAT, s.server().api());
    assertEquals(1024, s.workload().inputLen());
    assertEquals(128, s.workload().outputLen());
    assertEquals(16, s.load().conc());
    assertEquals("qwen2.5-7b-instruct", s.simulator().model());
  }

  @Test
  void percentilesAreReadAsVllmsMetricPercentiles() {
    assertEquals(
        Optional.of(List.of(50.0, 90.0, 95.0, 99.0, 99.9)),
        read(Map.of("percentiles", "50,90,95,99,99.9")).report().percentiles());
    assertEquals(
        Optional.of(List.of(99.9, 0.5, 50.0)),
        read(Map.of("percentiles", " 99.9 , 0.5,50 ")).report().percentiles(),
        "in the order given, spaces trimmed");
    assertEquals(Optional.empty(), read(Map.of()).report().percentiles());
    String accepted =
        ": expected percentiles above 0 and below 100, each once, separated by commas"
            + " (e.g. 50,90,95,99,99.9)";
    for (String bad :
        new String[] {
          "abc", "0", "100", "150", "50,,99", "50,", ",99", "-5", "99,99", "1e1", "NaN", "99.9.9"
        }) {
      assertEquals(
          "Invalid -Dpercentiles=" + bad + accepted, error(Map.of("percentiles", bad)), bad);
    }
  }

  @Test
  void badNumbersNameThePropertyTheValueAndWhatIsAccepted() {
    assertEquals(
        "Invalid -Dconc=abc: expected a whole number from 1 to 100000",
        error(Map.of("conc", "abc")));
    assertEquals(
        "Invalid -Dconc=0: expected a whole number from 1 to 100000", error(Map.of("conc", "0")));
    assertTrue(
        error(Map.of("output.len", "-5"))
            .startsWith("Invalid -Doutput.len=-5: expected a whole number"));
    assertTrue(error(Map.of("duration", "1.5")).startsWith("Invalid -Dduration=1.5"));
  }

  @Test
  void digitsOfAnotherScriptAreNotANumber() {
    // Long.parseLong reads Arabic-Indic "\u0663\u0662" as 32
    assertEquals(
        "Invalid -Dconc=\u0663\u0662: expected a whole number from 1 to 100000",
        error(Map.of("conc", "\u0663\u0662")));
  }

  @Test
  void turnsThinkTimeAndTraceSettingsAreChecked() {
    WorkloadSettings w = read(Map.of("turns", "3", "think.time", "1.5")).workload();
    assertTrue(w.multiTurn());
    assertEquals(3, w.turns());
    assertEquals(1.5, w.thinkSeconds());
    assertFalse(read(Map.of()).workload().multiTurn());
    assertEquals(
        "Invalid -Dturns=0: expected a whole number from 1 to 1000", error(Map.of("turns", "0")));
    assertEquals(
        "Invalid -Dthink.time=-1: expected a number of seconds from 0",
        error(Map.of("turns", "2", "think.time", "-1")));
    assertEquals(
        "-Dthink.time applies to multi-turn runs: add -Dturns=N (N from 2)",
        error(Map.of("think.time", "2")));
    BenchSettings trace = read(Map.of("dataset", "trace:/data/mooncake.jsonl", "trace.speed", "2"));
    assertEquals(BenchSettings.DatasetKind.TRACE, trace.workload().dataset());
    assertEquals("/data/mooncake.jsonl", trace.workload().file().get().toString());
    assertEquals(2.0, trace.workload().traceSpeed());
    assertEquals(
        "Invalid -Dtrace.speed=0: expected a number above 0",
        error(Map.of("dataset", "trace:t.jsonl", "trace.speed", "0")));
    assertEquals(
        "-Dtrace.speed applies to -Ddataset=trace:PATH", error(Map.of("trace.speed", "2")));
    assertTrue(
        error(Map.of("dataset", "trace:t.jsonl", "turns", "2"))
            .startsWith("-Dturns does not apply to -Ddataset=trace:PATH"));
    assertTrue(
        error(Map.of("dataset", "trace:t.jsonl", "rate", "2"))
            .startsWith("-Drate, -Dramp and -Dladder do not apply to -Ddataset=trace:PATH"));
    assertEquals(
        "Invalid -Ddataset=trace:: expected random, profiles, file:PATH, trace:PATH, sessions:PATH, weka:PATH or agents",
        error(Map.of("dataset", "trace:")));
  }

  @Test
  void injectorSettings() {
    InjectorSettings alone = read(Map.of()).injector();
    assertFalse(alone.sharded());
    InjectorSettings i =
        read(Map.of("injector", "2/4", "seed", "7", "conc", "64", "start.at", "1800000000000"))
            .injector();
    assertEquals(2, i.index());
    assertEquals(4, i.count());
    assertEquals(1800000000000L, i.startAtMs().getAsLong());
    assertEquals(
        1764583200000L,
        read(Map.of("start.at", "2025-12-01T10:00:00Z")).injector().startAtMs().getAsLong());
    for (String bad : new String[] {"2", "2/2", "-1/2", "a/b", "1/0"}) {
      assertEquals(
          "Invalid -Dinjector="
              + bad
              + ": expected i/N with 0 <= i < N, e.g. 0/2 (Kubernetes' JOB_COMPLETION_INDEX / the number of injectors)",
          error(Map.of("injector", bad)));
    }
    assertEquals(
        "Invalid -Dstart.at=soon: expected epoch milliseconds or an ISO-8601 instant, e.g. 2026-12-01T10:00:00Z",
        error(Map.of("start.at", "soon")));
    assertEquals(
        "Level c2 is smaller than -Dinjector's 3 injectors: each needs at least one request in flight (use at most 2 injectors, or a larger level)",
        error(Map.of("injector", "0/3", "seed", "7", "ladder", "2,8")));
    assertTrue(
        error(Map.of("injector", "0/2", "seed", "7", "ladder", "4,8", "prompts", "100"))
            .startsWith("A ladder shared by injectors stops its levels after -Dduration"));
    assertTrue(
        error(Map.of("injector", "0/2", "seed", "7", "dataset", "trace:t.jsonl"))
            .startsWith("-Dinjector does not apply to -Ddataset=trace:PATH"));
    // without one seed each injector would send its own prompts and the records could not merge
    assertEquals(
        "Invalid -Dinjector=1/2 without -Dseed: injectors split one run's requests by its seed, so"
            + " give every injector the same one, e.g. -Dseed=42",
        error(Map.of("injector", "1/2", "conc", "8")));
  }

  @Test
  void capacitySearchSettings() {
    SearchSettings s =
        read(Map.of(
                "search",
                "conc",
                "slo",
                "ttft.p99:2000,tpot.p99:100,failed.pct:1",
                "search.max",
                "256"))
            .search()
            .get();
    assertEquals(
        Map.of(
            new LatencyFigure(Metric.TTFT, Statistic.P99),
            2000.0,
            new LatencyFigure(Metric.TPOT, Statistic.P99),
            100.0,
            SloFigure.FAILED_PCT,
            1.0),
        s.objectives());
    assertEquals(1, s.min());
    assertEquals(256, s.max());
    assertEquals(0.10, s.precision());
    assertEquals(30, s.budgetMinutes());
    assertTrue(read(Map.of()).search().isEmpty());
    String accepted =
        "expected objectives as METRIC:LIMIT separated by commas, e.g. ttft.p99:2000,tpot.p99:100 (METRIC one of "
            + "ttft|tpot|itl|e2el . mean|median|pN (N a percentile above 0 and below 100: p90, p99,"
            + " p99.9), or failed.pct)";
    assertEquals(
        "Invalid -Dslo=ttft.p100:2000: " + accepted,
        error(Map.of("search", "conc", "slo", "ttft.p100:2000")));
    assertEquals(
        "Invalid -Dslo=ttft.p99:fast: " + accepted,
        error(Map.of("search", "conc", "slo", "ttft.p99:fast")));
    for (String bad :
        new String[] {
          "ttft.p99",
          "ttft.p99:-1",
          "ttft.p99:Infinity",
          "goodput.pct:90",
          "capacity.min:8",
          "ttft.p99:2000,itl.p0:5",
          "ttft.p99:1:2",
          "TTFT.P99:2000"
        }) {
      assertEquals(
          "Invalid -Dslo=" + bad + ": " + accepted,
          error(Map.of("search", "conc", "slo", bad)),
          bad);
    }
    Map<SloFigure, Double> inOrder =
        read(Map.of("search", "rate", "slo", "failed.pct:0,itl.median:20"))
            .search()
            .get()
            .objectives();
    assertEquals(
        List.of(SloFigure.FAILED_PCT, new LatencyFigure(Metric.ITL, Statistic.MEDIAN)),
        List.copyOf(inOrder.keySet()),
        "as given");
    assertEquals(
        "-Dsearch=conc needs objectives: -Dslo=ttft.p99:2000,tpot.p99:100",
        error(Map.of("search", "conc")));
    assertEquals(
        "-Dslo applies to a capacity search: add -Dsearch=conc or -Dsearch=rate",
        error(Map.of("slo", "ttft.p99:1")));
    assertEquals(
        "Invalid -Dsearch=rates: expected conc (closed-model concurrency) or rate (open-model requests per second)",
        error(Map.of("search", "rates", "slo", "ttft.p99:1")));
    assertEquals(
        "-Dsearch=conc runs in one injector: with -Dinjector each injector would search on its own; drop -Dinjector",
        error(Map.of("search", "conc", "slo", "ttft.p99:1", "injector", "0/2", "seed", "7")));
    assertTrue(
        error(Map.of("search", "conc", "slo", "ttft.p99:1", "ladder", "4,8"))
            .startsWith("-Dsearch=conc chooses the levels itself"));
    assertEquals(
        "-Dsearch.max=2 is below -Dsearch.min=8",
        error(Map.of("search", "conc", "slo", "ttft.p99:1", "search.min", "8", "search.max", "2")));
  }

  @Test
  void aRateSearchProbesRequestRatesWithTheOpenModelsSettings() {
    BenchSettings settings =
        read(
            Map.of(
                "search",
                "rate",
                "slo",
                "e2el.p99:8000",
                "search.min",
                "0.5",
                "search.max",
                "40",
                "burstiness",
                "0.5",
                "max.conc",
                "64"));
    SearchSettings s = settings.search().get();
    assertTrue(s.rate());
    assertEquals("rate", s.kind());
    assertEquals(0.5, s.min());
    assertEquals(40.0, s.max());
    assertEquals(0.5, settings.load().burstiness());
    assertEquals(64, settings.load().maxConc().getAsInt());
    SearchSettings defaults = read(Map.of("search", "rate", "slo", "ttft.p99:2000")).search().get();
    assertEquals(1.0, defaults.min());
    assertEquals(100.0, defaults.max());
    assertTrue(
        error(Map.of("search", "rate", "slo", "ttft.p99:1", "rate", "4"))
            .startsWith("-Dsearch=rate chooses the levels itself"));
    assertEquals(
        "-Dsearch=conc chooses the levels itself: drop -Dconc, -Dladder, -Drate, -Dramp, -Dprompts, -Dturns and trace datasets",
        error(Map.of("search", "conc", "slo", "ttft.p99:1", "conc", "8")));
    assertEquals(
        "Invalid -Dsearch.max=fast: expected a number above 0",
        error(Map.of("search", "rate", "slo", "ttft.p99:1", "search.max", "fast")));
    assertEquals(
        "-Dsearch.max=4000 x -Dduration=60 plans 240000 requests for one rate probe: at most 200000 (lower either)",
        error(
            Map.of("search", "rate", "slo", "ttft.p99:1", "search.max", "4000", "duration", "60")));
    assertEquals(
        "-Dburstiness and -Dmax.conc apply to an open-model run: add -Drate=<requests per second> (or -Dsearch=rate)",
        error(Map.of("search", "conc", "slo", "ttft.p99:1", "burstiness", "2")));
  }

  @Test
  void metricsScrapingSettings() {
    TelemetrySettings m = read(Map.of()).metrics();
    assertTrue(m.on());
    assertEquals(1.0, m.intervalSeconds());
    assertTrue(m.urls().isEmpty());
    m =
        read(Map.of(
                "metrics.interval",
                "0.5",
                "metrics.urls",
                "http://127.0.0.1:9400/metrics, http://gpu-2:9400/metrics"))
            .metrics();
    assertEquals(0.5, m.intervalSeconds());
    assertEquals(
        List.of("http://127.0.0.1:9400/metrics", "http://gpu-2:9400/metrics"),
        m.urls().stream().map(Object::toString).toList());
    assertFalse(read(Map.of("metrics.interval", "0")).metrics().on());
    assertEquals(
        "Invalid -Dmetrics.urls=9400: expected http:// URLs separated by commas, e.g. http://127.0.0.1:9400/metrics",
        error(Map.of("metrics.urls", "9400")));
    assertEquals(
        "Invalid -Dmetrics.interval=-1: expected a number of seconds from 0",
        error(Map.of("metrics.interval", "-1")));
    assertEquals(
        "-Dmetrics.urls needs scraping on: -Dmetrics.interval=0 turns it off",
        error(Map.of("metrics.interval", "0", "metrics.urls", "http://h:1/metrics")));
  }

  @Test
  void gatlingGetsOneRecordPerStreamUnlessMoreAreAsked() {
    assertEquals(GatlingRecords.REQUEST, read(Map.of()).gatlingRecords());
    assertEquals(Set.of(Metric.E2EL), read(Map.of()).gatlingRecords().metrics());
    assertEquals(
        Set.of(Metric.E2EL, Metric.TTFT, Metric.TPOT),
        read(Map.of("stats.records", "latency")).gatlingRecords().metrics());
    assertEquals(
        Set.of(Metric.values()), read(Map.of("stats.records", "all")).gatlingRecords().metrics());
    assertEquals(
        "Invalid -Dstats.records=ttft: expected one of all, latency, request",
        error(Map.of("stats.records", "ttft")));
    assertEquals(
        "Unknown setting -Ditl.records=true: did you mean -Dstats.records? (-Dhelp lists every setting)",
        error(Map.of("itl.records", "true")),
        "the setting it replaced");
  }

  @Test
  void baseUrlMustBeHttpWithAHost() {
    for (String bad :
        new String[] {"localhost:8000", "ftp://x", "http://", "http:// bad", "http://h:1/?q=1"}) {
      String msg = error(Map.of("base.url", bad));
      assertTrue(
          msg.startsWith("Invalid -Dbase.url=" + bad + ": expected an http:// or https:// URL"),
          msg);
    }
    assertEquals(
        "http://127.0.0.1:8000",
        read(Map.of("base.url", "http://127.0.0.1:8000/v1/")).server().baseUrl().get().toString());
    assertEquals(
        "https://h.example/proxy",
        read(Map.of("base.url", "https://h.example/proxy")).server().baseUrl().get().toString());
  }

  @Test
  void apiAndSimulatorIdsAreChecked() {
    assertEquals(Endpoints.COMPLETIONS, read(Map.of("api", "completions")).server().api());
    assertEquals(Endpoints.RESPONSES, read(Map.of("api", "Responses")).server().api());
    assertEquals(Endpoints.EMBEDDINGS, read(Map.of("api", "embeddings")).server().api());
    assertEquals(
        "Invalid -Dapi=rerank: expected chat, completions, responses or embeddings",
        error(Map.of("api", "rerank")));
    assertTrue(
        error(Map.of("sim.gpu", "tpu")).startsWith("Invalid -Dsim.gpu=tpu: expected one of "));
  }

  @Test
  void anEmbeddingsRunRefusesWhatOnlyGenerationHasBeforeAnyLoad() {
    BenchSettings ok = read(Map.of("api", "embeddings"));
    assertEquals(Figures.POOLED, ok.server().api().figures());
    assertFalse(ok.server().api().takesChatMessages());
    assertEquals(
        "Invalid -Doutput.len=64: expected nothing with -Dapi=embeddings: it generates no tokens",
        error(Map.of("api", "embeddings", "output.len", "64")));
    assertEquals(
        "Invalid -Dturns=3: expected 1 with -Dapi=embeddings: there is no answer to carry into"
            + " the next turn",
        error(Map.of("api", "embeddings", "turns", "3")));
    assertEquals(
        "Invalid -Dstats.records=latency: expected request with -Dapi=embeddings: an embedding"
            + " has no TTFT, TPOT or ITL of its own",
        error(Map.of("api", "embeddings", "stats.records", "latency")));
    assertTrue(
        error(Map.of("api", "embeddings", "search", "conc", "slo", "ttft.p99:500"))
            .startsWith("Invalid -Dslo=ttft.p99:500: expected objectives on e2el or failed.pct"));
  }

  @Test
  void simulatorDialectIsOneOfTheServersItSpeaksFor() {
    assertEquals("vllm", read(Map.of()).simulator().dialect());
    for (String d : List.of("llamacpp", "sglang", "tgi", "trtllm")) {
      assertEquals(d, read(Map.of("sim.dialect", d)).simulator().dialect());
    }
    assertTrue(
        error(Map.of("sim.dialect", "ollama"))
            .startsWith("Invalid -Dsim.dialect=ollama: expected one of "),
        error(Map.of("sim.dialect", "ollama")));
  }

  @Test
  void theApiKeyIsUsedButNeverDescribed() {
    BenchSettings s =
        BenchSettings.from(
            Map.<String, String>of(), Map.of("OPENAI_API_KEY", "sk-secret-123")::get);
    assertEquals("sk-secret-123", s.apiKey().get());
    assertFalse(s.toString().contains("sk-secret-123"));
  }

  @Test
  void laddersPromptsAndTheirConflicts() {
    BenchSettings s = read(Map.of("ladder", "8, 16,32", "prompts", "300"));
    assertEquals(List.of(8, 16, 32), s.load().levels());
    assertEquals(List.of(300, 300, 300), s.load().prompts());
    assertEquals(
        "Invalid -Dprompts=1,2: expected one number, or one per ladder level (3 numbers)",
        error(Map.of("ladder", "8,16,32", "prompts", "1,2")));
    assertEquals(
        "Invalid -Dladder=8,x: expected whole numbers from 1 to 100000, separated by commas",
        error(Map.of("ladder", "8,x")));
    assertTrue(
        error(Map.of("conc", "8", "ladder", "8,16"))
            .startsWith("-Dconc cannot be combined with -Dladder"));
    assertTrue(
        error(Map.of("rate", "2", "ladder", "8"))
            .startsWith("-Dladder and -Drate cannot be combined"));
    assertEquals("Invalid -Drate=0: expected a number above 0", error(Map.of("rate", "0")));
    assertTrue(
        error(Map.of("max.conc", "4"))
            .startsWith("-Dburstiness and -Dmax.conc apply to an open-model run"));
    assertEquals(
        4,
        read(Map.of("ladder", "16")).load().warmupConc(),
        "warmup at 25% of the first level by default");
  }

  @Test
  void workloadSettings() {
    BenchSettings s =
        read(
            Map.of(
                "dataset",
                "profiles",
                "profiles",
                "tiny:SS,ll",
                "profile.order",
                "mixed",
                "seed",
                "7"));
    assertEquals(BenchSettings.DatasetKind.PROFILES, s.workload().dataset());
    assertEquals(List.of("SS", "LL"), s.workload().profiles().names());
    assertTrue(s.workload().profilesMixed());
    assertEquals(7, s.workload().seed());
    assertEquals(
        "Invalid -Ddataset=sharegpt: expected random, profiles, file:PATH, trace:PATH, sessions:PATH, weka:PATH or agents",
        error(Map.of("dataset", "sharegpt")));
    assertTrue(
        error(Map.of("dataset", "profiles", "profiles", "tiny:XX"))
            .startsWith("Invalid -Dprofiles=tiny:XX: expected tiny, huge"));
    assertEquals(
        "Invalid -Drange.ratio=1: expected a number from 0 up to (not including) 1",
        error(Map.of("range.ratio", "1")));
    assertTrue(
        error(Map.of("profiles", "huge"))
            .startsWith("-Dprofiles and -Dprofile.order apply to -Ddataset=profiles"));
    assertEquals("file:x.jsonl", read(Map.of("dataset", "file:x.jsonl")).workload().describe());
    long a = read(Map.of()).workload().seed();
    long b = read(Map.of()).workload().seed();
    assertTrue(a != b || read(Map.of()).workload().seed() != a, "a fresh seed per run");
  }

  @Test
  void cancellationSettings() {
    ServerSettings.Cancellation c =
        read(Map.of("cancel.pct", "10", "cancel.after", "2.5")).server().cancellation();
    assertEquals(10, c.pct(), 1e-12);
    assertEquals(2.5, c.afterSeconds(), 1e-12);
    assertFalse(read(Map.of()).server().cancellation().any());
    assertEquals(0, read(Map.of("cancel.pct", "5")).server().cancellation().afterSeconds(), 1e-12);
    assertEquals(
        "Invalid -Dcancel.pct=150: expected a number from 0 to 100",
        error(Map.of("cancel.pct", "150")));
    assertEquals(
        "Invalid -Dcancel.after=-1: expected a number of seconds from 0",
        error(Map.of("cancel.pct", "5", "cancel.after", "-1")));
    assertTrue(
        error(Map.of("cancel.after", "3")).startsWith("-Dcancel.after applies with -Dcancel.pct"));
  }

  @Test
  void severalServersAndAMixOfModels() {
    ServerSettings.Routing one = read(Map.of("base.url", "http://h:8000/v1/")).server().routing();
    assertEquals(List.of(URI.create("http://h:8000")), one.baseUrls());
    assertFalse(one.severalServers());
    ServerSettings.Routing two =
        read(Map.of(
                "base.url", "http://a:8000, http://b:8000",
                "model", "base,sql",
                "model.weights", "3,1"))
            .server()
            .routing();
    assertEquals(List.of(URI.create("http://a:8000"), URI.create("http://b:8000")), two.baseUrls());
    assertEquals(List.of("base", "sql"), two.models());
    assertEquals(List.of(0.75, 0.25), two.weights(), "normalised");
    assertEquals(
        List.of(0.5, 0.5),
        read(Map.of("model", "a,b")).server().routing().weights(),
        "equal by default");
    assertEquals(
        Optional.of("base"), read(Map.of("model", "base,sql")).server().model(), "the first");
    assertEquals(
        "Invalid -Dbase.url=http://a:1,http://a:1: expected URLs separated by commas, each once"
            + " (http://a:1 is there twice)",
        error(Map.of("base.url", "http://a:1,http://a:1")));
    assertTrue(
        error(Map.of("base.url", "http://a:1,ftp://b"))
            .startsWith("Invalid -Dbase.url=ftp://b: expected an http:// or https:// URL"));
    assertEquals(
        "Invalid -Dmodel=a,,b: expected model ids separated by commas, each once",
        error(Map.of("model", "a,,b")));
    assertTrue(
        error(Map.of("model", "a,b", "model.weights", "1"))
            .startsWith("-Dmodel.weights=1 gives 1 shares for 2 models of -Dmodel"));
    assertEquals(
        "Invalid -Dmodel.weights=0.7,-1: expected numbers above 0, separated by commas",
        error(Map.of("model", "a,b", "model.weights", "0.7,-1")));
  }

  @Test
  void rampSettings() {
    LoadSettings rate =
        read(Map.of("ramp", "linear", "ramp.start", "1", "ramp.end", "8", "max.conc", "32")).load();
    assertEquals(Optional.of(new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.RATE, 1, 8)), rate.ramp());
    assertTrue(rate.open(), "a rate ramp is the open model");
    assertEquals(OptionalInt.of(32), rate.maxConc());
    assertEquals(
        Optional.of(new Ramp(Ramp.Shape.EXPONENTIAL, Ramp.Kind.RATE, 0.5, 16)),
        read(Map.of("ramp", "exponential", "ramp.start", "0.5", "ramp.end", "16")).load().ramp());
    BenchSettings conc = read(Map.of("ramp.conc", "4:64"));
    assertEquals(
        Optional.of(new Ramp(Ramp.Shape.LINEAR, Ramp.Kind.CONCURRENCY, 4, 64)), conc.load().ramp());
    assertFalse(conc.load().open());
    assertEquals(64, conc.load().conc(), "the peak in flight");
    assertEquals(
        Ramp.Shape.EXPONENTIAL,
        read(Map.of("ramp", "exponential", "ramp.conc", "1:32")).load().ramp().get().shape());
    assertFalse(read(Map.of()).load().ramp().isPresent());

    assertEquals(
        "Invalid -Dramp=step: expected linear (the same step each second) or exponential (the"
            + " same factor each second)",
        error(Map.of("ramp", "step")));
    assertEquals(
        "-Dramp=linear needs -Dramp.start=R0 and -Dramp.end=R1 (requests/s), or -Dramp.conc=C0:C1",
        error(Map.of("ramp", "linear", "ramp.start", "1")));
    assertTrue(
        error(Map.of("ramp.end", "8"))
            .startsWith("-Dramp.end belongs to a rate ramp: add -Dramp="));
    assertEquals(
        "Invalid -Dramp.start=0: expected a rate above 0: an exponential ramp grows by a factor",
        error(Map.of("ramp", "exponential", "ramp.start", "0", "ramp.end", "8")));
    assertEquals(
        "-Dramp.start and -Dramp.end are both 4: a constant rate is -Drate=4",
        error(Map.of("ramp", "linear", "ramp.start", "4", "ramp.end", "4")));
    assertEquals(
        "Invalid -Dramp.conc=8: expected C0:C1, whole numbers from 1 to 100000 that differ, e.g."
            + " 1:64",
        error(Map.of("ramp.conc", "8")));
    assertTrue(
        error(Map.of("ramp.conc", "1:8", "conc", "4"))
            .startsWith("-Dramp cannot be combined with -Dconc, -Dladder or -Drate"));
    assertTrue(
        error(Map.of("ramp", "linear", "ramp.start", "1", "ramp.end", "8", "rate", "4"))
            .startsWith("-Dramp cannot be combined"));
    assertTrue(
        error(Map.of("ramp.conc", "1:8", "ramp.start", "1", "ramp.end", "2"))
            .startsWith("-Dramp.conc ramps a concurrency"));
    assertTrue(
        error(Map.of("ramp.conc", "1:8", "prompts", "100"))
            .startsWith("-Dramp.conc ramps over -Dduration: drop -Dprompts"));
    assertTrue(
        error(Map.of("ramp.conc", "1:8", "max.conc", "4"))
            .startsWith("-Dburstiness and -Dmax.conc apply to an open-model run"));
    assertTrue(
        error(Map.of("ramp.conc", "1:8", "search", "conc", "slo", "ttft.p99:500"))
            .contains("drop -Dconc, -Dladder, -Drate, -Dramp"));
    assertTrue(
        error(Map.of("ramp.conc", "2:3", "injector", "0/2", "seed", "7"))
            .startsWith("-Dramp.conc=2:3 shared by -Dinjector's 2 injectors"));
  }

  @Test
  void lengthDistributionsAndPrefixGroups() {
    WorkloadSettings w =
        read(Map.of("input.len", "512", "input.stdev", "128", "output.stdev", "4")).workload();
    assertEquals(
        LengthDistribution.of(LengthDistribution.Shape.NORMAL, 512, 128), w.inputLengths());
    assertEquals(LengthDistribution.Shape.NORMAL, w.outputLengths().shape());
    assertEquals(
        LengthDistribution.Shape.LOGNORMAL,
        read(Map.of("input.stdev", "10", "length.dist", "lognormal"))
            .workload()
            .inputLengths()
            .shape());
    assertTrue(
        read(Map.of("input.stdev", "10", "length.dist", "lognormal"))
            .workload()
            .outputLengths()
            .isFixed(),
        "no output.stdev: the output length stays fixed");
    assertEquals(
        LengthDistribution.ofRangeRatio(1024, 0.5),
        read(Map.of("range.ratio", "0.5", "length.dist", "uniform")).workload().inputLengths());
    assertEquals(
        "Invalid -Dlength.dist=gamma: expected normal, lognormal or uniform",
        error(Map.of("length.dist", "gamma", "input.stdev", "3")));
    assertEquals(
        "Invalid -Dinput.stdev=-1: expected a number from 0", error(Map.of("input.stdev", "-1")));
    assertTrue(
        error(Map.of("length.dist", "normal"))
            .startsWith("-Dlength.dist=normal needs -Dinput.stdev=S or -Doutput.stdev=S"));
    assertTrue(
        error(Map.of("range.ratio", "0.2", "input.stdev", "3"))
            .startsWith("-Drange.ratio and -Dinput.stdev/-Doutput.stdev both spread the lengths"));
    assertEquals(
        "-Dinput.stdev applies to -Ddataset=random",
        error(Map.of("dataset", "profiles", "input.stdev", "3")));
    WorkloadSettings groups = read(Map.of("prefix.groups", "4", "prefix.len", "500")).workload();
    assertEquals(4, groups.prefixGroups());
    assertEquals(1, read(Map.of()).workload().prefixGroups());
    assertTrue(
        error(Map.of("prefix.groups", "4")).startsWith("-Dprefix.groups=4 needs -Dprefix.len=L"));
    assertTrue(
        error(Map.of("prefix.groups", "0", "prefix.len", "5"))
            .startsWith("Invalid -Dprefix.groups=0: expected a whole number from 1"));
  }

  @Test
  void extraBodyAndHeaders() {
    BenchSettings s =
        read(
            Map.of(
                "extra.body",
                "{\"temperature\":0.6,\"max_tokens\":64}",
                "header.X-Route",
                "pool-a",
                "header.Authorization",
                "Bearer sk-hidden"));
    assertEquals(0.6, s.server().requestOptions().extraBody().get("temperature").asDouble());
    assertEquals(64, s.server().requestOptions().maxTokens().getAsInt());
    assertEquals(List.of("max_tokens"), s.server().requestOptions().overriddenKitKeys());
    assertEquals(
        Map.of("X-Route", "pool-a", "Authorization", "Bearer sk-hidden"),
        s.server().requestOptions().headers());
    // each request gets its own copy: a caller's change does not leak into the next body
    s.server().requestOptions().extraBody().put("temperature", 2);
    assertEquals(0.6, s.server().requestOptions().extraBody().get("temperature").asDouble());

    String malformed = error(Map.of("extra.body", "{temperature:0.6}"));
    assertTrue(
        malformed.startsWith(
            "Invalid -Dextra.body={temperature:0.6}: expected a JSON object, e.g. {\"temperature\":0.6,\"top_p\":0.95} ("),
        malformed);
    assertEquals(1, malformed.lines().count(), malformed);
    assertTrue(
        error(Map.of("extra.body", "[1,2]"))
            .startsWith("Invalid -Dextra.body=[1,2]: expected a JSON object"));
    String badName = error(Map.of("header.Bad Name", "x"));
    assertTrue(
        badName.startsWith("Invalid -Dheader.Bad Name: expected -Dheader.<Name>=<value>"), badName);
    String badValue = error(Map.of("header.X-Key", "secret\nmore"));
    assertFalse(badValue.contains("secret"), "a header value is never echoed: " + badValue);
  }

  @Test
  void simulatorEngineSettings() {
    BenchSettings d = read(Map.of());
    assertEquals(1, d.simulator().config().tp());
    assertEquals(256, d.simulator().config().maxNumSeqs());
    assertEquals(2048, d.simulator().config().maxNumBatchedTokens());
    assertEquals(0.9, d.simulator().config().gpuMemoryUtilization());
    assertFalse(d.simulator().config().faults().any());
    assertEquals(0.0, d.simulator().config().noise().cv());
    assertEquals(1.0, d.simulator().config().noise().slowdown());
    assertTrue(d.simulator().config().noise().off());
    assertEquals(1, d.report().roofline().tp());

    BenchSettings s =
        read(
            Map.of(
                "sim.tp",
                "2",
                "sim.max_num_seqs",
                "64",
                "sim.max_num_batched_tokens",
                "4096",
                "sim.gpu_memory_utilization",
                "0.8",
                "sim.faults",
                "429:0.1,stall:0.05:30"));
    assertEquals(2, s.simulator().config().tp());
    assertEquals(2, s.report().roofline().tp(), "the roofline follows sim.tp for embedded runs");
    assertEquals(64, s.simulator().config().maxNumSeqs());
    assertEquals(4096, s.simulator().config().maxNumBatchedTokens());
    assertEquals(0.8, s.simulator().config().gpuMemoryUtilization());
    assertEquals(
        "429:0.1,stall:0.05:30",
        s.simulator().config().get(SimKnobs.FAULTS),
        "as typed: the simulator parses it (TargetTest)");
    assertEquals(
        1,
        read(Map.of("sim.tp", "2", "base.url", "http://127.0.0.1:8000")).report().roofline().tp());

    assertTrue(error(Map.of("sim.tp", "0")).contains("-Dsim.tp=0"));
    assertTrue(error(Map.of("sim.max_num_seqs", "x")).contains("-Dsim.max_num_seqs=x"));
    assertTrue(
        error(Map.of("sim.max_num_seqs", "512", "sim.max_num_batched_tokens", "256"))
            .contains("-Dsim.max_num_batched_tokens=256"));
    String util = error(Map.of("sim.gpu_memory_utilization", "1.5"));
    assertTrue(
        util.contains("-Dsim.gpu_memory_utilization=1.5") && util.contains("at most 1"), util);
    String model = error(Map.of("sim.model", "nope"));
    assertTrue(model.contains("-Dsim.model=nope") && model.contains("config.json"), model);
  }

  @Test
  void simulatorNoiseAndSlowdown() {
    BenchSettings s = read(Map.of("sim.noise", "0.1", "sim.slowdown", "1.10"));
    assertEquals(0.1, s.simulator().config().noise().cv());
    assertEquals(1.10, s.simulator().config().noise().slowdown());
    assertFalse(s.simulator().config().noise().off());
    assertFalse(read(Map.of("sim.slowdown", "0.9")).simulator().config().noise().off());
    assertFalse(read(Map.of("sim.noise", "0.05")).simulator().config().noise().off());
    assertTrue(
        read(Map.of("sim.noise", "0", "sim.slowdown", "1")).simulator().config().noise().off());

    assertEquals(
        "Invalid -Dsim.noise=abc: expected a number from 0 to 1 (a coefficient of variation: 0.1"
            + " is 10%)",
        error(Map.of("sim.noise", "abc")));
    assertTrue(error(Map.of("sim.noise", "-0.1")).startsWith("Invalid -Dsim.noise=-0.1: expected"));
    assertTrue(error(Map.of("sim.noise", "2")).startsWith("Invalid -Dsim.noise=2: expected"));
    assertEquals(
        "Invalid -Dsim.slowdown=0: expected a number above 0 and at most 100 (1.1: every step 10%"
            + " slower)",
        error(Map.of("sim.slowdown", "0")));
    assertTrue(
        error(Map.of("sim.slowdown", "fast")).startsWith("Invalid -Dsim.slowdown=fast: expected"));
    assertEquals(1, error(Map.of("sim.slowdown", "-1")).lines().count());
  }

  @Test
  void simModelFromAHuggingFaceConfig(@TempDir Path dir) throws Exception {
    Path cfg = dir.resolve("config.json");
    Files.writeString(
        cfg,
        "{\"hidden_size\":896,\"num_hidden_layers\":24,\"num_attention_heads\":14,"
            + "\"num_key_value_heads\":2,\"intermediate_size\":4864,\"vocab_size\":151936,\"model_type\":\"qwen2\"}");
    BenchSettings s = read(Map.of("sim.model", cfg.toString()));
    assertEquals(cfg.toString(), s.simulator().model());
    assertEquals(
        896, SimulatorConfig.defaults().withModel(s.simulator().model()).modelSpec().hiddenSize());
  }

  @Test
  void imagesSettingsAndTheirConflicts() {
    BenchSettings s = read(Map.of("images", "2", "image.size", "640x480", "image.format", "PNG"));
    Images images = s.workload().images();
    assertEquals(List.of(2), images.counts());
    assertEquals(new ImageStep.Size(640, 480), images.size());
    assertEquals(Images.Format.PNG, images.format());
    assertFalse(images.ladder());
    assertEquals(List.of(), s.load().imageLadder());
    assertEquals(
        SimulatorSettings.DEFAULT_VISION_MODEL, s.simulator().model(), "a model that sees them");
    assertEquals(SimKnobs.MODEL.defaultValue(), read(Map.of("images", "0")).simulator().model());
    assertEquals(Images.NONE, read(Map.of()).workload().images());

    BenchSettings ladder = read(Map.of("images", "0,1,4", "conc", "4", "prompts", "10"));
    assertEquals(
        List.of(ImageStep.of(0), ImageStep.of(1), ImageStep.of(4)), ladder.load().imageLadder());
    assertEquals(List.of(10, 10, 10), ladder.load().prompts(), "a count per level");

    BenchSettings sizes =
        read(Map.of("images", "2", "image.size", "256x256, 1024x768", "rate", "2"));
    assertEquals(
        List.of(
            ImageStep.of(2, new ImageStep.Size(256, 256)),
            ImageStep.of(2, new ImageStep.Size(1024, 768))),
        sizes.load().imageLadder());
    assertTrue(sizes.workload().images().ladder());
    assertEquals(
        "Invalid -Dimage.size=256x256,1024x768: expected one size with a ladder over -Dimages"
            + " counts (a ladder steps over counts or sizes, not both)",
        error(Map.of("images", "1,2", "image.size", "256x256,1024x768")));
    assertEquals(
        "Invalid -Dimages=0: expected 1 or more with a ladder over -Dimage.size (its levels need"
            + " images)",
        error(Map.of("images", "0", "image.size", "256x256,1024x768")));
    assertEquals(
        "Invalid -Dimage.size=64x64,64x64: expected WIDTHxHEIGHT in pixels, each side from 1 to"
            + " 8192 (e.g. 512x512), or up to 16 sizes separated by commas, each once",
        error(Map.of("images", "1", "image.size", "64x64,64x64")));
    assertEquals(
        "Invalid -Dimage.size=64x64,128x128: expected one value with -Dladder, -Dramp, -Dsearch"
            + " or a trace; several step over them at one load (-Dconc or -Drate)",
        error(Map.of("images", "1", "image.size", "64x64,128x128", "ladder", "1,2")));

    assertEquals(
        "Invalid -Dimages=2,x: expected whole numbers from 0 to 999, separated by commas",
        error(Map.of("images", "2,x")));
    assertEquals(
        "Invalid -Dimage.size=512: expected WIDTHxHEIGHT in pixels, each side from 1 to 8192 (e.g."
            + " 512x512), or up to 16 sizes separated by commas, each once",
        error(Map.of("images", "1", "image.size", "512")));
    assertEquals(
        "Invalid -Dimage.format=gif: expected png or jpeg",
        error(Map.of("images", "1", "image.format", "gif")));
    assertEquals("-Dimage.size applies with -Dimages=N", error(Map.of("image.size", "64x64")));
    assertEquals(
        "-Dimages needs -Dapi=chat or -Dapi=responses (the /v1/completions endpoint takes no"
            + " images)",
        error(Map.of("images", "1", "api", "completions")));
    assertTrue(
        error(Map.of("images", "1", "turns", "2")).startsWith("-Dimages applies to single-turn"));
    assertEquals(
        "Invalid -Dimages=1,2: expected one value with -Dladder, -Dramp, -Dsearch or a trace;"
            + " several step over them at one load (-Dconc or -Drate)",
        error(Map.of("images", "1,2", "ladder", "1,2")));
    assertEquals(
        "Invalid -Dsim.model=sim-tiny: expected a model that takes images with -Dimages (e.g."
            + " qwen2.5-vl-7b-instruct)",
        error(Map.of("images", "1", "sim.model", "sim-tiny")));
    // a real server's model is its own business
    read(Map.of("images", "1", "sim.model", "sim-tiny", "base.url", "http://127.0.0.1:9"));
  }

  /**
   * Issue 62 item 2: an open model sending a count of requests at a rate that would take past
   * -Dduration's limit (1e-9 requests/s: 100 requests over three thousand years) is refused.
   */
  @Test
  void anOpenModelThatWouldRunForCenturiesIsRefused() {
    assertEquals(
        "Invalid -Drate=1e-9: expected a rate that sends -Dprompts=100 within 604800 s,"
            + " -Dduration's limit: from 0.000165 requests/s (at this one they would take 1.00e+11 s)",
        error(Map.of("rate", "1e-9", "prompts", "100")));
    assertEquals(
        "Invalid -Dramp.start=0 and -Dramp.end=0.0001: expected a mean a rate that sends"
            + " -Dprompts=100 within 604800 s, -Dduration's limit: from 0.000165 requests/s (at"
            + " this one they would take 2.00e+06 s)",
        error(Map.of("ramp", "linear", "ramp.start", "0", "ramp.end", "0.0001", "prompts", "100")));
    // the same rate over a duration ends with it; a count at a rate that fits is accepted
    assertEquals(1e-9, read(Map.of("rate", "1e-9")).load().rate().getAsDouble());
    assertEquals(100, read(Map.of("rate", "0.001", "prompts", "100")).load().prompts().get(0));
  }

  /** Issue 62 item 2: -Dextra.body's max_tokens is a length too: the one range, as a number. */
  @Test
  void extraBodyMaxTokensPastTheMaximumIsRefused() {
    for (String body :
        List.of(
            "{\"max_tokens\":2147483648}",
            "{\"max_tokens\":0}",
            "{\"max_completion_tokens\":10000001}",
            "{\"max_tokens\":12.5}")) {
      String key = body.contains("completion") ? "max_completion_tokens" : "max_tokens";
      assertEquals(
          "Invalid -Dextra.body="
              + body
              + ": expected \""
              + key
              + "\" a whole number of tokens from 1 to 10000000",
          error(Map.of("extra.body", body)));
    }
    assertEquals(
        OptionalInt.of(10_000_000),
        read(Map.of("extra.body", "{\"max_tokens\":10000000}"))
            .server()
            .requestOptions()
            .maxTokens());
  }
}
