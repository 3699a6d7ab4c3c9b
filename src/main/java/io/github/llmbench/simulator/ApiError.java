package io.github.llmbench.simulator;

/**
 * An OpenAI-style error answer. The body follows current vLLM (0.10.2 and later, {@code
 * ErrorResponse(error=ErrorInfo(...))} in vllm/entrypoints/openai/protocol.py): {@code
 * {"error":{"message":..,"type":"BadRequestError","param":..,"code":400}}}, not the older flat
 * {@code {"object":"error","message":..,"type":..,"param":..,"code":..}}.
 */
final class ApiError extends RuntimeException {
  final int status;
  final String type;
  final String param;

  ApiError(int status, String type, String message, String param) {
    super(message, null, false, false);
    this.status = status;
    this.type = type;
    this.param = param;
  }

  static ApiError badRequest(String message, String param) {
    return new ApiError(400, "BadRequestError", message, param);
  }

  static ApiError modelNotFound(String model) {
    // vLLM OpenAIServing._check_model
    return new ApiError(404, "NotFoundError", "The model `" + model + "` does not exist.", "model");
  }
}
