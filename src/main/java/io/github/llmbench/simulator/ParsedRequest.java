package io.github.llmbench.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.llmbench.catalog.ModelSpec;
import java.util.ArrayList;
import java.util.List;

/** A validated /v1/chat/completions or /v1/completions request: only what the simulator uses. */
final class ParsedRequest {
  final boolean chat;
  final boolean stream;
  final boolean includeUsage;
  final int promptTokens;

  /** The prompt's token ids (chat template applied), for the prefix cache's block hashes. */
  final int[] promptIds;

  final int maxTokens;

  /**
   * The function a chat answer calls instead of writing text, or null: the first of the request's
   * {@code tools} unless {@code tool_choice} is {@code "none"} (the simulator always calls a tool
   * when it may, as a model asked to use one does).
   */
  final String toolName;

  /** Whether the answer ends before {@code max_tokens} as its model ends it ({@code stop}). */
  final boolean endedByModel;

  /** The images of its messages, in order. */
  final List<ReceivedImage> images;

  private ParsedRequest(
      boolean chat,
      boolean stream,
      boolean includeUsage,
      int[] promptIds,
      int maxTokens,
      String toolName,
      boolean endedByModel,
      List<ReceivedImage> images) {
    this.images = List.copyOf(images);
    this.toolName = toolName;
    this.endedByModel = endedByModel;
    this.chat = chat;
    this.stream = stream;
    this.includeUsage = includeUsage;
    this.promptTokens = promptIds.length;
    this.promptIds = promptIds;
    this.maxTokens = maxTokens;
  }

  /**
   * Validates a request body as vLLM does, throwing {@link ApiError} (400, or 404 for an unknown
   * model) with vLLM's messages where the simulator has the same check.
   */
  static ParsedRequest parse(
      JsonNode body, boolean chat, String servedModel, StubTokenizer tok, int maxModelLen) {
    return parse(body, chat, List.of(servedModel), tok, maxModelLen);
  }

  /** As {@link #parse(JsonNode, boolean, String, StubTokenizer, int)}, any of these models. */
  static ParsedRequest parse(
      JsonNode body, boolean chat, List<String> servedModels, StubTokenizer tok, int maxModelLen) {
    return parse(body, chat, servedModels, tok, maxModelLen, null);
  }

  /**
   * As {@link #parse(JsonNode, boolean, List, StubTokenizer, int)}, images charged as {@code
   * model}'s vision tokens (null: a model that takes none).
   */
  static ParsedRequest parse(
      JsonNode body,
      boolean chat,
      List<String> servedModels,
      StubTokenizer tok,
      int maxModelLen,
      ModelSpec model) {
    if (body == null || !body.isObject()) {
      throw ApiError.badRequest("Request body must be a JSON object", null);
    }
    checkModel(body, servedModels);
    List<Integer> ids = new ArrayList<>();
    List<ReceivedImage> images = new ArrayList<>();
    int promptTokens =
        chat
            ? chatPromptTokens(body, tok, ids, model, images)
            : completionPromptTokens(body, tok, ids);

    boolean stream = optBoolean(body, "stream", false);
    boolean includeUsage = includeUsage(body, stream);
    // ignore_eos is accepted and needs no handling: the simulator never samples EOS, so every
    // request generates exactly max_tokens tokens (as ignore_eos=true would on vLLM).
    optBoolean(body, "ignore_eos", false);
    int maxTokens = MaxTokens.of(body, chat).within(promptTokens, maxModelLen);
    int[] promptIds = new int[ids.size()];
    for (int i = 0; i < promptIds.length; i++) {
      promptIds[i] = ids.get(i);
    }
    return new ParsedRequest(
        chat,
        stream,
        includeUsage,
        promptIds,
        maxTokens,
        chat ? toolName(body) : null,
        false,
        images);
  }

  /** Whether the stream's last event carries the usage ({@code stream_options}). */
  private static boolean includeUsage(JsonNode body, boolean stream) {
    JsonNode so = body.get("stream_options");
    if (so == null || so.isNull()) {
      return false;
    }
    if (!stream) {
      throw ApiError.badRequest(
          "Stream options can only be defined when `stream=True`.", "stream_options");
    }
    if (!so.isObject()) {
      throw ApiError.badRequest("stream_options must be an object", "stream_options");
    }
    return optBoolean(so, "include_usage", false);
  }

  /**
   * The output tokens a request asks for.
   *
   * @param param the field it names them in ({@code max_completion_tokens} or {@code max_tokens})
   * @param value the number, null when not given
   */
  private record MaxTokens(String param, Integer value) {

    static MaxTokens of(JsonNode body, boolean chat) {
      String maxParam = "max_tokens";
      if (chat && body.hasNonNull("max_completion_tokens")) {
        maxParam = "max_completion_tokens";
      }
      JsonNode mt = body.get(maxParam);
      if (mt == null || mt.isNull()) {
        return new MaxTokens(maxParam, null);
      }
      if (!mt.canConvertToInt() || !mt.isIntegralNumber()) {
        throw ApiError.badRequest(maxParam + ": Input should be a valid integer", maxParam);
      }
      int maxTokens = mt.intValue();
      if (maxTokens < 1) {
        // vLLM SamplingParams._verify_args
        throw ApiError.badRequest(
            "max_tokens must be at least 1, got " + maxTokens + ".", maxParam);
      }
      return new MaxTokens(maxParam, maxTokens);
    }

    /** The tokens to generate after the prompt within the model's context, or vLLM's 400. */
    int within(int promptTokens, int maxModelLen) {
      if (promptTokens >= maxModelLen) {
        throw ApiError.badRequest(
            "This model's maximum context length is "
                + maxModelLen
                + " tokens. However, your request has "
                + promptTokens
                + " input tokens. Please reduce the length of the input messages.",
            "messages");
      }
      if (value == null) {
        // vLLM's default: whatever room the context leaves
        return maxModelLen - promptTokens;
      }
      if ((long) promptTokens + value > maxModelLen) {
        // vLLM OpenAIServing._validate_input
        throw ApiError.badRequest(
            "'max_tokens' or 'max_completion_tokens' is too large: "
                + value
                + ". This model's maximum context length is "
                + maxModelLen
                + " tokens and your request has "
                + promptTokens
                + " input tokens ("
                + value
                + " > "
                + maxModelLen
                + " - "
                + promptTokens
                + ").",
            param);
      }
      return value;
    }
  }

  /**
   * The same request answered with {@code tokens} output tokens instead of {@code max_tokens}: a
   * server that ignores {@code ignore_eos} stops where its model ends the answer.
   */
  ParsedRequest endingAt(int tokens) {
    return new ParsedRequest(
        chat, stream, includeUsage, promptIds, tokens, toolName, tokens < maxTokens, images);
  }

  /** The first tool's function name, when the request offers tools and allows a call. */
  private static String toolName(JsonNode body) {
    JsonNode tools = body.get("tools");
    if (tools == null || tools.isNull()) {
      return null;
    }
    if (!tools.isArray()) {
      throw ApiError.badRequest("tools: Input should be a valid list", "tools");
    }
    if (tools.isEmpty() || "none".equals(body.path("tool_choice").asText(""))) {
      return null;
    }
    JsonNode name = tools.get(0).path("function").path("name");
    if (!name.isTextual() || name.asText().isEmpty()) {
      throw ApiError.badRequest("tools.0.function.name: Field required", "tools");
    }
    return name.asText();
  }

  /**
   * The field a Responses request turned into a chat one carries, so the answer is an event stream.
   */
  static final String RESPONSES_MARK = "__responses";

  /**
   * A Responses API body ({@code input}: a string or messages; {@code max_output_tokens}) as the
   * chat body the simulator serves, marked ({@link #RESPONSES_MARK}) so that its answer is written
   * as Responses events. Only streamed requests are served.
   */
  static JsonNode responsesAsChat(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiError.badRequest("Request body must be a JSON object", null);
    }
    ObjectNode chat = ((ObjectNode) body).deepCopy();
    JsonNode input = chat.remove("input");
    if (input == null || input.isNull()) {
      throw ApiError.badRequest("input: Field required", "input");
    }
    if (input.isTextual()) {
      ObjectNode m = chat.putArray("messages").addObject();
      m.put("role", "user");
      m.put("content", input.asText());
    } else {
      chat.set("messages", input.isArray() ? chatMessages(input) : input);
    }
    JsonNode max = chat.remove("max_output_tokens");
    if (max != null) {
      chat.set("max_tokens", max);
    }
    if (!chat.path("stream").asBoolean(false)) {
      throw ApiError.badRequest("the simulator serves /v1/responses streamed only", "stream");
    }
    chat.put(RESPONSES_MARK, true);
    return chat;
  }

  /**
   * The Responses API's input messages with their content parts as chat's: {@code input_text} and
   * {@code output_text} as {@code text}, {@code input_image} as {@code image_url}.
   */
  private static JsonNode chatMessages(JsonNode input) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (JsonNode m : input) {
      JsonNode content = m.path("content");
      if (!m.isObject() || !content.isArray()) {
        out.add(m);
        continue;
      }
      ObjectNode message = ((ObjectNode) m).deepCopy();
      ArrayNode parts = message.putArray("content");
      for (JsonNode part : content) {
        String type = part.path("type").asText();
        if ((type.equals("input_text") || type.equals("output_text"))) {
          parts.addObject().put("type", "text").set("text", part.get("text"));
        } else if (type.equals("input_image")) {
          parts
              .addObject()
              .put("type", "image_url")
              .putObject("image_url")
              .set("url", part.get("image_url"));
        } else {
          parts.add(part);
        }
      }
      out.add(message);
    }
    return out;
  }

  /** The field an embeddings request turned into a completion one carries (prefill only). */
  static final String EMBEDDINGS_MARK = "__embeddings";

  /**
   * An embeddings body ({@code input}: a string or token ids) as the completion body the simulator
   * serves: the input as {@code prompt}, one token (the prefill's, never written: a pooling request
   * is the prefill alone), not streamed, marked ({@link #EMBEDDINGS_MARK}) so its answer is one
   * JSON body of vectors. The embeddings API's own fields ({@code encoding_format}, {@code
   * dimensions}, {@code truncate_prompt_tokens}, {@code user}) are accepted and change nothing.
   */
  static JsonNode embeddingsAsCompletion(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiError.badRequest("Request body must be a JSON object", null);
    }
    ObjectNode completion = ((ObjectNode) body).deepCopy();
    JsonNode input = completion.remove("input");
    if (input == null || input.isNull()) {
      throw ApiError.badRequest("input: Field required", "input");
    }
    if (completion.path("stream").asBoolean(false)) {
      throw ApiError.badRequest("stream: embeddings are not streamed", "stream");
    }
    for (String own : List.of("encoding_format", "dimensions", "truncate_prompt_tokens", "user")) {
      completion.remove(own);
    }
    completion.set("prompt", input);
    completion.put("max_tokens", 1);
    completion.put(EMBEDDINGS_MARK, true);
    return completion;
  }

  /** {@code model} may be absent (vLLM then uses the served model); otherwise it must match. */
  static void checkModel(JsonNode body, String servedModel) {
    checkModel(body, List.of(servedModel));
  }

  /** As {@link #checkModel(JsonNode, String)}, any of the served model and its LoRA adapters. */
  static void checkModel(JsonNode body, List<String> servedModels) {
    JsonNode m = body.get("model");
    if (m != null && !m.isNull() && !(m.isTextual() && servedModels.contains(m.asText()))) {
      throw ApiError.modelNotFound(m.isTextual() ? m.asText() : m.toString());
    }
  }

  private static boolean optBoolean(JsonNode o, String field, boolean dflt) {
    JsonNode n = o.get(field);
    if (n == null || n.isNull()) {
      return dflt;
    }
    if (!n.isBoolean()) {
      throw ApiError.badRequest(field + ": Input should be a valid boolean", field);
    }
    return n.booleanValue();
  }

  // ids for the template's special tokens in /tokenize output (the last ids of the vocabulary)
  private static int imStart(StubTokenizer t) {
    return t.vocabSize() - 1;
  }

  private static int imEnd(StubTokenizer t) {
    return t.vocabSize() - 2;
  }

  private static int newline(StubTokenizer t) {
    return t.vocabSize() - 3;
  }

  /**
   * Prompt tokens of a chat request: template ({@link StubTokenizer#TOKENS_PER_MESSAGE} per
   * message, {@link StubTokenizer#TOKENS_PER_CONVERSATION} for the generation prompt) plus the
   * content. Fills {@code ids} when not null.
   */
  static int chatPromptTokens(JsonNode body, StubTokenizer tok, List<Integer> ids) {
    return chatPromptTokens(body, tok, ids, null, new ArrayList<>());
  }

  /**
   * As {@link #chatPromptTokens(JsonNode, StubTokenizer, List)}, with {@code image_url} parts
   * charged as {@code model}'s vision tokens ({@link ImageInput}).
   */
  static int chatPromptTokens(
      JsonNode body,
      StubTokenizer tok,
      List<Integer> ids,
      ModelSpec model,
      List<ReceivedImage> images) {
    JsonNode messages = body.get("messages");
    if (messages == null || messages.isNull()) {
      throw ApiError.badRequest("messages: Field required", "messages");
    }
    if (!messages.isArray() || messages.isEmpty()) {
      throw ApiError.badRequest("messages: Input should be a non-empty list", "messages");
    }
    int n = StubTokenizer.TOKENS_PER_CONVERSATION;
    for (JsonNode msg : messages) {
      if (!msg.isObject() || !msg.path("role").isTextual()) {
        throw ApiError.badRequest(
            "messages: each message must be an object with a string 'role'", "messages");
      }
      String role = msg.get("role").asText();
      if (ids != null) {
        ids.add(imStart(tok));
        ids.add(tok.id(role));
        ids.add(newline(tok));
      }
      n += StubTokenizer.TOKENS_PER_MESSAGE;
      JsonNode content = msg.get("content");
      if (content == null || content.isNull()) {
        // allowed (e.g. assistant messages with tool calls)
      } else if (content.isTextual()) {
        n += countOrEncode(tok, content.asText(), ids);
      } else if (content.isArray()) {
        for (JsonNode part : content) {
          String type = part.path("type").asText();
          if (type.equals("image_url") && part.path("image_url").path("url").isTextual()) {
            ReceivedImage image = ImageInput.read(part.get("image_url").get("url").asText(), model);
            images.add(image);
            if (ids != null) {
              image.addIds(ids, tok.vocabSize());
            }
            n += image.tokens();
          } else if (type.equals("text") && part.path("text").isTextual()) {
            n += countOrEncode(tok, part.get("text").asText(), ids);
          } else {
            throw ApiError.badRequest(
                "messages: only {\"type\":\"text\",\"text\":...} and"
                    + " {\"type\":\"image_url\",\"image_url\":{\"url\":...}} content parts are"
                    + " supported by the simulator",
                "messages");
          }
        }
      } else {
        throw ApiError.badRequest(
            "messages: content must be a string or a list of content parts", "messages");
      }
      if (ids != null) {
        ids.add(imEnd(tok));
        ids.add(newline(tok));
      }
    }
    if (ids != null) {
      ids.add(imStart(tok));
      ids.add(tok.id("assistant"));
      ids.add(newline(tok));
    }
    return n;
  }

  /**
   * Prompt tokens of a completions request. {@code prompt}: a string, a list of token ids, or a
   * list holding one string or one token-id list. vLLM would run a list of several prompts as a
   * batch (one choice each); the simulator answers 400 for that instead.
   */
  static int completionPromptTokens(JsonNode body, StubTokenizer tok, List<Integer> ids) {
    JsonNode p = body.get("prompt");
    if (p == null || p.isNull()) {
      throw ApiError.badRequest("prompt: Field required", "prompt");
    }
    if (p.isArray() && p.size() == 1 && (p.get(0).isTextual() || p.get(0).isArray())) {
      p = p.get(0);
    }
    if (p.isTextual()) {
      return countOrEncode(tok, p.asText(), ids);
    }
    if (p.isArray()) {
      if (p.isEmpty()) {
        throw ApiError.badRequest("Prompt cannot be empty", "prompt");
      }
      for (JsonNode t : p) {
        if (t.isTextual() || t.isArray()) {
          throw ApiError.badRequest(
              "prompt: the simulator supports one prompt per request, got " + p.size(), "prompt");
        }
        if (!t.isIntegralNumber()) {
          throw ApiError.badRequest(
              "prompt: must be a string, a list of strings or a list of token ids", "prompt");
        }
        long id = t.longValue();
        if (id < 0 || id >= tok.vocabSize()) {
          throw ApiError.badRequest("Token id " + id + " is out of vocabulary", "prompt");
        }
        if (ids != null) {
          ids.add((int) id);
        }
      }
      return p.size();
    }
    throw ApiError.badRequest(
        "prompt: must be a string, a list of strings or a list of token ids", "prompt");
  }

  private static int countOrEncode(StubTokenizer tok, String text, List<Integer> ids) {
    if (ids == null) {
      return tok.count(text);
    }
    int before = ids.size();
    tok.encode(text, ids);
    return ids.size() - before;
  }

  /** Token ids for /tokenize: {@code messages} (chat template applied) or {@code prompt}. */
  static List<Integer> tokenize(JsonNode body, StubTokenizer tok) {
    List<Integer> ids = new ArrayList<>();
    if (body.has("messages")) {
      chatPromptTokens(body, tok, ids);
    } else {
      completionPromptTokens(body, tok, ids);
    }
    return ids;
  }
}
