package io.github.llmbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.llmbench.records.RequestRecord;
import io.github.llmbench.records.Route;
import io.github.llmbench.report.section.RoutesSection;
import io.github.llmbench.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A level's figures per server and per model. */
class RoutesTest {

  @Test
  void eachServerAndModelGetsTheFiguresOfItsOwnRequests() {
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String endpoint = i % 2 == 0 ? "http://a:1" : "http://b:1";
      String model = i % 3 == 0 ? "sql" : "base";
      records.add(
          TestRecords.ok("c4")
              .start(1000L * i)
              .ttft(endpoint.contains("b") ? 80 : 20) // the second replica is slower
              .route(Route.of(endpoint, model))
              .build());
    }
    Routes r = Routes.of(records, ReportedPercentiles.DEFAULT);
    assertEquals(List.of("http://a:1", "http://b:1"), List.copyOf(r.byEndpoint().keySet()));
    assertEquals(List.of("sql", "base"), List.copyOf(r.byModel().keySet()), "first seen first");
    assertEquals(6, r.byEndpoint().get("http://a:1").completed());
    assertEquals(20, r.byEndpoint().get("http://a:1").ttft().mean(), 1e-9);
    assertEquals(80, r.byEndpoint().get("http://b:1").ttft().mean(), 1e-9);
    assertEquals(4, r.byModel().get("sql").completed());
    String block = RoutesSection.format(r, "c4");
    assertTrue(block.contains(" Per server (c4) ") && block.contains(" Per model (c4) "), block);
    assertTrue(block.lines().anyMatch(l -> l.startsWith("http://b:1 ") && l.contains("80.00")));

    List<RequestRecord> plain = List.of(TestRecords.ok("c4").build());
    assertTrue(Routes.of(plain, ReportedPercentiles.DEFAULT).isEmpty());
    assertEquals("", RoutesSection.format(Routes.NONE, "c4"));
    // a model mix on one server has figures per model only
    Routes models =
        Routes.of(
            List.of(TestRecords.ok("c4").route(Route.of(null, "a")).build()),
            ReportedPercentiles.DEFAULT);
    assertTrue(models.byEndpoint().isEmpty());
    assertEquals(1, models.byModel().size());
  }
}
