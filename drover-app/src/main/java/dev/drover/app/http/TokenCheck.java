package dev.drover.app.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;

/**
 * Lets reads through and asks every other request for the token: none gives 401, a wrong one 403.
 * It runs before routing, so a write to an unknown route is refused for its missing token first and
 * reveals nothing about which routes exist.
 */
final class TokenCheck {
  private static final String BEARER = "Bearer ";

  private final ApiToken token;

  TokenCheck(ApiToken token) {
    this.token = token;
  }

  void check(Context ctx) {
    HandlerType method = ctx.method();
    if (method == HandlerType.GET || method == HandlerType.HEAD || method == HandlerType.OPTIONS) {
      return;
    }
    String header = ctx.header("Authorization");
    if (header == null || header.isBlank()) {
      ctx.header("WWW-Authenticate", "Bearer");
      throw new ApiError(
          401,
          "Authorization",
          "a token is required to change anything: send 'Authorization: Bearer TOKEN' (the token"
              + " is in the data directory's "
              + ApiToken.FILE
              + " file, or "
              + ApiToken.ENV
              + ")");
    }
    if (!header.startsWith(BEARER) || !token.matches(header.substring(BEARER.length()).trim())) {
      throw new ApiError(403, "Authorization", "the token is wrong");
    }
  }
}
