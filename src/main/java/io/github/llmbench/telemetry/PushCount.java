package io.github.llmbench.telemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many pushes of one signal the receiver took and how many failed (after the exporter's own
 * retries), counted around the SDK's exporter: a push that fails in the background drops what it
 * held, so the run's last line must say so, not only whether the final push went through.
 */
final class PushCount {
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong itemsSent = new AtomicLong();

  /** Pushes that ended, sent or not. */
  long done() {
    return done.get();
  }

  /** Pushes that ended unsent. */
  long failed() {
    return failed.get();
  }

  /** The items (spans, metrics) the pushes that went through held. */
  long itemsSent() {
    return itemsSent.get();
  }

  private CompletableResultCode counted(CompletableResultCode push, int items) {
    push.whenComplete(
        () -> {
          if (push.isSuccess()) {
            itemsSent.addAndGet(items);
          } else {
            failed.incrementAndGet();
          }
          done.incrementAndGet();
        });
    return push;
  }

  /** {@code exporter}, each push counted here. */
  MetricExporter counting(MetricExporter exporter) {
    return new MetricExporter() {
      @Override
      public CompletableResultCode export(Collection<MetricData> metrics) {
        return counted(exporter.export(metrics), metrics.size());
      }

      @Override
      public CompletableResultCode flush() {
        return exporter.flush();
      }

      @Override
      public CompletableResultCode shutdown() {
        return exporter.shutdown();
      }

      @Override
      public AggregationTemporality getAggregationTemporality(InstrumentType type) {
        return exporter.getAggregationTemporality(type);
      }

      @Override
      public Aggregation getDefaultAggregation(InstrumentType type) {
        return exporter.getDefaultAggregation(type);
      }

      @Override
      public MemoryMode getMemoryMode() {
        return exporter.getMemoryMode();
      }
    };
  }

  /** {@code exporter}, each push counted here. */
  SpanExporter counting(SpanExporter exporter) {
    return new SpanExporter() {
      @Override
      public CompletableResultCode export(Collection<SpanData> spans) {
        return counted(exporter.export(spans), spans.size());
      }

      @Override
      public CompletableResultCode flush() {
        return exporter.flush();
      }

      @Override
      public CompletableResultCode shutdown() {
        return exporter.shutdown();
      }
    };
  }
}
