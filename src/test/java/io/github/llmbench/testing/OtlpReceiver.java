package io.github.llmbench.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal OTLP/HTTP receiver for the tests: accepts protobuf POSTs at {@code /v1/metrics} and
 * {@code /v1/traces} on 127.0.0.1, decodes them with OpenTelemetry's own proto classes and keeps
 * every request it was sent, in order, for the tests to check against what they fed.
 */
public final class OtlpReceiver implements AutoCloseable {

  private final HttpServer server;
  private final List<ExportMetricsServiceRequest> metrics = new CopyOnWriteArrayList<>();
  private final List<ExportTraceServiceRequest> traces = new CopyOnWriteArrayList<>();
  private volatile int refusal;

  private OtlpReceiver(HttpServer server) {
    this.server = server;
  }

  /** Listens on a free port of 127.0.0.1. */
  public static OtlpReceiver start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      OtlpReceiver r = new OtlpReceiver(server);
      server.createContext(
          "/v1/metrics",
          ex ->
              r.receive(
                  ex,
                  in -> r.metrics.add(ExportMetricsServiceRequest.parseFrom(in)),
                  ExportMetricsServiceResponse.getDefaultInstance().toByteArray()));
      server.createContext(
          "/v1/traces",
          ex ->
              r.receive(
                  ex,
                  in -> r.traces.add(ExportTraceServiceRequest.parseFrom(in)),
                  ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
      server.start();
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private interface Decoder {
    void decode(InputStream body) throws IOException;
  }

  /** Decodes a POST's body; a body that does not decode is answered 400, as a collector would. */
  private void receive(HttpExchange ex, Decoder decoder, byte[] ok) throws IOException {
    int status = 200;
    byte[] reply = ok;
    try (InputStream in = ex.getRequestBody()) {
      if (refusal != 0) {
        status = refusal;
        reply = new byte[0];
      } else if (!ex.getRequestMethod().equals("POST")) {
        status = 405;
        reply = new byte[0];
      } else {
        decoder.decode(in);
      }
    } catch (IOException e) {
      status = 400;
      reply = new byte[0];
    }
    ex.getResponseHeaders().set("Content-Type", "application/x-protobuf");
    ex.sendResponseHeaders(status, reply.length == 0 ? -1 : reply.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(reply);
    }
  }

  /**
   * Answers every push from now on with {@code status} and keeps nothing: 400 is one an exporter
   * does not retry, as a collector's answer to a body it cannot read.
   */
  public void refuseWith(int status) {
    refusal = status;
  }

  /** The base URL an exporter is given: {@code http://127.0.0.1:PORT}. */
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Every metrics request received, in order. */
  public List<ExportMetricsServiceRequest> metricRequests() {
    return List.copyOf(metrics);
  }

  /** Every span received, in the order they came. */
  public List<Span> spans() {
    List<Span> out = new ArrayList<>();
    for (ExportTraceServiceRequest r : traces) {
      for (ResourceSpans rs : r.getResourceSpansList()) {
        for (ScopeSpans ss : rs.getScopeSpansList()) {
          out.addAll(ss.getSpansList());
        }
      }
    }
    return out;
  }

  /** The resource of every metrics request, as attribute maps. */
  public List<Map<String, String>> metricResources() {
    List<Map<String, String>> out = new ArrayList<>();
    for (ExportMetricsServiceRequest r : metrics) {
      for (ResourceMetrics rm : r.getResourceMetricsList()) {
        out.add(attributes(rm.getResource().getAttributesList()));
      }
    }
    return out;
  }

  /** The names of every metric received. */
  public java.util.Set<String> metricNames() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (ExportMetricsServiceRequest r : metrics) {
      for (ResourceMetrics rm : r.getResourceMetricsList()) {
        for (ScopeMetrics sm : rm.getScopeMetricsList()) {
          sm.getMetricsList().forEach(m -> out.add(m.getName()));
        }
      }
    }
    return out;
  }

  /**
   * The metric named {@code name} in the last request that had it: with cumulative figures, the
   * final one.
   */
  public Optional<Metric> last(String name) {
    Metric found = null;
    for (ExportMetricsServiceRequest r : metrics) {
      for (ResourceMetrics rm : r.getResourceMetricsList()) {
        for (ScopeMetrics sm : rm.getScopeMetricsList()) {
          for (Metric m : sm.getMetricsList()) {
            if (m.getName().equals(name)) {
              found = m;
            }
          }
        }
      }
    }
    return Optional.ofNullable(found);
  }

  /** Attributes as text: strings as they are, numbers and booleans as Java writes them. */
  public static Map<String, String> attributes(List<KeyValue> kvs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (KeyValue kv : kvs) {
      out.put(kv.getKey(), text(kv.getValue()));
    }
    return out;
  }

  private static String text(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case INT_VALUE -> Long.toString(v.getIntValue());
      case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
      case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
      default -> v.toString();
    };
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
