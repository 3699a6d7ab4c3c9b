package io.github.llmbench.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The server's own account of one request, when it sends one: llama.cpp's {@code llama-server} adds
 * a {@code timings} object to its final chunk (vLLM sends none). Field names are llama.cpp's.
 * Compared with the client-side TTFT and E2EL it shows what the network, HTTP and queueing add.
 * Written to {@code requests.jsonl} as {@code "server_timings":{...}}, only when the server sent
 * some.
 *
 * @param promptN prompt tokens processed (cached ones not counted)
 * @param promptMs time the server spent on the prompt (prefill), ms
 * @param predictedN tokens generated
 * @param predictedMs time from the end of the prefill to the last token, ms
 * @param predictedPerTokenMs {@code predictedMs / predictedN}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ServerTimings(
    @JsonProperty("prompt_n") Integer promptN,
    @JsonProperty("prompt_ms") Double promptMs,
    @JsonProperty("predicted_n") Integer predictedN,
    @JsonProperty("predicted_ms") Double predictedMs,
    @JsonProperty("predicted_per_token_ms") Double predictedPerTokenMs) {

  /** A record's server timings: Jackson's own form of this record, under one field. */
  public static final RecordPart<ServerTimings> PART =
      new RecordPart.OneField<>("server_timings") {
        @Override
        ServerTimings read(JsonParser p, JsonToken t, String name) throws IOException {
          return t == JsonToken.VALUE_NULL ? null : p.readValueAs(ServerTimings.class);
        }

        @Override
        void writeValue(ServerTimings value, JsonOut out) throws IOException {
          out.bean(value);
        }
      };
}
