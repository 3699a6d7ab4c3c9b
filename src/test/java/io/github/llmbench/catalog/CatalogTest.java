package io.github.llmbench.catalog;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CatalogTest {

  @Test
  void qwen7bParameterCountWithinOnePercent() {
    long p = Catalog.model("qwen2.5-7b-instruct").parameters();
    assertEquals(7.62e9, p, 0.01 * 7.62e9, "params=" + p);
  }

  @Test
  void qwen7bKvBytesPerToken() {
    assertEquals(57_344L, Catalog.model("qwen2.5-7b-instruct").kvBytesPerToken());
  }

  @Test
  void weightBytesIsParamsTimesDtype() {
    ModelSpec m = Catalog.model("qwen2.5-7b-instruct");
    assertEquals(m.parameters() * 2, m.weightBytes());
  }

  @Test
  void qwenHalfBillionIsAboutHalfABillion() {
    // model card: 0.49B parameters
    assertEquals(0.494e9, Catalog.model("qwen2.5-0.5b-instruct").parameters(), 0.01e9);
  }

  @Test
  void simTinyIsAboutHundredMillion() {
    long p = Catalog.model("sim-tiny").parameters();
    assertTrue(p > 80e6 && p < 130e6, "params=" + p);
  }

  @Test
  void lookups() {
    assertEquals("Qwen/Qwen2.5-7B-Instruct", Catalog.model("qwen2.5-7b-instruct").hfId());
    assertEquals(716.8e9, Catalog.gpu("rtx4080-32gb").memoryBandwidth());
    assertEquals(165.2e12, Catalog.gpu("rtx4090").peakDenseBf16Flops());
    assertNotNull(Catalog.gpu("h100-sxm"));
  }

  @Test
  void unknownIdsGiveOneLineListingKnownIds() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Catalog.model("x"));
    assertTrue(
        e.getMessage().startsWith("unknown model 'x'; known: qwen2.5-7b-instruct, "),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
    e = assertThrows(IllegalArgumentException.class, () -> Catalog.gpu("a100"));
    assertTrue(
        e.getMessage().startsWith("unknown gpu 'a100'; known: rtx4080-32gb, rtx4090"),
        e.getMessage());
  }
}
