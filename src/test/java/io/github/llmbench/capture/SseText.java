package io.github.llmbench.capture;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Test helper: SSE bodies as a server writes them, read by the kit's {@link StreamReader}. */
public final class SseText {
  private SseText() {}

  /** vLLM's chunks (PR 15593 of vllm-project/vllm), as {@code data} values. */
  public static final String ROLE =
      "{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}";

  public static String content(String text) {
    return "{\"id\":\"chatcmpl-382ff893e5f54cfc8abf5ce9f0d219c8\",\"object\":\"chat.completion.chunk\",\"created\":1743083258,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
        + text
        + "\"},\"logprobs\":null,\"finish_reason\":null}]}";
  }

  public static String usage(int prompt, int completion) {
    return "{\"id\":\"chatcmpl-eb116bdb\",\"object\":\"chat.completion.chunk\",\"created\":1750734209,\"model\":\"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
        + prompt
        + ",\"total_tokens\":"
        + (prompt + completion)
        + ",\"completion_tokens\":"
        + completion
        + "}}";
  }

  public static final String DONE = "[DONE]";

  /** Each value as one {@code data:} event ending in a blank line. */
  public static String events(List<String> dataValues) {
    StringBuilder sb = new StringBuilder();
    for (String d : dataValues) {
      sb.append("data: ").append(d).append("\n\n");
    }
    return sb.toString();
  }

  /**
   * Reads the events, each in its own read, the i-th at {@code i} ms (nanoTime units), as they
   * would arrive one chunk per TCP read.
   */
  public static ParsedStream parse(List<String> dataValues) {
    StreamReader reader = new StreamReader(dataValues.size());
    for (int i = 0; i < dataValues.size(); i++) {
      byte[] b = events(List.of(dataValues.get(i))).getBytes(StandardCharsets.UTF_8);
      reader.feed(b, 0, b.length, i * 1_000_000L);
    }
    return reader.result();
  }

  /** The arrival times of the text chunks, in ms. */
  public static List<Long> textArrivalsMs(ParsedStream p) {
    long[] out = new long[p.textCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = p.textArrivalNanos()[i] / 1_000_000L;
    }
    return Arrays.stream(out).boxed().toList();
  }
}
