package io.github.llmbench.simulator;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The calibration ladder in real time: the live simulator on a loopback port and a closed-loop
 * client (one thread per in-flight request, java.net.http, streaming completions of random never
 * repeated 1,024-word prompts, {@code max_tokens} 128) in the same JVM; TTFT and TPOT measured at
 * the client as vLLM bench does (TPOT = (E2EL - TTFT) / (output - 1)). Reports the process's CPU
 * use, to show the headroom the simulator had.
 */
final class RealTimeLadder implements AutoCloseable {
  private final VllmSimulator sim;
  private final HttpClient client;
  private final SplittableRandom rnd = new SplittableRandom(1234);
  private String lastCpu = "";

  RealTimeLadder(SimulatorConfig config) {
    this.sim = VllmSimulator.start(config);
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  String lastCpu() {
    return lastCpu;
  }

  EngineModel.Level level(int concurrency, int prompts, int inputLen, int outputLen)
      throws Exception {
    List<String> bodies = new ArrayList<>(prompts);
    for (int i = 0; i < prompts; i++) {
      StringBuilder sb = new StringBuilder(inputLen * 8);
      for (int t = 0; t < inputLen; t++) {
        sb.append(t == 0 ? "" : " ").append('w').append(Integer.toString(rnd.nextInt(1 << 30), 36));
      }
      bodies.add(
          "{\"model\":\""
              + sim.servedModelName()
              + "\",\"prompt\":\""
              + sb
              + "\",\"max_tokens\":"
              + outputLen
              + ",\"stream\":true,\"ignore_eos\":true}");
    }
    long preBefore = sim.metrics().preemptions();
    long hitsBefore = sim.metrics().prefixHits();
    var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    AtomicInteger next = new AtomicInteger();
    double[] ttft = new double[prompts];
    double[] tpot = new double[prompts];
    int[] outs = new int[prompts];
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    long t0 = System.nanoTime();
    List<Future<?>> fs = new ArrayList<>();
    for (int c = 0; c < concurrency; c++) {
      fs.add(
          pool.submit(
              () -> {
                int i;
                while ((i = next.getAndIncrement()) < prompts) {
                  one(bodies.get(i), i, ttft, tpot, outs);
                }
                return null;
              }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    long t1 = System.nanoTime();
    pool.shutdown();
    double wall = (t1 - t0) / 1e9;
    double cpuS = (os.getProcessCpuTime() - cpu0) / 1e9;
    int cores = Runtime.getRuntime().availableProcessors();
    lastCpu =
        String.format(
            Locale.ROOT,
            "process CPU %.0f%% of %d cores (%.1f s CPU in %.1f s)",
            100 * cpuS / wall / cores,
            cores,
            cpuS,
            wall);
    long out = 0;
    double sT = 0;
    double sP = 0;
    for (int i = 0; i < prompts; i++) {
      out += outs[i];
      sT += ttft[i];
      sP += tpot[i];
    }
    return new EngineModel.Level(
        concurrency,
        prompts,
        wall,
        sT / prompts,
        sP / prompts,
        out / wall,
        sim.metrics().preemptions() - preBefore,
        sim.metrics().prefixHits() - hitsBefore,
        Double.NaN,
        0,
        (long) prompts * inputLen);
  }

  private void one(String body, int i, double[] ttft, double[] tpot, int[] outs) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/v1/completions"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    long start = System.nanoTime();
    HttpResponse<Stream<String>> resp = client.send(req, HttpResponse.BodyHandlers.ofLines());
    long first = -1;
    long last = -1;
    int n = 0;
    try (Stream<String> lines = resp.body()) {
      Iterator<String> it = lines.iterator();
      while (it.hasNext()) {
        String l = it.next();
        if (l.startsWith("data: {") && l.contains("\"text\"")) {
          long now = System.nanoTime();
          if (first < 0) {
            first = now;
          }
          last = now;
          n++;
        }
      }
    }
    outs[i] = n;
    ttft[i] = (first - start) / 1e6;
    tpot[i] = n > 1 ? (last - first) / 1e6 / (n - 1) : 0;
  }

  @Override
  public void close() {
    sim.close();
  }
}
