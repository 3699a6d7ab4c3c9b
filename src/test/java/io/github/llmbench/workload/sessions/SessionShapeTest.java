package io.github.llmbench.workload.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionShapeTest {

  @Test
  void stepsFanOutAndJoinAndTheContextGrows() {
    SessionShape shape = new SessionShape(3, 2, 100, 40, 20, 500, 16, new Delay.Fixed(50));
    AgentSession s = shape.session();
    assertEquals("agent", s.id());
    assertEquals(shape.callsPerSession(), s.calls().size());
    assertEquals(
        List.of("step1", "step1.sub1", "step1.sub2", "step2", "step2.sub1", "step2.sub2", "step3"),
        s.calls().stream().map(SessionCall::id).toList());
    assertEquals(
        Map.of(
            "step1",
            1,
            "step1.sub1",
            2,
            "step1.sub2",
            2,
            "step2",
            3,
            "step2.sub1",
            4,
            "step2.sub2",
            4,
            "step3",
            5),
        s.steps());
    SessionCall step2 = s.call("step2");
    assertEquals(List.of("step1.sub1", "step1.sub2"), step2.after());
    assertEquals("step1", step2.context());
    assertEquals(40, step2.messages().get(0).fillerTokens());
    assertEquals(List.of("step1", "step1.sub1", "step1.sub2"), List.copyOf(step2.needs()));
    // every call but the continuing steps opens with the one shared system prompt
    MessageTemplate system = s.call("step2.sub1").messages().get(0);
    assertEquals("system", system.role());
    assertEquals(List.of(new MessageTemplate.Filler(500, SessionShape.SYSTEM_KEY)), system.parts());
    assertEquals(new Delay.Fixed(50), s.call("step2.sub1").delay());
  }

  @Test
  void withoutFanOutItIsAChain() {
    AgentSession s = new SessionShape(4, 0, 10, 10, 10, 0, 8, Delay.NONE).session();
    assertEquals(4, s.calls().size());
    assertEquals(4, s.depth());
    assertEquals("user", s.call("step1").messages().get(0).role());
    assertThrows(
        IllegalArgumentException.class, () -> new SessionShape(0, 1, 1, 1, 1, 0, 1, Delay.NONE));
  }
}
