package io.github.llmbench.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The server's own account of one request, when it sends one: llama.cpp's {@code llama-server} adds
 * a {@code timings} object to its final chunk (vLLM sends none). Field names are llama.cpp's.
 * Compared with the client-side TTFT and E2EL it shows what the network, HTTP and queueing add.
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
    @JsonProperty("predicted_per_token_ms") Double predictedPerTokenMs) {}
