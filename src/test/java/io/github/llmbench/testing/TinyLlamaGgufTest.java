package io.github.llmbench.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TinyLlamaGgufTest {

  @Test
  void headerAndSizeFollowGgufVersion3(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("m.gguf");
    TinyLlamaGguf.Shape shape = new TinyLlamaGguf.Shape(1, 32, 64, 2, 256);
    TinyLlamaGguf.write(f, shape, 1);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals("GGUF", new String(new byte[] {b.get(), b.get(), b.get(), b.get()}, "US-ASCII"));
    assertEquals(3, b.getInt());
    assertEquals(3 + 9, b.getLong()); // token_embd, output_norm, output + 9 per layer
    assertTrue(b.getLong() > 15); // metadata pairs
    int vocab = TinyLlamaGguf.vocabulary().size();
    long floats = 2L * 32 * vocab + 32 + (2 * 32 + 4L * 32 * 32 + 3L * 32 * 64);
    // the data section: every tensor padded to 32 bytes; the file ends with the last tensor's
    // padding
    assertTrue(
        Files.size(f) > 4 * floats && Files.size(f) < 4 * floats + 64 * 1024,
        "size " + Files.size(f));
    assertEquals(0, Files.size(f) % 32);
  }

  @Test
  void vocabularyAndGeneratableTokens() {
    List<String> v = TinyLlamaGguf.vocabulary();
    assertEquals(List.of("<unk>", "<s>", "</s>", "<0x00>"), v.subList(0, 4));
    assertEquals(v.size(), v.stream().distinct().count());
    assertTrue(
        v.contains("\u2581the") && v.contains("\u2581t") && v.contains("\u2581th"),
        "prefixes of words");
    assertFalse(TinyLlamaGguf.generatable(1, "<s>"));
    assertFalse(TinyLlamaGguf.generatable(3, "<0x00>"));
    assertFalse(TinyLlamaGguf.generatable(v.indexOf("\u2581"), "\u2581"));
    assertTrue(TinyLlamaGguf.generatable(v.indexOf("\u2581the"), "\u2581the"));
  }
}
